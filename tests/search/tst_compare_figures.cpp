// The strategy comparison's pure parts: the baselines on synthetic spaces with a known answer, random search's exact
// expectation against a simulation and the closed form (N + 1) / (k + 1), the performance score and the intervals
// on hand-computed cases.
#include "core/search/baselines.h"
#include "core/search/compare_figures.h"

#include <QSet>
#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::search;

namespace {

// A grid of a × b configurations whose speedup is a smooth hill peaking at (pa, pb), so hill climbing can follow it;
// `failEvery`: every n-th point fails.
TuningSpace hill(int a, int b, int pa, int pb, int failEvery = 0)
{
    TuningSpace s;
    s.name = QStringLiteral("hill");
    s.tunables = {QStringLiteral("X"), QStringLiteral("Y")};
    QList<qint64> xs, ys;
    for (int i = 0; i < a; ++i)
        xs << i * 2;
    for (int j = 0; j < b; ++j)
        ys << j;
    s.values = {xs, ys};
    int n = 0;
    for (int i = 0; i < a; ++i) {
        for (int j = 0; j < b; ++j) {
            SpacePoint p;
            p.configuration = {i * 2, j};
            p.contentHash = QStringLiteral("h%1").arg(n);
            if (failEvery > 0 && n % failEvery == failEvery - 1 && !(i == pa && j == pb)) {
                p.speedup.reset();
            } else {
                p.speedup = 4.0 / (1.0 + 0.1 * std::abs(i - pa) + 0.15 * std::abs(j - pb));
                p.runtimeUs = 100.0 / *p.speedup;
            }
            s.points << p;
            ++n;
        }
    }
    if (!s.index())
        qFatal("bad synthetic space");
    return s;
}

// N points, k of them at the optimum 2.0, the rest at 1.5.
TuningSpace flat(int n, int k)
{
    TuningSpace s;
    s.name = QStringLiteral("flat");
    s.tunables = {QStringLiteral("I")};
    QList<qint64> values;
    for (int i = 0; i < n; ++i) {
        values << i;
        SpacePoint p;
        p.configuration = {i};
        p.speedup = i < k ? 2.0 : 1.5;
        s.points << p;
    }
    s.values = {values};
    if (!s.index())
        qFatal("bad synthetic space");
    return s;
}

} // namespace

