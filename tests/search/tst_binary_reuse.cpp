// Free evaluations (docs/search.md, "Where proposals and measurements come from"): with --gpu local a proposal is
// compiled first, and when a kernel whose binary has the same SHA-256 was measured on this GPU, its measurement is
// taken instead of measuring. Through the real measurement queue and the stand-in gpuf-measure
// (fake_measure_worker.py: a source's "binary" is its text without comments and white space; `#error` fails to
// compile): the local evaluator on pairs of proposals, a whole search's log and counts, its export → import, and a
// log whose binary hash is no SHA-256.
#include "core/interop/interop.h"
#include "core/measure/measure_engine.h"
#include "core/search/local_evaluator.h"
#include "core/search/search_engine.h"
#include "core/search/search_export.h"
#include "core/search/search_summary.h"
#include "core/store/deletion.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "search_fixture.h"
#include "search_log_builder.h"
#include "tests/support/cli_run.h"

#include "gpuf_config.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::search;

namespace {

constexpr const char *kFakeGpu = "Fake GPU 1";

MeasureEngineConfig fakeWorker()
{
    MeasureEngineConfig config;
    config.workerPath = QStringLiteral(GPUF_SEARCH_TEST_DIR "/fake_measure_worker.py");
    config.snapshotIntervalMs = 20;
    return config;
}

QStringList readLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

class TestBinaryReuse : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_corpus; // a pristine corpus store; each test copies it
    QString m_store;
    QString m_workerLog;
    std::unique_ptr<Store> m_open;
    Problem m_problem;
    Kernel m_candidate; // a corpus candidate of sgemm, whose spec the variants share

    // A kernel of sgemm with `source` and the corpus candidate's spec, stored.
    RowId variant(const QString &source)
    {
        Kernel k = m_candidate;
        k.id = 0;
        k.source = source;
        k.contentHash = contentHashOf(source);
        k.name = QStringLiteral("variant %1").arg(qHash(source) % 1000);
        auto id = KernelRepo(*m_open).insertOrGet(k);
        return id ? *id : 0;
    }

