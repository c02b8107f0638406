// Tuning spaces of other auto-tuners in a real store: a Kernel Tuner cache imported as a space (idempotently), its
// replay world and space, searches and baselines on it through `compareStrategies`, the recorded-space mutator of the
// standard mode, the way back to T4, and the refusals of bad import options, each leaving the store as it was.
#include "../support/cli_run.h"
#include "core/interop/tuning_import.h"
#include "core/interop/tuning_results.h"
#include "core/search/compare.h"
#include "core/search/replay_world.h"
#include "core/search/search_learner.h"
#include "core/search/search_state.h"
#include "core/search/space_export.h"
#include "core/search/space_mutator.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::search;

namespace {

const QString kFile = QStringLiteral(GPUF_TEST_DATA_DIR "/tuning/bowl-kernel-tuner.json");

bool sameCounts(const StoreCounts &a, const StoreCounts &b)
{
    return a.problems == b.problems && a.kernels == b.kernels && a.hardware == b.hardware
        && a.measurements == b.measurements;
}

} // namespace

class TestTuningSpaces : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;

    interop::TuningResults results()
    {
        auto r = interop::readTuningResults(kFile);
        if (!r)
            qFatal("%s", qPrintable(r.error()));
        return *r;
    }

    // The test file as the space "bowl".
    Result<interop::TuningImportReport> importBowl(Store &store)
    {
        interop::TuningImportOptions options;
        options.sourceFile = kFile;
        options.name = QStringLiteral("bowl");
        return interop::importTuningResults(store, results(), options);
    }

    // Three steps of one parent with two GPU measurements each, on "bowl", three seeds.
    CompareOptions bowlComparison() const
    {
        CompareOptions options;
        options.base.problem = QStringLiteral("bowl");
        options.base.mutator = MutatorKind::Family;
        options.base.mutatorConfig = {{QStringLiteral("family"), QStringLiteral("bowl")}};
        options.base.forecaster = QStringLiteral("costmodel");
        options.base.steps = 3;
        options.base.parentsPerStep = 1;
        options.base.measurementsPerParent = 2;
        options.base.proposalsPerParent = 2;
        options.storePath = m_store;
        options.seeds = 3;
        return options;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_store = m_dir.filePath(QStringLiteral("spaces.gpuf"));
        auto store = Store::open(m_store);
        QVERIFY(store);
        auto report = importBowl(**store);
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->configurations, 32);
        QCOMPARE(report->failures, 2);
        QCOMPARE(report->kernelsAdded, 32);
        QCOMPARE(report->measurementsAdded, 32);
        QCOMPARE(report->hardware, QStringLiteral("Test GPU 16GB"));
        QVERIFY(!report->withTemplate);
        QVERIFY(report->text().contains(QLatin1StringView("no kernel template")));
    }

    void importIsIdempotent()
    {
        auto store = Store::open(m_store, Store::Mode::ExistingOnly);
        const StoreCounts before = (*store)->counts().value();
        auto again = importBowl(**store);
        QVERIFY2(again, qPrintable(again.error()));
        QCOMPARE(again->kernelsAdded, 0);
        QCOMPARE(again->measurementsAdded, 0);
        QVERIFY(sameCounts((*store)->counts().value(), before));
    }

    // The space read back from the store: 32 configurations, the two failures, speedups over the median
    // configuration (time 1.55 ms), so the optimum (1.00 ms) is 1.55×.
    void spaceFromTheStore()
    {
        auto store = Store::open(m_store, Store::Mode::ExistingOnly);
        auto world = loadReplayWorld(**store, QStringLiteral("bowl"));
        QVERIFY2(world, qPrintable(world.error()));
        QCOMPARE(world->hardware.name, QStringLiteral("Test GPU 16GB"));
        auto space = spaceFromWorld(*world, QStringLiteral("bowl"));
        QVERIFY2(space, qPrintable(space.error()));
        QCOMPARE(space->tunables, (QStringList {QStringLiteral("BX"), QStringLiteral("TY"), QStringLiteral("UNROLL")}));
        QCOMPARE(space->values.at(0), (QList<qint64> {32, 64, 128, 256}));
        // The reference itself is a configuration of the space (1×), with its own recorded time.
        QCOMPARE(space->size(), 32);
        QCOMPARE(*space->points.at(space->indexOfHash(world->reference.contentHash)).speedup, 1.0);
        int failed = 0;
        for (const SpacePoint &p : std::as_const(space->points))
            failed += p.speedup ? 0 : 1;
        QCOMPARE(failed, 2);
        QVERIFY(std::abs(space->optimum() - 1.55) < 1e-9);
        const int best = space->indexOf({64, 2, 1});
        QVERIFY(best >= 0);
        QVERIFY(std::abs(*space->points.at(best).speedup - 1.55) < 1e-9);
        QCOMPARE(space->neighbours(best).size(), 5); // BX 32/128, TY 1/3, UNROLL 0
    }

    // Modes and baselines on the imported space: the cost model cannot read a space without code, so the surrogate
    // mode chooses by the learner alone (--forecaster none), from the tunables, and the report says so; standard
    // searches it through the recorded-space mutator.
    void compareOnTheImportedSpace()
    {
        CompareOptions options = bowlComparison();
        options.strategies = *strategiesFromNames(QStringLiteral("standard,surrogate,random,greedy,genetic"));
        auto report = compareStrategies(options);
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->space, QStringLiteral("bowl"));
        QCOMPARE(report->budget, 6); // the search starts from the reference, which costs no evaluation
        QCOMPARE(report->strategies.size(), 5);
        QCOMPARE(report->forecaster, QStringLiteral("none"));
        QVERIFY(report->notes.join(QLatin1Char(' ')).contains(QLatin1StringView("learner alone")));
        const StrategyResult *surrogate = report->find(QStringLiteral("surrogate"));
        QVERIFY(surrogate);
        for (int i = 0; i < surrogate->evaluations.size(); ++i) {
            QVERIFY(surrogate->evaluations.at(i) >= 1 && surrogate->evaluations.at(i) <= 6);
            QCOMPARE(surrogate->forecasts.at(i), 0); // no prior forecaster was asked
        }
        const StrategyResult *standard = report->find(QStringLiteral("standard"));
        QVERIFY(standard);
        for (int e : standard->evaluations)
            QVERIFY(e > 1 && e <= 6);
        for (const StrategyResult &s : std::as_const(report->strategies)) {
            for (const QList<double> &c : s.curves) {
                QCOMPARE(c.size(), 7);
                QVERIFY(c.last() <= report->optimum + 1e-9);
            }
        }
        // The text and the JSON carry the same figures.
        const QJsonObject json = report->toJson();
        QCOMPARE(json.value(QStringLiteral("space_size")).toInt(), 32);
        QCOMPARE(json.value(QStringLiteral("strategies")).toArray().size(), 5);
        QCOMPARE(json.value(QStringLiteral("forecaster")).toString(), QStringLiteral("none"));
        QVERIFY(report->text().contains(QStringLiteral("optimum 1.550×")));
    }

    // The paper's policy ranks a forecaster's bins: without code the surrogate mode is not run, and the report says
    // why and what would run it.
    void paperPolicyNeedsCode()
    {
        CompareOptions options = bowlComparison();
        options.base.policy = Policy::Paper;
        options.strategies = *strategiesFromNames(QStringLiteral("standard,surrogate"));
        auto report = compareStrategies(options);
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->strategies.size(), 1);
        QVERIFY(!report->find(QStringLiteral("surrogate")));
        const QString notes = report->notes.join(QLatin1Char(' '));
        QVERIFY2(notes.contains(QLatin1StringView("without its kernel template")), qPrintable(notes));
        QVERIFY2(notes.contains(QLatin1StringView("the probability policy runs the learner alone")), qPrintable(notes));
    }

    // The learner alone on a longer search of the space: it learns from the tunables (a learner version > 0 forecasts
    // proposals once five configurations are measured) and finds the optimum.
    void learnerAloneLearnsFromTheTunables()
    {
        auto store = Store::open(m_store, Store::Mode::ExistingOnly);
        QVERIFY(store);
        SearchConfig config = bowlComparison().base;
        config.mode = Mode::Selective;
        config.forecaster = QLatin1StringView(kLearnerAlone);
        config.gpu = GpuSource::replay();
        config.hardware = QStringLiteral("Test GPU 16GB");
        config.steps = 20;
        config.measurementsPerParent = 2;
        config.proposalsPerParent = 6;
        config.seed = 3;
        QVERIFY2(config.validate(), qPrintable(config.validate().error()));
        auto state = runInMemory(**store, config, {}, {});
        QVERIFY2(state, qPrintable(state.error()));
        QCOMPARE(state->forecastsDone, 0);
        int learned = 0;
        for (const Candidate &c : state->candidates)
            learned += c.learnerVersion >= LearnerFit::kMinSamples ? 1 : 0;
        QVERIFY2(learned > 0, "no proposal was forecast by the learner");
        QVERIFY(state->bestReward);
        QVERIFY2(std::abs(*state->bestReward - 1.55) < 1e-9,
            qPrintable(
                QStringLiteral("best %1 after %2 GPU evaluations").arg(*state->bestReward).arg(state->gpuEvaluations)));

        config.policy = Policy::Paper;
        const Status refused = config.validate();
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1StringView("--forecaster none")), qPrintable(refused.error()));
    }

    void exportsBackToT4()
    {
        auto store = Store::open(m_store, Store::Mode::ExistingOnly);
        auto recorded = recordedTuningResults(**store, QStringLiteral("bowl"), QStringLiteral("bowl"));
        QVERIFY2(recorded, qPrintable(recorded.error()));
        QCOMPARE(recorded->entries.size(), 32);
        auto read = interop::parseTuningResults(interop::writeT4(*recorded), QStringLiteral("bowl.t4.json"));
        QVERIFY2(read, qPrintable(read.error()));
        QCOMPARE(read->format, interop::TuningFormat::T4);
        QCOMPARE(read->entries.size(), 32);
        const int bx = read->tunableIndex(QStringLiteral("BX"));
        const int ty = read->tunableIndex(QStringLiteral("TY"));
        bool sawBest = false, sawCompileFailure = false;
        for (const interop::TuningEntry &e : std::as_const(read->entries)) {
            if (e.configuration.at(bx) == 64 && e.configuration.at(ty) == 2
                && e.outcome == interop::TuningEntry::Outcome::Ok && std::abs(e.timeUs - 1000.0) < 1e-6)
                sawBest = true;
            sawCompileFailure = sawCompileFailure || e.outcome == interop::TuningEntry::Outcome::CompileFailed;
        }
        QVERIFY(sawBest); // 1.0 ms in the Kernel Tuner file, 1000 µs back
        QVERIFY(sawCompileFailure);
    }

    void badImportOptions_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<QString>("templateText");
        QTest::addColumn<QString>("reference");
        QTest::addColumn<QString>("expected");
        QTest::newRow("name taken by another problem") << QStringLiteral("other") << QString() << QString() << QString()
                                                       << QStringLiteral("not this tuning space");
        QTest::newRow("hardware disagrees") << QStringLiteral("bowl2") << QStringLiteral("NVIDIA H100") << QString()
                                            << QString() << QStringLiteral("disagrees with the file");
        QTest::newRow("template redefines a tunable")
            << QStringLiteral("bowl4") << QString()
            << QStringLiteral("#define BX 32\n__global__ void k() { int x = BX * TY * UNROLL; }\n") << QString()
            << QStringLiteral("tpl.cu:1: #define BX redefines a tunable");
        QTest::newRow("reference not every tunable")
            << QStringLiteral("bowl5") << QString() << QString() << QStringLiteral("BX=64 TY=2")
            << QStringLiteral("give every one");
        QTest::newRow("reference failed") << QStringLiteral("bowl6") << QString() << QString()
                                          << QStringLiteral("BX=256,TY=4,UNROLL=1") << QStringLiteral("needs a time");
        QTest::newRow("reference outside the space")
            << QStringLiteral("bowl7") << QString() << QString() << QStringLiteral("BX=48 TY=2 UNROLL=1")
            << QStringLiteral("is not a configuration of the file");
        QTest::newRow("name with a slash")
            << QStringLiteral("a/b") << QString() << QString() << QString() << QStringLiteral("cannot name a space");
    }
    void badImportOptions()
    {
        QFETCH(QString, name);
        QFETCH(QString, hardware);
        QFETCH(QString, templateText);
        QFETCH(QString, reference);
        QFETCH(QString, expected);
        auto store = Store::open(m_store, Store::Mode::ExistingOnly);
        if (name == QLatin1StringView("other")) {
            Problem p;
            p.name = name;
            QVERIFY(ProblemRepo(**store).ensure(p));
        }
        const StoreCounts before = (*store)->counts().value();
        interop::TuningImportOptions options;
        options.sourceFile = kFile;
        options.name = name;
        options.hardware = hardware;
        options.templateText = templateText;
        options.templateFile = QStringLiteral("tpl.cu");
        options.reference = reference;
        auto report = interop::importTuningResults(**store, results(), options);
        QVERIFY(!report);
        QVERIFY2(report.error().contains(expected), qPrintable(report.error()));
        QVERIFY(sameCounts((*store)->counts().value(), before)); // nothing written
    }

    // The same through the programs a user runs: import, compare with --json and --csv, export to T4, and the
    // one-sentence refusals of a wrong strategy and of a code-reading forecaster on a space without code.
    void throughTheCli()
    {
        const QString gpuf = QStringLiteral(GPUF_CLI_PATH);
        const QString store = m_dir.filePath(QStringLiteral("cli.gpuf"));
        auto imported = test::asText(test::runProgram(gpuf, {QStringLiteral("import"), store, kFile}));
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        QVERIFY2(imported.out.contains(QLatin1StringView("tuning space 'bowl_kernel' on Test GPU 16GB: 32 "
                                                         "configurations (2 failed)")),
            qPrintable(imported.out));
        const QString csv = m_dir.filePath(QStringLiteral("curves.csv"));
        const QStringList compare {QStringLiteral("search"), QStringLiteral("compare"), store,
            QStringLiteral("--family"), QStringLiteral("bowl_kernel"), QStringLiteral("--strategies"),
            QStringLiteral("standard,random,greedy"), QStringLiteral("--seeds"), QStringLiteral("3"),
            QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--jobs"), QStringLiteral("2")};
        auto json
            = test::runProgram(gpuf, compare + QStringList {QStringLiteral("--json"), QStringLiteral("--csv"), csv});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(report.value(QStringLiteral("space_size")).toInt(), 32);
        QCOMPARE(report.value(QStringLiteral("budget")).toInt(), 3 * 2 * 4); // from the reference: no seed to measure
        const QJsonArray strategies = report.value(QStringLiteral("strategies")).toArray();
        QCOMPARE(strategies.size(), 3);
        QVERIFY(json.err.contains("[9/9]")); // progress on stderr
        QFile curves(csv);
        QVERIFY(curves.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = curves.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 1 + 4 * 25); // header, 3 strategies and random's expectation × e = 0..24
        // The CSV's last greedy row is the JSON's mean at the full budget.
        const double greedyEnd
            = strategies.at(2).toObject()[QStringLiteral("curve")][QStringLiteral("mean")][24].toDouble();
        QVERIFY(rows.at(qsizetype(3) * 25).startsWith("greedy,24,"));
        QVERIFY(std::abs(rows.at(qsizetype(3) * 25).split(',').at(2).toDouble() - greedyEnd) < 1e-9);

        auto bad = test::asText(test::runProgram(
            gpuf, compare.mid(0, 5) + QStringList {QStringLiteral("--strategies"), QStringLiteral("standard,anneal")}));
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QLatin1StringView("unknown strategy 'anneal'")), qPrintable(bad.err));
        auto noCode = test::asText(test::runProgram(gpuf,
            {QStringLiteral("search"), QStringLiteral("start"), store, QStringLiteral("--name"), QStringLiteral("s"),
                QStringLiteral("--family"), QStringLiteral("bowl_kernel"), QStringLiteral("--mode"),
                QStringLiteral("surrogate"), QStringLiteral("--quiet")}));
        QVERIFY(noCode.exitCode != 0);
        QVERIFY2(noCode.err.contains(QLatin1StringView("reads kernel code")), qPrintable(noCode.err));
        QVERIFY2(noCode.err.contains(QLatin1StringView("--forecaster none")), qPrintable(noCode.err));
        auto learnerAlone = test::asText(test::runProgram(gpuf,
            {QStringLiteral("search"), QStringLiteral("start"), store, QStringLiteral("--name"), QStringLiteral("l"),
                QStringLiteral("--family"), QStringLiteral("bowl_kernel"), QStringLiteral("--mode"),
                QStringLiteral("selective"), QStringLiteral("--forecaster"), QStringLiteral("none"),
                QStringLiteral("--steps"), QStringLiteral("6"), QStringLiteral("--quiet")}));
        QVERIFY2(learnerAlone.exitCode == 0, qPrintable(learnerAlone.err));
        auto status = test::asText(
            test::runProgram(gpuf, {QStringLiteral("search"), QStringLiteral("status"), store, QStringLiteral("l")}));
        QVERIFY2(status.out.contains(QLatin1StringView("0 forecast(s)")), qPrintable(status.out));

        const QString t4 = m_dir.filePath(QStringLiteral("bowl.t4.json"));
        auto exported = test::asText(test::runProgram(gpuf,
            {QStringLiteral("export"), store, t4, QStringLiteral("--t4"), QStringLiteral("--family"),
                QStringLiteral("bowl_kernel")}));
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        auto back = interop::readTuningResults(t4);
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->entries.size(), 32);
        QCOMPARE(back->hardware, QStringLiteral("Test GPU 16GB")); // metadata.device: our T4 files name their GPU
    }

    void aTemplateGivesEachConfigurationItsCode()
    {
        auto store = Store::open(m_dir.filePath(QStringLiteral("template.gpuf")));
        interop::TuningImportOptions options;
        options.sourceFile = kFile;
        options.templateFile = QStringLiteral("bowl.cu");
        options.templateText
            = QStringLiteral("#ifndef UNROLL\n#define UNROLL 0\n#endif\n"
                             "__global__ void bowl(float *x) { x[threadIdx.x * TY] *= BX + UNROLL; }\n");
        auto report = interop::importTuningResults(**store, results(), options);
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->space, QStringLiteral("bowl_kernel")); // the file's kernel name
        QVERIFY(report->withTemplate);
        QVERIFY(report->warnings.isEmpty());
        auto world = loadReplayWorld(**store, QStringLiteral("bowl_kernel"));
        QVERIFY(world);
        for (const RecordedKernel &k : std::as_const(world->kernels)) {
            QVERIFY(k.kernel.source.startsWith(QLatin1StringView("#define BX ")));
            QVERIFY(k.kernel.source.contains(QLatin1StringView("__global__ void bowl")));
        }
        // A tunable the template never names is allowed (real spaces have them, and it changes nothing) and said.
        options.name = QStringLiteral("bowl_unnamed");
        options.templateText = QStringLiteral("__global__ void k(float *x) { x[0] = BX * TY; }\n");
        auto unnamed = interop::importTuningResults(**store, results(), options);
        QVERIFY2(unnamed, qPrintable(unnamed.error()));
        QCOMPARE(unnamed->warnings,
            QStringList {QStringLiteral("bowl.cu never names UNROLL: that tunable changes nothing in its code")});
        QVERIFY(unnamed->text().contains(QLatin1StringView("\nwarning: bowl.cu never names UNROLL")));
    }
};

QTEST_GUILESS_MAIN(TestTuningSpaces)
#include "tst_tuning_spaces.moc"
