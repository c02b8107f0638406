// Tests for core/mutators/kernel_family and family_mutator: the shipped families, parsing with field-named errors,
// deterministic expansion, the valid space (and a family without one), neighbour moves, the family mutator.
#include "core/domain/kernel.h"
#include "core/mutators/family_mutator.h"
#include "core/mutators/mutator_factory.h"
#include "core/mutators/shipped_families.h"
#include "gpuf_config.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;
using namespace gpuf::families;

namespace {

// A small family over the transpose problem: 3 x 2 x 2 combinations, some invalid.
QJsonObject tinyFamily()
{
    return QJsonDocument::fromJson(R"json({
        "format": "gpuf-family/1", "name": "tiny", "title": "Tiny", "problem": "transpose",
        "description": "A test family.", "source_file": "tiny.cu",
        "tunables": [
            {"name": "TW", "values": [16, 32, 64], "default": 32, "note": "tile width"},
            {"name": "BR", "values": [2, 4], "default": 4, "note": "rows of threads"},
            {"name": "PAD", "values": [0, 1], "default": 1, "note": "padding"}
        ],
        "derived": [ {"name": "THREADS", "value": "TW * BR"} ],
        "constraints": [ {"expr": "THREADS >= 64", "why": "two warps at least"} ],
        "launches": [ {"entry": "tiny", "grid": ["ceil_div(cols, TW)", "ceil_div(rows, TW)", "1"],
                       "block": ["THREADS", "1", "1"], "shared_bytes": "0",
                       "args": [{"buffer": "in"}, {"buffer": "out"}, {"scalar": "rows", "dtype": "i32"},
                                {"scalar": "cols", "dtype": "i32"}]} ]
    })json")
        .object();
}

const QString kTinySource = QStringLiteral("extern \"C\" __global__ void tiny(const float* in, float* out, int rows, "
                                           "int cols) { }\n");