class TestCompareFigures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void neighboursAreOneStepOfOneTunable()
    {
        const TuningSpace s = hill(4, 3, 1, 1);
        const int corner = s.indexOf({0, 0});
        const int middle = s.indexOf({2, 1});
        QCOMPARE(s.neighbours(corner).size(), 2);
        QCOMPARE(s.neighbours(middle).size(), 4);
        QCOMPARE(s.indexOf({1, 1}), -1); // 1 is not one of X's values
        QCOMPARE(s.label(middle), QStringLiteral("X=2 Y=1"));
        QCOMPARE(s.optimum(), 4.0);
        QCOMPARE(s.countNear(0.0), 1);
    }

    void baselinesEvaluateEachConfigurationOnceWithinBudget_data()
    {
        QTest::addColumn<QString>("baseline");
        QTest::addColumn<int>("budget");
        for (const char *b : {"random", "greedy", "genetic"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 40").arg(QLatin1StringView(b))))
                << QString::fromLatin1(b) << 40;
            QTest::newRow(qPrintable(QStringLiteral("%1 whole space").arg(QLatin1StringView(b))))
                << QString::fromLatin1(b) << 1000;
        }
    }
    void baselinesEvaluateEachConfigurationOnceWithinBudget()
    {
        QFETCH(QString, baseline);
        QFETCH(int, budget);
        const TuningSpace s = hill(12, 10, 9, 2, 7);
        const Baseline b = *baselineFromName(baseline);
        for (quint64 seed = 0; seed < 5; ++seed) {
            const QList<int> order = runBaseline(b, s, budget, seed);
            QCOMPARE(order.size(), std::min(budget, s.size()));
            QCOMPARE(QSet<int>(order.begin(), order.end()).size(), order.size());
            QCOMPARE(runBaseline(b, s, budget, seed), order); // deterministic
        }
        QVERIFY(runBaseline(b, s, budget, 1) != runBaseline(b, s, budget, 2));
    }

    // On a smooth hill the local searches find the peak far sooner than drawing at random.
    void localSearchesClimbTheHill()
    {
        const TuningSpace s = hill(20, 20, 13, 6);
        const double optimum = s.optimum();
        QList<double> greedy, genetic, random;
        for (quint64 seed = 0; seed < 20; ++seed) {
            greedy << evaluationsToReach(anytimeCurve(s, hillClimb(s, 400, seed), 400), optimum);
            genetic << evaluationsToReach(anytimeCurve(s, geneticSearch(s, 400, seed), 400), optimum);
            random << evaluationsToReach(anytimeCurve(s, randomSearch(s, 400, seed), 400), optimum);
        }
        for (double v : std::as_const(greedy))
            QVERIFY(v > 0);
        QVERIFY2(meanInterval(greedy).mean < meanInterval(random).mean / 3,
            qPrintable(
                QStringLiteral("greedy %1, random %2").arg(meanInterval(greedy).mean).arg(meanInterval(random).mean)));
        QVERIFY(meanInterval(genetic).mean < meanInterval(random).mean);
    }

    // Random search without replacement: k optima among N are first drawn after (N + 1) / (k + 1) draws on average;
    // the exact expected curve agrees with the mean of many seeded runs.
    void randomSearchMatchesItsExpectation()
    {
        const TuningSpace s = flat(60, 3);
        QCOMPARE(randomEvaluationsToOptimum(s, 0.0), 61.0 / 4.0);
        double sum = 0.0;
        const int runs = 4000;
        QList<double> simulated(61, 0.0);
        for (int r = 0; r < runs; ++r) {
            const QList<double> curve = anytimeCurve(s, randomSearch(s, 60, quint64(r)), 60);
            sum += evaluationsToReach(curve, 2.0);
            for (int e = 0; e <= 60; ++e)
                simulated[e] += curve.at(e) / runs;
        }
        QVERIFY2(std::abs(sum / runs - 61.0 / 4.0) < 0.6, qPrintable(QString::number(sum / runs)));
        const QList<double> expected = randomExpectation(s, 60);
        QCOMPARE(expected.first(), 1.0);
        // Hand-computed: one draw finds the optimum with p = 3/60: E = 1.5 + 0.5 × 3/60.
        QVERIFY(std::abs(expected.at(1) - (1.5 + 0.5 * 3.0 / 60.0)) < 1e-12);
        // Two draws miss all three with p = (57/60)(56/59).
        QVERIFY(std::abs(expected.at(2) - (2.0 - 0.5 * (57.0 / 60.0) * (56.0 / 59.0))) < 1e-12);
        QCOMPARE(expected.at(60), 2.0);
        for (int e = 0; e <= 60; ++e)
            QVERIFY2(std::abs(expected.at(e) - simulated.at(e)) < 0.01, qPrintable(QString::number(e)));
    }

    void failuresCountAsEvaluationsAndFindNothing()
    {
        TuningSpace s = flat(4, 1);
        s.points[1].speedup.reset();
        QVERIFY(s.index());
        const QList<double> curve = anytimeCurve(s, {1, 2, 0}, 5);
        QCOMPARE(curve, (QList<double> {1.0, 1.0, 1.5, 2.0, 2.0, 2.0}));
        QCOMPARE(evaluationsToReach(curve, 2.0), 3);
        QCOMPARE(evaluationsToReach(curve, 3.0), -1);
        QCOMPARE(evaluationsToReach(curve, nearOptimum(2.02, 0.01)), 3); // 2.0 is within 1 % of 2.02
    }

    void performanceScore()
    {
        // Runtimes relative to the reference: random's expected 0.8 then 0.5; optimum 0.5.
        const QList<double> random {1.0, 0.8, 0.5};
        QCOMPARE(*gpuf::search::performanceScore({1.0, 2.0, 2.0}, random, 2.0), 1.0); // optimum at once
        QCOMPARE(*gpuf::search::performanceScore({1.0, 1.25, 2.0}, random, 2.0), 0.0); // as good as random
        // Halfway between random and the optimum at e = 1 (runtime 0.65); e = 2 adds nothing (random at optimum).
        QVERIFY(std::abs(*gpuf::search::performanceScore({1.0, 1.0 / 0.65, 2.0}, random, 2.0) - 0.5) < 1e-12);
        // Worse than random: runtime 1.0 against random's 0.8 and the optimum's 0.5 → (0.8 − 1) / 0.3.
        QVERIFY(std::abs(*gpuf::search::performanceScore({1.0, 1.0, 2.0}, random, 2.0) - (-0.2 / 0.3)) < 1e-12);
        QVERIFY(!gpuf::search::performanceScore({1.0, 2.0}, {1.0, 0.5}, 2.0)); // nothing to beat
    }

    // The methodology's range: from where random search's expectation is half way from the median runtime to the
    // optimum's to where it is 96 % of the way.
    void scoreRangeFollowsRandomSearch()
    {
        // Runtimes 1/2 (one optimum) and 1/1 (the other 9): median 1, optimum 0.5; halfway target 0.75, 96 % 0.52.
        TuningSpace s = flat(10, 1);
        for (qsizetype i = 1; i < s.points.size(); ++i)
            s.points[i].speedup = 1.0;
        QVERIFY(s.index());
        const QList<double> random = randomExpectedRuntime(s, 10);
        // After e draws random search has the optimum with p = e/10: expected runtime 1 − e/20 (not 1 / (1 + e/10));
        // ≤ 0.75 first at e = 5, ≤ 0.52 first at e = 10 (0.5).
        QVERIFY(std::abs(random.at(4) - 0.8) < 1e-12);
        QCOMPARE(scoreRange(s, random), (std::pair<int, int> {5, 10}));
        QCOMPARE(scoreRange(s, randomExpectedRuntime(s, 7)), (std::pair<int, int> {5, 7})); // clipped to the budget
        QVERIFY(scoreRange(s, randomExpectedRuntime(s, 3)).first > 3); // nothing to score within 3
        // Scored over 5..10 only: the optimum at once scores 1 where random has not reached it (e = 5..9).
        QList<double> atOnce(11, 2.0);
        atOnce[0] = 1.0;
        QCOMPARE(*gpuf::search::performanceScore(atOnce, random, 2.0, 5, 10), 1.0);
    }

    void intervals()
    {
        const Interval one = meanInterval({3.0});
        QCOMPARE(one.mean, 3.0);
        QCOMPARE(one.low, 3.0);
        // Mean 2, sd 1, n 3: half-width t(2) × 1 / √3 = 4.303 / 1.732.
        const Interval three = meanInterval({1.0, 2.0, 3.0});
        QCOMPARE(three.mean, 2.0);
        QVERIFY(std::abs(three.high - (2.0 + 4.303 / std::sqrt(3.0))) < 1e-9);
        QVERIFY(std::abs(studentT975(60) - 2.000) < 0.002);
        QVERIFY(std::abs(studentT975(1000) - 1.962) < 0.002);
    }
};

QTEST_GUILESS_MAIN(TestCompareFigures)
#include "tst_compare_figures.moc"