    // Sends `kernels` to a fresh local evaluator in one request and waits for every answer, in request order.
    QList<EvaluationResult> evaluate(const QList<RowId> &kernels, const MeasureEngineConfig &config = fakeWorker(),
        const QString &gpu = QString::fromLatin1(kFakeGpu), int timeoutMs = 30000)
    {
        LocalEvaluator evaluator(*m_open, m_store, m_problem.referenceKernelId, gpu, config);
        QList<EvaluationRequest> requests;
        for (RowId k : kernels)
            requests.append(
                EvaluationRequest {QStringLiteral("r%1").arg(k), QStringLiteral("n%1").arg(k), k, {}, {}, {}, {}});
        QHash<QString, EvaluationResult> answers;
        evaluator.request(requests, [&](const EvaluationResult &r) { answers.insert(r.requestId, r); });
        if (!QTest::qWaitFor([&] { return answers.size() == kernels.size(); }, timeoutMs))
            return {}; // the callers compare the count
        QList<EvaluationResult> out;
        for (const EvaluationRequest &r : std::as_const(requests))
            out.append(answers.value(r.requestId));
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("the stand-in gpuf-measure worker is a python3 script, and there is no python3 here");
        QVERIFY(m_dir.isValid());
        m_corpus = m_dir.filePath(QStringLiteral("corpus.gpuf"));
        const QString error = testing::makeCorpusStore(m_corpus);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void init()
    {
        static int n = 0;
        m_store = m_dir.filePath(QStringLiteral("reuse-%1.gpuf").arg(++n));
        QVERIFY(QFile::copy(m_corpus, m_store));
        m_workerLog = m_dir.filePath(QStringLiteral("worker-%1.log").arg(n));
        qputenv("GPUF_FAKE_WORKER_LOG", m_workerLog.toUtf8());
        auto store = Store::open(m_store, Store::Mode::ExistingOnly);
        QVERIFY2(store, qPrintable(store.error()));
        m_open = std::move(*store);
        auto problem = ProblemRepo(*m_open).findByName(QStringLiteral("sgemm"));
        QVERIFY(problem && problem->has_value());
        m_problem = **problem;
        auto kernels = KernelRepo(*m_open).list(m_problem.id);
        QVERIFY(kernels);
        for (const Kernel &k : std::as_const(*kernels)) {
            if (k.id != m_problem.referenceKernelId) {
                m_candidate = k;
                break;
            }
        }
        QVERIFY(m_candidate.id > 0);
    }

    void cleanup()
    {
        m_open.reset();
        qunsetenv("GPUF_FAKE_WORKER_LOG");
    }

    // Two proposals whose sources differ only in a comment compile to one binary: the first is measured (with the
    // reference, which had no local run), the second takes its measurement, naming it.
    void sameBinaryMeasuredOnce()
    {
        const RowId a = variant(m_candidate.source);
        const RowId b = variant(m_candidate.source + QStringLiteral("\n// the same binary, another text\n"));
        QVERIFY(a > 0 && b > 0 && a != b);
        const QList<EvaluationResult> results = evaluate({a, b});
        QCOMPARE(results.size(), 2);
        QVERIFY2(results.at(0).error.isEmpty(), qPrintable(results.at(0).error));
        QVERIFY2(results.at(1).error.isEmpty(), qPrintable(results.at(1).error));
        QCOMPARE(results.at(0).reusedFromKernel, RowId(0));
        QCOMPARE(results.at(1).reusedFromKernel, a);
        QCOMPARE(results.at(0).binarySha256.size(), 64);
        QCOMPARE(results.at(1).binarySha256, results.at(0).binarySha256);
        QCOMPARE(results.at(1).measurementIds, results.at(0).measurementIds);
        QCOMPARE(results.at(1).feedback.kind, EvaluationFeedback::Kind::Success);
        QCOMPARE(results.at(1).feedback.aggregatedSpeedup, results.at(0).feedback.aggregatedSpeedup);
        // The worker measured a and the reference; b's kernel has no run of its own.
        QCOMPARE(readLines(m_workerLog).size(), 2);
        QCOMPARE(MeasurementRepo(*m_open).forKernel(b)->size(), 0);
    }

    // A later proposal of the same binary (asked after the first was measured) reuses it too; different binaries are
    // each measured.
    void differentBinariesMeasuredTwice()
    {
        const RowId a = variant(m_candidate.source);
        const RowId c = variant(m_candidate.source + QStringLiteral("\n__device__ int gpuf_other_binary;\n"));
        const QList<EvaluationResult> results = evaluate({a, c});
        QCOMPARE(results.size(), 2);
        QCOMPARE(results.at(0).reusedFromKernel, RowId(0));
        QCOMPARE(results.at(1).reusedFromKernel, RowId(0));
        QVERIFY(results.at(0).binarySha256 != results.at(1).binarySha256);
        QVERIFY(!results.at(1).measurementIds.isEmpty());
        QCOMPARE(readLines(m_workerLog).size(), 3); // a, c and the reference
        const RowId d = variant(m_candidate.source + QStringLiteral("  /* asked later */"));
        const QList<EvaluationResult> later = evaluate({d});
        QCOMPARE(later.size(), 1);
        QCOMPARE(later.at(0).reusedFromKernel, a);
        QCOMPARE(readLines(m_workerLog).size(), 3);
    }

    // The same binary launched otherwise (another block shape in its spec) is another measurement: not reused.
    void otherLaunchNotReused()
    {
        const RowId a = variant(m_candidate.source);
        Kernel k = m_candidate;
        k.id = 0;
        k.source = m_candidate.source + QStringLiteral("\n// the same cubin, launched otherwise\n");
        k.contentHash = contentHashOf(k.source);
        QJsonObject spec = k.parameters.value(QStringLiteral("spec")).toObject();
        QJsonArray launches = spec.value(QStringLiteral("launches")).toArray();
        QVERIFY(!launches.isEmpty());
        QJsonObject first = launches.first().toObject();
        first.insert(
            QStringLiteral("block"), QJsonArray {QStringLiteral("8"), QStringLiteral("8"), QStringLiteral("1")});
        launches[0] = first;
        spec.insert(QStringLiteral("launches"), launches);
        k.parameters.insert(QStringLiteral("spec"), spec);
        auto other = KernelRepo(*m_open).insertOrGet(k);
        QVERIFY(other);
        const QList<EvaluationResult> results = evaluate({a, *other});
        QCOMPARE(results.size(), 2);
        QCOMPARE(results.at(1).binarySha256, results.at(0).binarySha256);
        QCOMPARE(results.at(1).reusedFromKernel, RowId(0));
        QVERIFY(!MeasurementRepo(*m_open).forKernel(*other)->isEmpty());
        QCOMPARE(readLines(m_workerLog).size(), 3); // a, the other launch and the reference
    }

    // A proposal that does not compile is measured as before (its compile_failed rows stored, the failure its
    // outcome), and an identical failing text is not taken from it: nothing is reused without a binary.
    void compileFailureNotReused()
    {
        const QString broken = m_candidate.source + QStringLiteral("\n#error not today\n");
        const RowId e = variant(broken);
        const RowId f = variant(broken + QStringLiteral("// again\n"));
        const QList<EvaluationResult> results = evaluate({e, f});
        QCOMPARE(results.size(), 2);
        for (const EvaluationResult &r : results) {
            QCOMPARE(r.reusedFromKernel, RowId(0));
            QVERIFY(r.binarySha256.isEmpty());
            QCOMPARE(r.feedback.kind, EvaluationFeedback::Kind::CompileFailed);
            QVERIFY2(r.feedback.message.contains(QLatin1StringView("#error")), qPrintable(r.feedback.message));
        }
        const QStringList measured = readLines(m_workerLog);
        QVERIFY2(measured.size() >= 2, qPrintable(measured.join(QLatin1Char(' '))));
        auto rows = MeasurementRepo(*m_open).forKernel(e);
        QVERIFY(rows && !rows->isEmpty());
        QCOMPARE(rows->first().status, MeasurementStatus::CompileFailed);
    }

    // On a GPU (tests/gpu carries this suite there), with the real gpuf-measure and NVRTC: a comment changes the
    // source but not the cubin, so its measurement is reused; a kernel with one more global variable is another
    // cubin and is measured.
    void realGpuSameCubin()
    {
        const QString worker = qEnvironmentVariable("GPUF_TEST_WORKER",
            GPUF_HAVE_CUDA ? QStringLiteral(GPUF_BINARY_DIR "/app/measure/gpuf-measure") : QString());
        if (worker.isEmpty() || !QFileInfo(worker).isExecutable())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        MeasureEngineConfig config;
        config.workerPath = worker;
        config.workerArguments = {QStringLiteral("--no-cache")};
        config.snapshotIntervalMs = 20;
        auto gpu = probeLocalGpu(config);
        if (!gpu)
            QSKIP(qPrintable(QStringLiteral("no GPU here: ") + gpu.error()));
        const RowId a = variant(m_candidate.source);
        const RowId b = variant(m_candidate.source + QStringLiteral("\n// a comment: the same cubin\n"));
        const RowId c = variant(m_candidate.source + QStringLiteral("\n__device__ int gpuf_another_cubin;\n"));
        const QList<EvaluationResult> results = evaluate({a, b, c}, config, *gpu, 600000);
        QCOMPARE(results.size(), 3);
        for (const EvaluationResult &r : results)
            qInfo("kernel %s: %s, binary %s, speedup %.4f, reused from kernel %lld, measurements %lld",
                qPrintable(r.requestId), r.error.isEmpty() ? "ok" : qPrintable(r.error), qPrintable(r.binarySha256),
                r.feedback.aggregatedSpeedup, r.reusedFromKernel, qint64(r.measurementIds.size()));
        QCOMPARE(results.at(0).binarySha256.size(), 64);
        QCOMPARE(results.at(1).binarySha256, results.at(0).binarySha256);
        QCOMPARE(results.at(1).reusedFromKernel, a);
        QVERIFY(results.at(2).binarySha256 != results.at(0).binarySha256);
        QCOMPARE(results.at(2).reusedFromKernel, RowId(0));
        QVERIFY(MeasurementRepo(*m_open).forKernel(b)->isEmpty());
        QVERIFY(!MeasurementRepo(*m_open).forKernel(c)->isEmpty());
    }

    // A whole --gpu local search whose recorded pool holds one kernel in six texts (comments apart: one binary, one
    // spec): the first proposal measured, every other evaluation reused from it and logged so (`reused_from`,
    // `binary_sha256`); the counts keep them apart; the log folds to the same state, exports, imports and exports
    // again byte for byte.
    void searchLogsReuse()
    {
        // The pool: the problem's kernels with recorded runtimes (the corpus's H100 runs), here the candidate and five
        // copies of it with its recorded runs.
        QList<RowId> others;
        const auto kernels = KernelRepo(*m_open).list(m_problem.id);
        QVERIFY(kernels);
        for (const Kernel &k : *kernels) {
            if (k.id != m_problem.referenceKernelId && k.id != m_candidate.id)
                others.append(k.id);
        }
        QVERIFY(deleteRows(*m_open, DeletionRequest::of(RowKind::Kernel, others)));
        const QList<Measurement> recorded = MeasurementRepo(*m_open).forKernel(m_candidate.id).value();
        QVERIFY(!recorded.isEmpty());
        for (int i = 1; i <= 5; ++i) {
            const RowId copy = variant(m_candidate.source + QStringLiteral("\n// copy %1\n").arg(i));
            for (Measurement m : recorded) {
                m.id = 0;
                m.kernelId = copy;
                QVERIFY(MeasurementRepo(*m_open).insert(m));
            }
        }
        SetupOptions options;
        options.measureConfig = fakeWorker();
        SearchConfig config;
        config.mode = Mode::Standard;
        config.problem = QStringLiteral("sgemm");
        config.steps = 2;
        config.parentsPerStep = 1;
        config.measurementsPerParent = 3;
        config.proposalsPerParent = 3;
        config.seed = 5;
        config.gpu = GpuSource::local();
        auto id = createSearch(*m_open, QStringLiteral("free"), config, options);
        QVERIFY2(id, qPrintable(id.error()));
        SearchState live;
        {
            auto parts = buildParts(*m_open, *storedConfig(*m_open, QStringLiteral("free")), options);
            QVERIFY2(parts, qPrintable(parts.error()));
            SearchRun run(std::make_unique<StoreSink>(*m_open, *id), std::move(*parts));
            QVERIFY(run.open());
            QTRY_VERIFY_WITH_TIMEOUT(!run.pump() || run.next() == NextAction::Done, 60000);
            live = run.state();
        }
        auto events = SearchRepo(*m_open).events(*id);
        QVERIFY(events);
        int completed = 0, reused = 0;
        for (const SearchEvent &e : std::as_const(*events)) {
            if (e.kind != QLatin1StringView("evaluation_completed"))
                continue;
            ++completed;
            QCOMPARE(e.payload.value(QStringLiteral("binary_sha256")).toString().size(), 64);
            const QJsonObject from = e.payload.value(QStringLiteral("reused_from")).toObject();
            if (from.isEmpty())
                continue;
            ++reused;
            QVERIFY(from.value(QStringLiteral("kernel_id")).toInteger() > 0);
            QVERIFY(!from.value(QStringLiteral("measurement_ids")).toArray().isEmpty());
        }
        qInfo("%d evaluation(s) completed: %d on the GPU, %d reused", completed, live.gpuEvaluations, reused);
        QVERIFY2(reused >= 2, qPrintable(QString::number(reused)));
        QCOMPARE(live.reusedEvaluations, reused);
        QCOMPARE(live.gpuEvaluations, completed - reused);
        // One worker measurement per GPU evaluation, plus the reference once.
        QCOMPARE(readLines(m_workerLog).size(), live.gpuEvaluations + 1);
        const SearchSnapshot snapshot = snapshotOf(live);
        QCOMPARE(snapshot.reusedEvaluations, reused);
        QCOMPARE(snapshot.gpuEvaluations, live.gpuEvaluations);
        auto search = SearchRepo(*m_open).findByName(QStringLiteral("free"));
        const SearchSummary summary = summarizeSearch(**search, *events);
        QCOMPARE(summary.reusedEvaluations, qint64(reused));
        QCOMPARE(summary.gpuEvaluations, qint64(live.gpuEvaluations));
        // What the user reads: `gpuf search status`, as text and as JSON.
        const test::CliText text
            = test::runGpuf({QStringLiteral("search"), QStringLiteral("status"), m_store, QStringLiteral("free")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral("%1 GPU evaluation(s), %2 reused (same binary measured on this GPU)")
                                       .arg(live.gpuEvaluations)
                                       .arg(reused)),
            qPrintable(text.out));
        const test::CliRun json = test::runGpufBytes({QStringLiteral("search"), QStringLiteral("status"), m_store,
            QStringLiteral("free"), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject status = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(status.value(QStringLiteral("reused_evaluations")).toInt(), reused);
        QCOMPARE(status.value(QStringLiteral("gpu_evaluations")).toInt(), live.gpuEvaluations);

        auto folded = foldStoredSearch(*m_open, QStringLiteral("free"));
        QVERIFY2(folded, qPrintable(folded.error()));
        QCOMPARE(canonicalArchive(*folded), canonicalArchive(live));
        QCOMPARE(folded->reusedEvaluations, reused);
        const QString file = m_dir.filePath(QStringLiteral("free.jsonl"));
        QVERIFY(exportEventLog(*m_open, QStringLiteral("free"), file));
        auto other = Store::open(m_dir.filePath(QStringLiteral("free-import.gpuf")));
        QVERIFY(other);
        auto report = interop::importFiles(**other, {file});
        QVERIFY2(report, qPrintable(report.error()));
        auto imported = foldStoredSearch(**other, QStringLiteral("free"));
        QVERIFY2(imported, qPrintable(imported.error()));
        QCOMPARE(imported->reusedEvaluations, reused);
        QCOMPARE(imported->gpuEvaluations, live.gpuEvaluations);
        const QString again = m_dir.filePath(QStringLiteral("free-again.jsonl"));
        QVERIFY(exportEventLog(**other, QStringLiteral("free"), again));
        QCOMPARE(readLines(again), readLines(file));

        // The same file with one hash cut short is refused by the import, naming its line.
        QString bad = readLines(file).join(QLatin1Char('\n'));
        const qsizetype at = bad.indexOf(QStringLiteral("\"binary_sha256\":\"")) + 17;
        bad.remove(at, 60);
        const QString badFile = m_dir.filePath(QStringLiteral("free-bad.jsonl"));
        QFile out(badFile);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bad.toUtf8());
        out.close();
        auto third = Store::open(m_dir.filePath(QStringLiteral("free-bad.gpuf")));
        QVERIFY(third);
        auto refused = interop::importFiles(**third, {badFile});
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1StringView("evaluation_completed event refused: 'binary_sha256' must "
                                                            "be a SHA-256 of 64 hex digits")),
            qPrintable(refused.error()));
    }

