// PUCT over the archive against hand-computed tables (paper-facts §6): scale, rank prior, scores, lineage blocking,
// back-propagation, admission and capacity.
#include "core/search/archive.h"

#include <QTest>

#include <cmath>

using namespace gpuf::search;

Q_DECLARE_METATYPE(std::vector<ArchiveNode>)

namespace {

// A QStringList from literals (the project builds with QT_NO_CAST_FROM_ASCII).
[[maybe_unused]] QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items)
        out << QString::fromUtf8(item);
    return out;
}

// "id:reward:visits:q[:seed][/ancestor,ancestor]" — reward "-" for none; q "-" for Q = reward.
ArchiveNode node(const QString &spec)
{
    const QStringList lineage = spec.split(QLatin1Char('/'));
    const QStringList f = lineage.first().split(QLatin1Char(':'));
    ArchiveNode n;
    n.id = f.at(0);
    if (f.at(1) != QLatin1StringView("-"))
        n.reward = f.at(1).toDouble();
    n.visits = f.at(2).toInt();
    n.q = f.at(3) == QLatin1StringView("-") ? n.reward.value_or(0.0) : f.at(3).toDouble();
    n.seed = f.size() > 4 && f.at(4) == QLatin1StringView("seed");
    n.contentHash = QStringLiteral("hash-") + n.id;
    if (lineage.size() > 1)
        n.ancestors = lineage.at(1).split(QLatin1Char(','));
    return n;
}

Archive archiveOf(const QStringList &specs, int expansions = 0)
{
    Archive a;
    for (const QString &s : specs)
        a.add(node(s));
    a.expansions = expansions;
    return a;
}

Archive archiveOf(std::initializer_list<const char *> specs, int expansions = 0)
{
    return archiveOf(list(specs), expansions);
}

} // namespace