QJsonObject transposeProblem()
{
    QFile f(QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus/transpose/problem.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

KernelFamily tiny()
{
    auto f = parseFamily(tinyFamily(), kTinySource, transposeProblem());
    return f ? *f : KernelFamily {};
}

} // namespace

class TestKernelFamily : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shippedFamiliesHaveLargeValidSpaces_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("problem");
        for (const auto &[name, problem] : {std::pair {"sgemm_tiled", "sgemm"}, std::pair {"reduce_sum", "reduce_sum"},
                 std::pair {"row_softmax", "row_softmax"}, std::pair {"transpose", "transpose"},
                 std::pair {"sgemm_warptile", "sgemm"}, std::pair {"reduce_sum_vec", "reduce_sum"}})
            QTest::newRow(name) << QString::fromLatin1(name) << QString::fromLatin1(problem);
    }
    void shippedFamiliesHaveLargeValidSpaces()
    {
        QFETCH(QString, name);
        QFETCH(QString, problem);
        auto family = findFamily(name);
        QVERIFY2(family, qPrintable(family.error()));
        QCOMPARE(family->problem, problem);
        QVERIFY(!family->referenceVariant.isEmpty());
        for (const Tunable &t : std::as_const(family->tunables))
            QVERIFY2(t.note.size() > 60, qPrintable(name + u": tunable "_s + t.name + u" needs a teaching note"_s));
        auto valid = validConfigurations(*family);
        QVERIFY2(valid, qPrintable(valid.error()));
        QVERIFY2(valid->size() >= 200, qPrintable(u"%1 valid configurations"_s.arg(valid->size())));
        QVERIFY(valid->contains(defaultConfiguration(*family)));
        // Every valid configuration expands to its own source (so the content hash tells them apart) and a spec
        // whose launch block matches the derived thread count.
        QSet<QString> hashes;
        for (const Configuration &c : std::as_const(*valid)) {
            auto e = expand(*family, c);
            QVERIFY2(e, qPrintable(e.error()));
            hashes.insert(contentHashOf(e->source));
            QVERIFY(e->source.startsWith(u"// "_s + name));
            QCOMPARE(e->parameters.value(u"family"_s).toString(), name);
            QCOMPARE(e->parameters.value(u"tunables"_s).toObject(), configurationJson(*family, c));
            QVERIFY(!e->parameters.value(u"spec"_s).toObject().contains(u"source"_s));
        }
        QCOMPARE(hashes.size(), valid->size());
    }

    void expansionIsDeterministic()
    {
        const KernelFamily f = tiny();
        QVERIFY(!f.name.isEmpty());
        const Configuration c {64, 2, 0};
        auto a = expand(f, c);
        auto b = expand(f, c);
        QVERIFY2(a && b, qPrintable(a.error()));
        QCOMPARE(a->source, b->source);
        QCOMPARE(a->source,
            u"// tiny (gpuf-family/1 configuration): TW=64 BR=2 PAD=0\n#define TW 64\n#define BR 2\n"
            "#define PAD 0\n#define THREADS 128\n"_s
                + kTinySource);
        QCOMPARE(a->name, u"tiny TW=64 BR=2 PAD=0"_s);
        const QJsonObject launch = a->spec.value(u"launches"_s).toArray().first().toObject();
        QCOMPARE(launch.value(u"grid"_s).toArray().first().toString(), u"ceil_div(cols, 64)"_s);
        QCOMPARE(launch.value(u"block"_s).toArray().first().toString(), u"128"_s);
        QCOMPARE(launch.value(u"args"_s).toArray().first().toObject().value(u"buffer"_s).toString(), u"in"_s);
        QCOMPARE(a->spec.value(u"cases"_s), transposeProblem().value(u"cases"_s));
    }

    void validSpaceAndRejections()
    {
        const KernelFamily f = tiny();
        auto valid = validConfigurations(f);
        QVERIFY2(valid, qPrintable(valid.error()));
        // TW=16 with BR=2 or 4 gives 32 or 64 threads: only BR=4 holds; 32 and 64 pass with both BR values.
        QCOMPARE(valid->size(), 10);
        QString reason;
        QVERIFY(!satisfiesConstraints(f, {16, 2, 0}, &reason));
        QCOMPARE(reason, u"'THREADS >= 64' does not hold (two warps at least)"_s);
        auto e = expand(f, {16, 2, 0});
        QVERIFY(!e);
        QVERIFY(e.error().contains(u"TW=16 BR=2 PAD=0"_s));
    }

    void noValidConfigurationIsAClearError()
    {
        QJsonObject json = tinyFamily();
        json.insert(
            u"constraints"_s, QJsonArray {QJsonObject {{u"expr"_s, u"THREADS > 4096"_s}, {u"why"_s, u"never"_s}}});
        // The default breaks the constraint too: parsing accepts it (constraints are per configuration) ...
        auto f = parseFamily(json, kTinySource, transposeProblem());
        QVERIFY2(f, qPrintable(f.error()));
        // ... and the valid space says exactly why it is empty.
        auto valid = validConfigurations(*f);
        QVERIFY(!valid);
        QVERIFY2(valid.error().startsWith(u"family 'tiny' has no valid configuration: all 12 combinations"_s),
            qPrintable(valid.error()));
        QVERIFY(valid.error().contains(u"'THREADS > 4096' does not hold (never)"_s));
        FamilyMutator mutator(*f);
        const Status prepared = mutator.prepare({0, u"transpose"_s, 1});
        QVERIFY(!prepared);
        QCOMPARE(prepared.error(), valid.error());
    }

    void badFamilies_data()
    {
        QTest::addColumn<QString>("path"); // a JSON pointer-ish edit: key=value JSON
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("format") << u"format"_s << u"\"gpuf-family/2\""_s << u"format: expected \"gpuf-family/1\""_s;
        QTest::newRow("unknown field") << u"colour"_s << u"\"red\""_s << u"colour: unknown field"_s;
        QTest::newRow("no tunables") << u"tunables"_s << u"[]"_s << u"tunables: expected a non-empty array"_s;
        QTest::newRow("default not a value")
            << u"tunables"_s << u"[{\"name\":\"TW\",\"values\":[16,32],\"default\":12,\"note\":\"n\"}]"_s
            << u"tunables[0].default: 12 is not one of its values"_s;
        QTest::newRow("duplicate value") << u"tunables"_s
                                         << u"[{\"name\":\"TW\",\"values\":[16,16],\"default\":16,\"note\":\"n\"}]"_s
                                         << u"tunables[0].values[1]: 16 appears twice"_s;
        QTest::newRow("not an integer") << u"tunables"_s
                                        << u"[{\"name\":\"TW\",\"values\":[16,1.5],\"default\":16,\"note\":\"n\"}]"_s
                                        << u"tunables[0].values[1]: expected an integer"_s;
        QTest::newRow("case variable") << u"tunables"_s
                                       << u"[{\"name\":\"rows\",\"values\":[1],\"default\":1,\"note\":\"n\"}]"_s
                                       << u"tunables[0].name: 'rows' is also a case variable of the problem"_s;
        QTest::newRow("reserved") << u"tunables"_s
                                  << u"[{\"name\":\"min\",\"values\":[1],\"default\":1,\"note\":\"n\"}]"_s
                                  << u"tunables[0].name: 'min' is a reserved name"_s;
        QTest::newRow("no note") << u"tunables"_s << u"[{\"name\":\"TW\",\"values\":[1],\"default\":1}]"_s
                                 << u"tunables[0].note: expected a non-empty string"_s;
        QTest::newRow("unknown name in a constraint")
            << u"constraints"_s << u"[{\"expr\":\"TX > 1\",\"why\":\"w\"}]"_s << u"unknown name 'TX' in 'TX > 1'"_s;
        QTest::newRow("no launches") << u"launches"_s << u"[]"_s << u"launches: expected a non-empty array"_s;
        QTest::newRow("value beyond 2^53")
            << u"tunables"_s
            << u"[{\"name\":\"TW\",\"values\":[16,99999999999999999999],\"default\":16,\"note\":\"n\"}]"_s
            << u"tunables[0].values[1]: 1e+20 is beyond ±2^53"_s;
        QStringList many;
        for (int v = 0; v < 1000000; ++v)
            many << QString::number(v);
        QTest::newRow("a million values")
            << u"tunables"_s
            << u"[{\"name\":\"TW\",\"values\":[%1],\"default\":0,\"note\":\"n\"}]"_s.arg(many.join(u','))
            << u"tunables[0].values: 1000000 values; a tunable takes at most 4096"_s;
        const QString thousand = many.mid(0, 1000).join(u',');
        QString wide;
        for (const char *name : {"TW", "BR", "PAD"})
            wide += u"{\"name\":\"%1\",\"values\":[%2],\"default\":0,\"note\":\"n\"},"_s.arg(
                QLatin1StringView(name), thousand);
        wide.chop(1);
        QTest::newRow("a billion configurations")
            << u"tunables"_s << u"["_s + wide + u"]"_s
            << u"tunables: the values span more than 1000000 configurations (up to 'PAD')"_s;
        QTest::newRow("derived from a later one")
            << u"derived"_s
            << u"[{\"name\":\"THREADS\",\"value\":\"LANES * BR\"},{\"name\":\"LANES\",\"value\":\"TW\"}]"_s
            << u"derived[0].value: 'LANES * BR' names 'LANES', which is not a tunable, a case variable or a derived "
               "value defined before it"_s;
        QTest::newRow("launch of a kernel the source lacks")
            << u"launches"_s
            << u"[{\"entry\":\"nosuch\",\"grid\":[\"1\",\"1\",\"1\"],\"block\":[\"THREADS\",\"1\",\"1\"],"
               "\"shared_bytes\":\"0\",\"args\":[]}]"_s
            << u"launches[0].entry: the source defines no kernel 'nosuch'"_s;
    }
    void badFamilies()
    {
        QFETCH(QString, path);
        QFETCH(QString, value);
        QFETCH(QString, error);
        QJsonObject json = tinyFamily();
        const QJsonDocument v = QJsonDocument::fromJson((u"{\"v\":"_s + value + u"}"_s).toUtf8());
        json.insert(path, v.object().value(u"v"_s));
        auto f = parseFamily(json, kTinySource, transposeProblem());
        QVERIFY(!f);
        QVERIFY2(f.error().contains(error), qPrintable(f.error()));
    }

    void badFiles()
    {
        auto missing = loadFamily(u"/nonexistent/family.json"_s, shippedCorpusDir());
        QVERIFY(!missing);
        QVERIFY2(missing.error().startsWith(u"/nonexistent/family.json: cannot read"_s), qPrintable(missing.error()));
        auto unknown = findFamily(u"gemv"_s);
        QVERIFY(!unknown);
        QCOMPARE(unknown.error(),
            u"no kernel family named 'gemv' (there are: reduce_sum, reduce_sum_vec, row_softmax, sgemm_tiled, "
            "sgemm_warptile, transpose)"_s);
    }

    void configurationJsonRoundTrip()
    {
        const KernelFamily f = tiny();
        auto back = configurationFromJson(f, configurationJson(f, {32, 4, 1}));
        QVERIFY(back);
        QCOMPARE(*back, (Configuration {32, 4, 1}));
        QCOMPARE(configurationFromJson(f, QJsonObject {{u"TW"_s, 32}, {u"BR"_s, 4}}).error(),
            u"tunable 'PAD' of family 'tiny': expected an integer"_s);
        QCOMPARE(configurationFromJson(f, QJsonObject {{u"TW"_s, 48}, {u"BR"_s, 4}, {u"PAD"_s, 0}}).error(),
            u"tunable 'TW' of family 'tiny': 48 is not one of its values"_s);
        QCOMPARE(
            configurationFromJson(f, QJsonObject {{u"TW"_s, 32}, {u"BR"_s, 4}, {u"PAD"_s, 0}, {u"X"_s, 1}}).error(),
            u"family 'tiny' has no tunable 'X'"_s);
    }

    void neighbourMovesOneOrTwoTunablesOneStep()
    {
        auto family = findFamily(u"sgemm_tiled"_s);
        QVERIFY(family);
        auto valid = validConfigurations(*family);
        QVERIFY(valid);
        const QSet<Configuration> validSet(valid->begin(), valid->end());
        const Configuration parent = defaultConfiguration(*family);
        QSet<int> movedCounts;
        QSet<Configuration> seen;
        for (quint64 seed = 0; seed < 200; ++seed) {
            auto move = neighbour(*family, *valid, parent, seed);
            QVERIFY2(move, qPrintable(move.error()));
            QVERIFY(validSet.contains(move->configuration));
            int changed = 0;
            for (int i = 0; i < parent.size(); ++i) {
                if (parent[i] == move->configuration[i])
                    continue;
                ++changed;
                const QList<qint64> &values = family->tunables[i].values;
                QCOMPARE(std::abs(values.indexOf(parent[i]) - values.indexOf(move->configuration[i])), 1);
                QVERIFY(move->changed.contains(family->tunables[i].name));
            }
            QCOMPARE(changed, move->changed.size());
            QVERIFY(changed == 1 || changed == 2);
            movedCounts.insert(changed);
            seen.insert(move->configuration);
            // Pure: the same seed gives the same move.
            QCOMPARE(neighbour(*family, *valid, parent, seed)->configuration, move->configuration);
        }
        QCOMPARE(movedCounts, (QSet<int> {1, 2}));
        QVERIFY(seen.size() > 10);
    }

    void neighbourFailures()
    {
        const KernelFamily f = tiny();
        auto valid = validConfigurations(f);
        QVERIFY(valid);
        auto invalidParent = neighbour(f, *valid, {16, 2, 0}, 1);
        QVERIFY(!invalidParent);
        QCOMPARE(invalidParent.error(), u"family 'tiny': the parent (TW=16 BR=2 PAD=0) is not a valid configuration"_s);
        auto lonely = neighbour(f, {{32, 4, 1}}, {32, 4, 1}, 1);
        QVERIFY(!lonely);
        QCOMPARE(lonely.error(), u"family 'tiny': TW=32 BR=4 PAD=1 has no valid neighbour"_s);
    }

    void sampleIsSeededAndDistinct()
    {
        const QList<Configuration> all {{1}, {2}, {3}, {4}, {5}, {6}};
        const auto a = sampleConfigurations(all, 4, 7);
        QCOMPARE(a.size(), 4);
        QCOMPARE(a, sampleConfigurations(all, 4, 7));
        QCOMPARE(QSet<Configuration>(a.begin(), a.end()).size(), 4);
        const auto everything = sampleConfigurations(all, 0, 7);
        QCOMPARE(
            QSet<Configuration>(everything.begin(), everything.end()), QSet<Configuration>(all.begin(), all.end()));
        QVERIFY(sampleConfigurations(all, 0, 7) != sampleConfigurations(all, 0, 8));
    }

    void familyMutatorAnswers()
    {
        auto family = findFamily(u"transpose"_s);
        QVERIFY(family);
        FamilyMutator mutator(*family);
        QCOMPARE(mutator.kind(), u"family"_s);
        const Status wrong = mutator.prepare({0, u"sgemm"_s, 1});
        QVERIFY(!wrong);
        QCOMPARE(wrong.error(), u"family 'transpose' writes kernels for problem 'transpose', not 'sgemm'"_s);
        QVERIFY(mutator.prepare({0, u"transpose"_s, 1}));
        const auto seed = mutator.seed();
        QVERIFY(seed);
        QCOMPARE(seed->origin, u"param"_s);
        QCOMPARE(seed->parameters.value(u"tunables"_s).toObject(),
            configurationJson(*family, defaultConfiguration(*family)));

        search::MutationRequest request;
        request.requestId = u"01JREQUEST0000000000000000"_s;
        request.seed = 99;
        request.parent.source = seed->source;
        request.parent.parameters = seed->parameters;
        QList<search::MutationResult> answers;
        mutator.request({request, request}, [&](search::MutationResult r) { answers.append(r); });
        QCOMPARE(answers.size(), 2);
        QVERIFY2(answers[0].proposal, qPrintable(answers[0].error));
        QCOMPARE(answers[0].requestId, request.requestId);
        QCOMPARE(answers[0].proposal->source, answers[1].proposal->source); // same request, same answer
        QVERIFY(answers[0].proposal->source != seed->source);
        const QJsonArray moved = answers[0].details.value(u"moved"_s).toArray();
        QVERIFY(moved.size() == 1 || moved.size() == 2);
        // The teaching note of each moved tunable travels with the proposal.
        const QString first = moved.first().toString();
        QVERIFY(answers[0].proposal->notes.contains(family->tunables[family->tunableIndex(first)].note));

        // A parent that is not one of the family's kernels (the problem's reference) gets a seeded random start.
        search::MutationRequest fromReference = request;
        fromReference.parent.parameters = QJsonObject {};
        const auto r = mutator.answer(fromReference);
        QVERIFY2(r.proposal, qPrintable(r.error));
        QCOMPARE(mutator.answer(fromReference).proposal->source, r.proposal->source);
    }

    void factory()
    {
        auto made = makeFamilyMutator(QJsonObject {{u"family"_s, u"row_softmax"_s}});
        QVERIFY2(made, qPrintable(made.error()));
        QCOMPARE((*made)->kind(), u"family"_s);
        QCOMPARE((*made)->configuration().value(u"family"_s).toString(), u"row_softmax"_s);
        QCOMPARE(makeFamilyMutator({}).error(),
            u"the family mutator needs a family name (mutator configuration 'family')"_s);
        QVERIFY(
            makeFamilyMutator(QJsonObject {{u"family"_s, u"gemv"_s}}).error().startsWith(u"no kernel family named"_s));
    }
};

QTEST_GUILESS_MAIN(TestKernelFamily)
#include "tst_kernel_family.moc"