    // A binary hash that is no SHA-256, or a reuse that names no kernel or no binary, is refused by the fold (and so
    // by a resume and an import), naming the event and the field.
    void badHashRefused_data()
    {
        QTest::addColumn<QJsonValue>("binary");
        QTest::addColumn<QJsonValue>("reusedFrom");
        QTest::addColumn<QString>("message");
        const QString hash(64, QLatin1Char('a'));
        const QJsonObject from {{QStringLiteral("kernel_id"), 3}};
        QTest::newRow("not hex") << QJsonValue(QStringLiteral("not-a-hash")) << QJsonValue(QJsonValue::Undefined)
                                 << QStringLiteral("'binary_sha256' must be a SHA-256 of 64 hex digits (got "
                                                   "'not-a-hash')");
        QTest::newRow("63 digits") << QJsonValue(hash.left(63)) << QJsonValue(QJsonValue::Undefined)
                                   << QStringLiteral("'binary_sha256' must be a SHA-256 of 64 hex digits");
        QTest::newRow("a number") << QJsonValue(42) << QJsonValue(QJsonValue::Undefined)
                                  << QStringLiteral("must be a SHA-256 of 64 hex digits (got 'a non-string')");
        QTest::newRow("reuse without binary") << QJsonValue(QJsonValue::Undefined) << QJsonValue(from)
                                              << QStringLiteral("'reused_from' must name the measured kernel");
        QTest::newRow("reuse without kernel")
            << QJsonValue(hash) << QJsonValue(QJsonObject {}) << QStringLiteral("'reused_from' must name");
    }
    void badHashRefused()
    {
        QFETCH(QJsonValue, binary);
        QFETCH(QJsonValue, reusedFrom);
        QFETCH(QString, message);
        testing::SearchLogBuilder b(Mode::Standard);
        b.init();
        b.stepStarted(0, {QStringLiteral("seed")});
        b.proposal(QStringLiteral("a"), QStringLiteral("seed"));
        b.selected(QStringLiteral("a"), QStringLiteral("standard: measured"));
        b.evaluated(QStringLiteral("a"), 1.5);
        QJsonObject &payload = b.events.last().payload;
        payload.insert(QStringLiteral("replay"), false);
        if (!binary.isUndefined())
            payload.insert(QStringLiteral("binary_sha256"), binary);
        if (!reusedFrom.isUndefined())
            payload.insert(QStringLiteral("reused_from"), reusedFrom);
        auto state = foldEvents(b.events);
        QVERIFY(!state);
        QVERIFY2(state.error().contains(message), qPrintable(state.error()));
        QVERIFY2(state.error().contains(QLatin1StringView("evaluation_completed")), qPrintable(state.error()));

        // The same payload well formed folds, and counts as reused, not as a GPU evaluation.
        payload.insert(QStringLiteral("binary_sha256"), QString(64, QLatin1Char('A')));
        payload.insert(QStringLiteral("reused_from"), QJsonObject {{QStringLiteral("kernel_id"), 3}});
        auto good = foldEvents(b.events);
        QVERIFY2(good, qPrintable(good.error()));
        QCOMPARE(good->reusedEvaluations, 1);
        QCOMPARE(good->gpuEvaluations, 0);
        QCOMPARE(good->candidate(QStringLiteral("a"))->reusedFromKernel, RowId(3));
        QCOMPARE(good->candidate(QStringLiteral("a"))->binarySha256, QString(64, QLatin1Char('a')));
    }
};

QTEST_GUILESS_MAIN(TestBinaryReuse)
#include "tst_binary_reuse.moc"