class TestSearchPuct : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scale_data()
    {
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<double>("scale");
        QTest::newRow("non-seed range") << list({"s:1:0:-:seed", "a:1.2:0:-/s", "b:2.0:0:-/s"}) << 0.8;
        QTest::newRow("seed excluded while others have rewards")
            << list({"s:5:0:-:seed", "a:1.2:0:-/s", "b:2.0:0:-/s"}) << 0.8;
        QTest::newRow("only the seed: fallback to all, floor 1e-6") << list({"s:1:0:-:seed"}) << 1e-6;
        QTest::newRow("seeds only, two rewards") << list({"s:1:0:-:seed", "t:3:0:-:seed"}) << 2.0;
        QTest::newRow("no rewards at all") << list({"s:-:0:-:seed"}) << 1.0;
        QTest::newRow("one non-seed reward: range 0 → 1e-6")
            << list({"s:1:0:-:seed", "a:1.5:0:-/s", "b:-:0:-/s"}) << 1e-6;
    }
    void scale()
    {
        QFETCH(QStringList, nodes);
        QFETCH(double, scale);
        QCOMPARE(rewardScale(archiveOf(nodes)), scale);
    }

    void prior_data()
    {
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("count");
        QTest::addColumn<double>("prior");
        QTest::newRow("N=1") << 0 << 1 << 1.0;
        QTest::newRow("N=3 best") << 0 << 3 << 0.5;
        QTest::newRow("N=3 second") << 1 << 3 << 2.0 / 6.0;
        QTest::newRow("N=3 worst") << 2 << 3 << 1.0 / 6.0;
        QTest::newRow("N=4 rank 1") << 1 << 4 << 0.3;
        QTest::newRow("N=4 rank 3") << 3 << 4 << 0.1;
    }
    void prior()
    {
        QFETCH(int, rank);
        QFETCH(int, count);
        QFETCH(double, prior);
        QVERIFY(qFuzzyCompare(rankPrior(rank, count), prior));
    }

    // scale 0.7 (1.5 − 0.8), T = 1, √2 ≈ 1.414214; ranks a 0, s 1, b 2 → P 1/2, 1/3, 1/6.
    // s: 1.5 + 0.7·(1/3)·√2/2 = 1.664992; a: 1.5 + 0.7·(1/2)·√2 = 1.994975; b: 0.8 + 0.7·(1/6)·√2 = 0.964992.
    void scores_data()
    {
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<int>("expansions");
        QTest::addColumn<QStringList>("order");
        QTest::addColumn<QList<double>>("scores");
        QTest::newRow("after one expansion") << list({"s:1:1:1.5:seed", "a:1.5:0:-/s", "b:0.8:0:-/s"}) << 1
                                             << list({"a", "s", "b"}) << QList<double> {1.994975, 1.664992, 0.964992};
        // Only the seed: scale 1e-6, P 1, T 0: score = 1 + 1e-6.
        QTest::newRow("step 0") << list({"s:1:0:-:seed"}) << 0 << list({"s"}) << QList<double> {1.000001};
        // scale 1 (non-seed rewards 3 and 2), T = 0; ranks a 0, b 1, s 2 → P 1/2, 1/3, 1/6.
        // a: 3 + 0.5/(1+1) = 3.25; s (Q 3 from its children): 3 + (1/6)/(1+2) = 3.055556; b: 2 + (1/3)/1 = 2.333333.
        QTest::newRow("visits shrink the bonus")
            << list({"s:1:2:3:seed", "a:3:1:-/s", "b:2:0:-/s"}) << 0 << list({"a", "s", "b"})
            << QList<double> {3.25, 3.0 + 1.0 / 18.0, 2.0 + 1.0 / 3.0};
    }
    void scores()
    {
        QFETCH(QStringList, nodes);
        QFETCH(int, expansions);
        QFETCH(QStringList, order);
        QFETCH(QList<double>, scores);
        const Archive archive = archiveOf(nodes, expansions);
        const std::vector<ScoredNode> scored = scoreNodes(archive);
        QCOMPARE(int(scored.size()), order.size());
        for (int i = 0; i < order.size(); ++i) {
            QCOMPARE(archive.nodes[size_t(scored[size_t(i)].position)].id, order.at(i));
            QVERIFY2(std::abs(scored[size_t(i)].score - scores.at(i)) < 1e-6,
                qPrintable(
                    QStringLiteral("%1: %2 vs %3").arg(order.at(i)).arg(scored[size_t(i)].score).arg(scores.at(i))));
        }
    }

    void lineage_data()
    {
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<int>("count");
        QTest::addColumn<QStringList>("pinned");
        QTest::addColumn<QStringList>("vetoed");
        QTest::addColumn<QStringList>("parents");
        QTest::newRow("step 0: the seed alone")
            << list({"s:1:0:-:seed"}) << 2 << QStringList {} << QStringList {} << list({"s"});
        // Scores: c (4) > a (3) > b (2) > s (1) with T = 0 (bonuses small against these Q values).
        const QStringList chain = list({"s:1:3:1:seed", "a:3:2:-/s", "b:2:1:-/s", "c:4:1:-/a,s"});
        QTest::newRow("a chosen node blocks ancestors and descendants")
            << chain << 3 << QStringList {} << QStringList {} << list({"c", "b"});
        QTest::newRow("pinned first, its descendants blocked")
            << chain << 2 << list({"a"}) << QStringList {} << list({"a", "b"});
        QTest::newRow("vetoed never chosen") << chain << 2 << QStringList {} << list({"c"}) << list({"a", "b"});
        QTest::newRow("vetoed pin ignored") << chain << 1 << list({"b"}) << list({"b"}) << list({"c"});
        QTest::newRow("one parent") << chain << 1 << QStringList {} << QStringList {} << list({"c"});
    }
    void lineage()
    {
        QFETCH(QStringList, nodes);
        QFETCH(int, count);
        QFETCH(QStringList, pinned);
        QFETCH(QStringList, vetoed);
        QFETCH(QStringList, parents);
        QCOMPARE(selectParents(archiveOf(nodes), count, pinned, vetoed), parents);
    }

    void backpropagation()
    {
        Archive a = archiveOf({"s:1:0:-:seed", "a:1.5:0:-/s", "c:1.7:0:-/a,s"});
        backpropagate(a, {QStringLiteral("c"), {1.2, 2.0}});
        QCOMPARE(a.find(QStringLiteral("c"))->q, 2.0);
        QCOMPARE(a.find(QStringLiteral("c"))->visits, 1);
        QCOMPARE(a.find(QStringLiteral("a"))->visits, 1);
        QCOMPARE(a.find(QStringLiteral("s"))->visits, 1);
        QCOMPARE(a.find(QStringLiteral("a"))->q, 1.5); // only the parent's Q moves
        QCOMPARE(a.expansions, 1);
        // No valid child: Q stays, visits and T still count.
        backpropagate(a, {QStringLiteral("a"), {}});
        QCOMPARE(a.find(QStringLiteral("a"))->q, 1.5);
        QCOMPARE(a.find(QStringLiteral("a"))->visits, 2);
        QCOMPARE(a.find(QStringLiteral("s"))->visits, 2);
        QCOMPARE(a.find(QStringLiteral("c"))->visits, 1);
        QCOMPARE(a.expansions, 2);
        // A worse child does not lower Q.
        backpropagate(a, {QStringLiteral("c"), {0.5}});
        QCOMPARE(a.find(QStringLiteral("c"))->q, 2.0);
    }

    void admission_data()
    {
        QTest::addColumn<int>("keep");
        QTest::addColumn<QStringList>("children"); // id:parent:reward|-:hash[:forced]
        QTest::addColumn<QStringList>("admitted");
        QTest::newRow("top-2 per parent, failure and duplicates dropped")
            << 2
            << list({"x1:a:1.1:h1", "x2:a:-:h2", "x3:a:1.9:h3", "x4:a:2.5:hash-a", "x5:a:1.3:h5", "y1:s:0.9:h6",
                   "y2:s:0.95:h3"})
            << list({"x3", "x5", "y1"});
        QTest::newRow("ties keep request order") << 1 << list({"x1:a:1.5:h1", "x2:a:1.5:h2"}) << list({"x1"});
        QTest::newRow("forced ones kept outside the top-k")
            << 1 << list({"x1:a:1.5:h1", "x2:a:1.6:h2", "f1:a:0.7:h9:forced"}) << list({"x2", "f1"});
        QTest::newRow("forced failures still dropped") << 1 << list({"f1:a:-:h9:forced"}) << QStringList {};
    }
    void admission()
    {
        QFETCH(int, keep);
        QFETCH(QStringList, children);
        QFETCH(QStringList, admitted);
        Archive archive = archiveOf({"s:1:0:-:seed", "a:1.5:0:-/s"});
        QList<ChildCandidate> candidates;
        for (const QString &spec : std::as_const(children)) {
            const QStringList f = spec.split(QLatin1Char(':'));
            ChildCandidate c;
            c.id = f.at(0);
            c.parentId = f.at(1);
            if (f.at(2) != QLatin1StringView("-"))
                c.reward = f.at(2).toDouble();
            c.contentHash = f.at(3);
            c.forced = f.size() > 4;
            candidates.append(c);
        }
        QCOMPARE(admit(archive, candidates, 0, AdmissionParams {keep, 1000}), admitted);
        for (const QString &id : std::as_const(admitted)) {
            const ArchiveNode *n = archive.find(id);
            QVERIFY(n);
            QCOMPARE(n->ancestors.first(),
                candidates
                    .at([&] {
                        for (int i = 0; i < candidates.size(); ++i)
                            if (candidates.at(i).id == id)
                                return i;
                        return 0;
                    }())
                    .parentId);
            QCOMPARE(n->step, 0);
        }
    }

    void capacity()
    {
        Archive archive = archiveOf({"s:0.5:0:-:seed", "a:1.5:0:-/s", "b:0.9:0:-/s", "c:2.0:0:-/a,s", "d:1.5:0:-/s"});
        trimToCapacity(archive, 3);
        QStringList ids;
        for (const ArchiveNode &n : archive.nodes)
            ids << n.id;
        // The seed stays although it is the worst; then c (2.0) and a (1.5, admitted before d); admission order kept.
        QCOMPARE(ids, (list({"s", "a", "c"})));
        QVERIFY(archive.find(QStringLiteral("c")));
        QVERIFY(!archive.find(QStringLiteral("d")));
        QCOMPARE(archive.byHash.value(QStringLiteral("hash-c")), 2);
        // More seeds than capacity: every seed is kept.
        Archive seeds = archiveOf({"s:1:0:-:seed", "t:1:0:-:seed", "a:3:0:-/s"});
        trimToCapacity(seeds, 1);
        QCOMPARE(int(seeds.nodes.size()), 2);
    }
};

QTEST_GUILESS_MAIN(TestSearchPuct)
#include "tst_search_puct.moc"
