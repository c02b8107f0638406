// The measurement queue against real processes: the real gpuf-measure (on a machine without a GPU it says so, and
// the queue records infrastructure_failure without storing anything), a hung stand-in that never answers (the
// process-level watchdog kills and restarts it; cancellation of queued and in-flight items), priorities, replay,
// and a worker that cannot start at all.
#include "core/measure/measure_queue.h"
#include "core/measure/worker_environment.h"
#include "core/measure/worker_locator.h"
#include "measure_fixture.h"

#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>

using namespace gpuf;

namespace {

MeasureEngineConfig configFor(const QString &worker, int requestBudgetMs = 0)
{
    MeasureEngineConfig config;
    config.workerPath = worker;
    config.workerArguments
        = worker.endsWith(QStringLiteral("gpuf-measure")) ? QStringList {QStringLiteral("--no-cache")} : QStringList {};
    config.requestBudgetMs = requestBudgetMs;
    config.startBudgetMs = 20000;
    config.snapshotIntervalMs = 20;
    return config;
}

MeasureItemState stateOf(const MeasureQueue &queue, quint64 id)
{
    const MeasureItem *item = queue.snapshot().item(id);
    return item ? item->state : MeasureItemState::Queued;
}

} // namespace

class TestMeasureQueue : public QObject
{
    Q_OBJECT

    testing::CorpusStore m_fixture;
    RowId m_kernel = 0;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_fixture.create());
        m_kernel = m_fixture.candidateOf(QStringLiteral("axpy"));
        QVERIFY(m_kernel != 0);
    }

    void locatesTheBuiltWorker()
    {
        auto located = measure::locateMeasureWorker();
        if (testing::workerBinary().isEmpty()) {
            if (!located)
                QCOMPARE(located.error(), QStringLiteral("gpuf-measure not built: CUDA toolkit missing"));
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        }
        QVERIFY2(located.ok(), qPrintable(located.error()));
        QVERIFY(located->endsWith(QStringLiteral("/gpuf-measure")));
    }

    void realWorkerWithoutGpu()
    {
        const QString worker = testing::workerBinary();
        if (worker.isEmpty())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        MeasureQueue queue(configFor(worker));
        queue.setStorePath(m_fixture.path);
        queue.probeDevice();
        QTRY_VERIFY_WITH_TIMEOUT(queue.snapshot().device.availability == DeviceState::Availability::Available
                || queue.snapshot().device.availability == DeviceState::Availability::Unavailable,
            30000);
        if (queue.snapshot().device.isAvailable())
            QSKIP("this machine has a GPU: the no-GPU path cannot be observed here (tests/gpu covers the GPU)");
        const DeviceState device = queue.snapshot().device;
        QVERIFY(!device.reason.isEmpty());
        QCOMPARE(device.workerPath, worker);
        QVERIFY(!device.workerVersion.isEmpty());

        const qint64 before = m_fixture.measurementCount();
        QSignalSpy stored(&queue, &MeasureQueue::measurementsStored);
        queue.enqueue({MeasureJob {m_kernel, 0, MeasureMode::Local, {}, 0}});
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().finished, 1, 30000);
        const MeasureItem item = queue.snapshot().items.first();
        QCOMPARE(item.state, MeasureItemState::Failed);
        QCOMPARE(item.outcome, QStringLiteral("infrastructure_failure"));
        QCOMPARE(item.message, device.reason); // the worker's own words, e.g. "no NVIDIA driver found (…)"
        QVERIFY(item.measurementIds.isEmpty());
        QVERIFY(item.kernelLabel.startsWith(QStringLiteral("axpy / ")));
        QCOMPARE(stored.count(), 0);
        QCOMPARE(m_fixture.measurementCount(), before); // no fake measurement
        QCOMPARE(queue.snapshot().workers.first().restarts, 0); // the worker answered; it was not restarted
    }

    // On a GPU machine (tests/gpu/run-qt-queue.sh carries this suite there): the Qt queue drives the real worker,
    // measures two corpus kernels and a faulty one, and stores what came back with its hardware and provenance.
    void realWorkerOnGpu()
    {
        const QString worker = testing::workerBinary();
        if (worker.isEmpty())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        MeasureQueue queue(configFor(worker));
        queue.setStorePath(m_fixture.path);
        queue.probeDevice();
        QTRY_VERIFY_WITH_TIMEOUT(queue.snapshot().device.availability == DeviceState::Availability::Available
                || queue.snapshot().device.availability == DeviceState::Availability::Unavailable,
            60000);
        if (!queue.snapshot().device.isAvailable())
            QSKIP(qPrintable(QStringLiteral("no GPU here: ") + queue.snapshot().device.reason));

        const RowId faulty = m_fixture.addFaultyKernel(QStringLiteral("axpy"));
        QVERIFY(faulty != 0);
        const RowId sgemm = m_fixture.candidateOf(QStringLiteral("sgemm"));
        const qint64 before = m_fixture.measurementCount();
        queue.enqueue({MeasureJob {m_kernel, 0, MeasureMode::Local, {}, 0},
            MeasureJob {sgemm, 0, MeasureMode::Local, {}, 0}, MeasureJob {faulty, 0, MeasureMode::Local, {}, 0}});
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().finished, 3, 300000);

        const MeasureSnapshot snapshot = queue.snapshot();
        for (const MeasureItem &item : snapshot.items) {
            qInfo("%s: %s %s, %d/%d cases ok, median %.1f us, %s", qPrintable(item.kernelLabel),
                qPrintable(measureItemStateName(item.state)), qPrintable(item.outcome), item.casesOk, item.casesTotal,
                item.medianNs / 1000.0, qPrintable(item.message));
        }
        for (int i = 0; i < 2; ++i) {
            const MeasureItem &item = snapshot.items[i];
            QCOMPARE(item.state, MeasureItemState::Done);
            QCOMPARE(item.outcome, QStringLiteral("ok"));
            QCOMPARE(item.casesOk, item.casesTotal);
            QVERIFY(item.medianNs > 0);
            QVERIFY(!item.replayed);
            QCOMPARE(item.measurementIds.size(), item.casesTotal);
        }
        const MeasureItem &bad = snapshot.items[2];
        QCOMPARE(bad.state, MeasureItemState::Done);
        QCOMPARE(bad.outcome, QStringLiteral("runtime_error"));
        // The driver's own words: CUDA_ERROR_ILLEGAL_ADDRESS, or CUDA_ERROR_INVALID_ADDRESS_SPACE for an address
        // outside the canonical range (what an H100 reported for this kernel).
        QVERIFY2(bad.message.contains(QStringLiteral("CUDA_ERROR_")), qPrintable(bad.message));
        // A CUDA fault poisons the context: the worker was restarted and is ready again.
        QTRY_VERIFY_WITH_TIMEOUT(queue.snapshot().workers.first().restarts >= 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(queue.snapshot().workers.first().state == QStringLiteral("idle"), 60000);

        // What was stored: ok rows with runtimes on the detected GPU, local source, provenance with the flush.
        auto rows = MeasurementRepo(*m_fixture.store).forKernel(m_kernel);
        QVERIFY(rows.ok());
        QVERIFY(!rows->isEmpty());
        const Measurement &row = rows->last();
        QCOMPARE(row.status, MeasurementStatus::Ok);
        QCOMPARE(row.source, MeasurementSource::Local);
        QVERIFY(row.runtime && row.runtime->medianNs > 0 && row.runtime->samples >= 3);
        QVERIFY(row.provenance.contains(QStringLiteral("flush_l2")));
        auto hardware = HardwareRepo(*m_fixture.store).find(row.hardwareId);
        QVERIFY(hardware.ok() && hardware->has_value());
        QVERIFY2((*hardware)->name.contains(QStringLiteral("NVIDIA")), qPrintable((*hardware)->name));
        QVERIFY((*hardware)->smCount > 0);
        qInfo("stored on %s (cc %s, %d SMs): %lld new measurement rows", qPrintable((*hardware)->name),
            qPrintable((*hardware)->computeCapability), (*hardware)->smCount, m_fixture.measurementCount() - before);
        QVERIFY(m_fixture.measurementCount() > before);
    }

    // A compile-only job (what a --gpu local search sends first for each proposal): the worker compiles for its GPU,
    // hashes the cubin and runs nothing; no row is stored. The same kernel twice gives the same hash. Without a GPU
    // there is no architecture to compile for, and the item fails with the worker's words.
    void compileOnlyAnswersTheBinaryHash()
    {
        const QString worker = testing::workerBinary();
        if (worker.isEmpty())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        MeasureQueue queue(configFor(worker));
        queue.setStorePath(m_fixture.path);
        QSignalSpy stored(&queue, &MeasureQueue::measurementsStored);
        const qint64 before = m_fixture.measurementCount();
        MeasureJob job {m_kernel, 0, MeasureMode::Local, {}, 0};
        job.kind = MeasureKind::Compile;
        queue.enqueue({job, job});
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().finished, 2, 120000);
        const MeasureSnapshot snapshot = queue.snapshot();
        QCOMPARE(m_fixture.measurementCount(), before);
        QCOMPARE(stored.count(), 0);
        for (const MeasureItem &item : snapshot.items) {
            qInfo("%s: %s %s, %s", qPrintable(item.kernelLabel), qPrintable(measureItemStateName(item.state)),
                qPrintable(item.outcome), qPrintable(item.message));
            QVERIFY(item.measurementIds.isEmpty());
            if (!snapshot.device.isAvailable()) {
                QCOMPARE(item.state, MeasureItemState::Failed);
                QCOMPARE(item.outcome, QStringLiteral("infrastructure_failure"));
                QVERIFY2(item.message.contains(QStringLiteral("no GPU to compile for"))
                        || item.message == snapshot.device.reason,
                    qPrintable(item.message));
                QVERIFY(item.binarySha256.isEmpty());
                continue;
            }
            QCOMPARE(item.state, MeasureItemState::Done);
            QCOMPARE(item.outcome, QStringLiteral("ok"));
            QVERIFY2(QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(item.binarySha256).hasMatch(),
                qPrintable(item.binarySha256));
            QCOMPARE(item.binarySha256, snapshot.items.first().binarySha256);
            QVERIFY(item.message.startsWith(QStringLiteral("compiled (binary ")));
        }
    }

    void priorities()
    {
        const QString worker = testing::workerBinary();
        if (worker.isEmpty())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        MeasureQueue queue(configFor(worker));
        queue.setStorePath(m_fixture.path);
        // Queued in one call, before the worker has answered hello: the worker then takes them by priority.
        queue.enqueue({MeasureJob {m_kernel, 0, MeasureMode::Local, {}, 0},
            MeasureJob {m_kernel, 5, MeasureMode::Local, {}, 0}, MeasureJob {m_kernel, 1, MeasureMode::Local, {}, 0},
            MeasureJob {m_kernel, 5, MeasureMode::Local, {}, 0}});
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().finished, 4, 30000);
        QList<quint64> order;
        for (const MeasureItem &item : queue.snapshot().items)
            order.append(item.dispatchIndex);
        QCOMPARE(order, (QList<quint64> {4, 1, 3, 2}));
    }

    void watchdogKillsAndRestarts()
    {
        MeasureQueue queue(configFor(testing::hungWorker(), 1500));
        queue.setStorePath(m_fixture.path);
        queue.enqueue({MeasureJob {m_kernel, 0, MeasureMode::Local, {}, 0}});
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 1), MeasureItemState::Running, 10000);
        QTRY_VERIFY(!queue.snapshot().workers.isEmpty() && queue.snapshot().workers.first().pid != 0);
        const qint64 firstPid = queue.snapshot().workers.first().pid;
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 1), MeasureItemState::TimedOut, 10000);
        const MeasureItem item = *queue.snapshot().item(1);
        QCOMPARE(item.outcome, QStringLiteral("timeout"));
        QVERIFY2(item.message.contains(QStringLiteral("application watchdog")), qPrintable(item.message));
        QVERIFY(item.measurementIds.isEmpty());
        // A fresh process took its place and got through hello.
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().workers.first().restarts, 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().workers.first().state, QStringLiteral("idle"), 10000);
        QVERIFY(queue.snapshot().workers.first().pid != firstPid);
        QVERIFY(queue.snapshot().workers.first().pid != 0);
    }

    void cancelQueuedAndInFlight()
    {
        MeasureQueue queue(configFor(testing::hungWorker(), 120000));
        queue.setStorePath(m_fixture.path);
        const qint64 before = m_fixture.measurementCount();
        queue.enqueue({MeasureJob {m_kernel, 0, MeasureMode::Local, {}, 0},
            MeasureJob {m_kernel, 0, MeasureMode::Local, {}, 0}, MeasureJob {m_kernel, 0, MeasureMode::Local, {}, 0}});
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 1), MeasureItemState::Running, 10000);
        QCOMPARE(stateOf(queue, 2), MeasureItemState::Queued);

        queue.cancel({2});
        QTRY_COMPARE(stateOf(queue, 2), MeasureItemState::Cancelled);
        QCOMPARE(stateOf(queue, 1), MeasureItemState::Running);

        queue.cancel({1}); // in flight: the process is killed and replaced
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 1), MeasureItemState::Cancelled, 10000);
        QVERIFY(queue.snapshot().item(1)->message.contains(QStringLiteral("cancelled while running")));
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().workers.first().restarts, 1, 10000);
        // The new worker takes the last item, which cancel-all then ends too.
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 3), MeasureItemState::Running, 10000);
        queue.cancelAll();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 3), MeasureItemState::Cancelled, 10000);
        QCOMPARE(queue.snapshot().queued + queue.snapshot().running, 0);
        QCOMPARE(m_fixture.measurementCount(), before);

        // Re-measure queues a finished item again under a new id.
        queue.remeasure({2});
        QTRY_COMPARE(queue.snapshot().items.size(), 4);
        QCOMPARE(queue.snapshot().items.last().job.kernelId, m_kernel);
        queue.cancelAll();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 4), MeasureItemState::Cancelled, 10000);
        queue.clearFinished();
        QTRY_COMPARE(queue.snapshot().items.size(), 0);
    }

    void replayIsMarked()
    {
        testing::CorpusStore fixture;
        QVERIFY(fixture.create());
        const RowId kernel = fixture.candidateOf(QStringLiteral("axpy"));
        Hardware h;
        h.name = QStringLiteral("NVIDIA A100-SXM4-80GB");
        QVERIFY(HardwareRepo(*fixture.store).ensure(h).ok());
        Measurement m;
        m.kernelId = kernel;
        m.hardwareId = h.id;
        m.caseName = QStringLiteral("1M");
        m.runtime = RuntimeStats {12000.0, 12000.0, 11900.0, 50.0, 0.002, 40};
        m.source = MeasurementSource::Import;
        QVERIFY(MeasurementRepo(*fixture.store).insert(m).ok());

        MeasureQueue queue(configFor(QStringLiteral("/nonexistent/gpuf-measure")));
        queue.setStorePath(fixture.path);
        QSignalSpy stored(&queue, &MeasureQueue::measurementsStored);
        queue.enqueue({MeasureJob {kernel, 0, MeasureMode::Replay, {}, 0}});
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().finished, 1, 10000);
        const MeasureItem item = queue.snapshot().items.first();
        QCOMPARE(item.state, MeasureItemState::Done);
        QVERIFY(item.replayed);
        QCOMPARE(item.outcome, QStringLiteral("ok"));
        QCOMPARE(item.medianNs, 12000.0);
        QCOMPARE(item.measurementIds.size(), 1);
        QTRY_COMPARE(stored.count(), 1);
        auto rows = MeasurementRepo(*fixture.store).forKernel(kernel);
        QCOMPARE(rows->size(), 2);
        QCOMPARE(rows->last().id, item.measurementIds.first());
        QCOMPARE(rows->last().source, MeasurementSource::Replay);
        QCOMPARE(rows->last().provenance.value(QStringLiteral("replay_of")).toInteger(), m.id);
    }

    void workerThatCannotStart()
    {
        MeasureEngineConfig config = configFor(QStringLiteral("/nonexistent/gpuf-measure"));
        MeasureQueue queue(config);
        queue.setStorePath(m_fixture.path);
        queue.enqueue({MeasureJob {m_kernel, 0, MeasureMode::Local, {}, 0}});
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 1), MeasureItemState::Failed, 10000);
        const MeasureSnapshot s = queue.snapshot();
        QCOMPARE(s.device.availability, DeviceState::Availability::Unavailable);
        QVERIFY2(s.device.reason.contains(QStringLiteral("cannot start /nonexistent/gpuf-measure")),
            qPrintable(s.device.reason));
        QCOMPARE(s.items.first().outcome, QStringLiteral("infrastructure_failure"));
        QCOMPARE(s.items.first().message, s.device.reason);
    }

    // gpuf-measure gets an allow-listed environment: an exported API key or token never reaches it (nor, through
    // it, a candidate). The stand-in worker's hello tells what it was given.
    void workerEnvironmentIsScrubbed()
    {
        qputenv("OPENAI_API_KEY", "sk-planted-5e1f");
        qputenv("GPUF_PLANTED_TOKEN", "planted");
        qputenv("ANTHROPIC_API_KEY", "planted");
        MeasureQueue queue(configFor(QStringLiteral(GPUF_MEASURE_TEST_DIR "/env_worker.sh")));
        queue.probeDevice();
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().device.availability, DeviceState::Availability::Unavailable, 10000);
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("GPUF_PLANTED_TOKEN");
        qunsetenv("ANTHROPIC_API_KEY");
        const QString reason = queue.snapshot().device.reason;
        QVERIFY2(reason.startsWith(QStringLiteral("key=unset; names: ")), qPrintable(reason));
        QVERIFY2(reason.contains(QStringLiteral(" PATH ")), qPrintable(reason));
        QVERIFY2(!reason.contains(QStringLiteral("API_KEY")) && !reason.contains(QStringLiteral("TOKEN")),
            qPrintable(reason));
        QVERIFY(measure::passesToWorker(QStringLiteral("CUDA_VISIBLE_DEVICES")));
        QVERIFY(measure::passesToWorker(QStringLiteral("SLURM_CONF")));
        QVERIFY(!measure::passesToWorker(QStringLiteral("SLURM_AUTH_TOKEN")));
        QVERIFY(!measure::passesToWorker(QStringLiteral("DISPLAY")));
    }

    // A worker that cannot make the Python sandbox says so in its hello; the engine passes it on once.
    void sandboxRefusalSaidOnce()
    {
        if (testing::workerBinary().isEmpty())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        MeasureEngineConfig config = configFor(testing::workerBinary());
        config.workerArguments << QStringLiteral("--bwrap") << QStringLiteral("/nonexistent/bwrap");
        MeasureQueue queue(config);
        QSignalSpy notices(&queue, &MeasureQueue::notice);
        queue.probeDevice();
        QTRY_VERIFY_WITH_TIMEOUT(queue.snapshot().device.availability != DeviceState::Availability::Probing, 30000);
        QTRY_COMPARE(notices.size(), 1);
        const QString said = notices.first().first().toString();
        QVERIFY2(said.startsWith(QStringLiteral("Python candidates will not be measured: the sandbox for Python "
                                                "candidates could not be made: could not start '/nonexistent/bwrap'")),
            qPrintable(said));
    }

    // The explorer's "Python without sandbox" reaches workers already running: a change of the setting restarts them
    // with --unsandboxed, and without it once cleared (the stand-in's hello tells its arguments). Such a restart is
    // not counted as a failure.
    void settingChangeRestartsTheWorkers()
    {
        const QString key = QString::fromLatin1(measure::kPythonUnsandboxedKey);
        const QString flag = QString::fromLatin1(measure::kUnsandboxedArgument);
        QSettings().remove(key);
        MeasureQueue queue(configFor(QStringLiteral(GPUF_MEASURE_TEST_DIR "/env_worker.sh")));
        const auto arguments
            = [&queue]() -> QString { return queue.snapshot().device.reason.section(QStringLiteral("; args: "), 1); };
        queue.probeDevice();
        QTRY_VERIFY_WITH_TIMEOUT(queue.snapshot().device.reason.contains(QStringLiteral("; args: ")), 10000);
        QVERIFY2(!arguments().contains(flag), qPrintable(arguments()));
        const qint64 before = queue.snapshot().workers.value(0).pid;
        QSettings().setValue(key, true);
        queue.reloadWorkerArguments();
        QTRY_VERIFY_WITH_TIMEOUT(arguments().contains(flag), 10000);
        QTRY_COMPARE(queue.snapshot().workers.value(0).state, QStringLiteral("idle"));
        QVERIFY(queue.snapshot().workers.value(0).pid != before);
        QCOMPARE(queue.snapshot().workers.value(0).restarts, 0);
        QSettings().setValue(key, false);
        queue.reloadWorkerArguments();
        QTRY_VERIFY_WITH_TIMEOUT(!arguments().contains(flag), 10000);
        QSettings().remove(key);
    }

    void kernelWithoutSpecFailsAtOnce()
    {
        Kernel manual;
        manual.problemId = 1;
        manual.name = QStringLiteral("typed in");
        manual.language = QStringLiteral("cuda");
        manual.source = QStringLiteral("extern \"C\" __global__ void typed_in() {}");
        manual.origin = QStringLiteral("manual");
        QVERIFY(KernelRepo(*m_fixture.store).insertOrGet(manual).ok());
        MeasureQueue queue(configFor(testing::hungWorker(), 1000));
        queue.setStorePath(m_fixture.path);
        queue.enqueue({MeasureJob {manual.id, 0, MeasureMode::Local, {}, 0}});
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(queue, 1), MeasureItemState::Failed, 10000);
        QVERIFY(queue.snapshot().item(1)->message.contains(QStringLiteral("has no kernel spec")));
    }

    // sbatch hands its environment on to the job it submits, so it gets the workers' allow-list: an exported API key
    // reaches no cluster job. The stand-in sbatch records what it was given. (Last: it leaves a job in the store.)
    void clusterCommandsGetTheScrubbedEnvironment()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ClusterProfile profile;
        profile.name = QStringLiteral("env-test");
        profile.sharedDirectory = dir.filePath(QStringLiteral("shared"));
        profile.pollIntervalMs = 100;
        MeasureEngineConfig config = configFor(QStringLiteral("/nonexistent/gpuf-measure"));
        config.clusterProfiles = {profile};
        config.clusterCommands.sbatch = QStringLiteral(GPUF_MEASURE_TEST_DIR "/env_sbatch.sh");
        config.clusterCommands.squeue = QStringLiteral("/nonexistent/squeue");
        config.clusterCommands.sacct = QStringLiteral("/nonexistent/sacct");
        const QString record = dir.filePath(QStringLiteral("sbatch.env"));
        qputenv("GPUF_TEST_SBATCH_ENV", QFile::encodeName(record));
        qputenv("OPENAI_API_KEY", "sk-planted-c41d");
        qputenv("GPUF_PLANTED_TOKEN", "planted-token");
        {
            MeasureQueue queue(config);
            queue.setStorePath(m_fixture.path);
            MeasureJob job {m_kernel, 0, MeasureMode::Cluster, {}, 0};
            job.cluster = profile.name;
            queue.enqueue({job});
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(record).size() > 0, 10000);
        }
        qunsetenv("GPUF_TEST_SBATCH_ENV");
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("GPUF_PLANTED_TOKEN");
        QFile f(record);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray given = f.readAll();
        // Only the names are shown on failure: the values could hold a real secret of the machine running the test.
        QByteArrayList names;
        for (const QByteArray &line : given.split('\n'))
            names.append(line.left(line.indexOf('=')));
        const QByteArray shown = names.join(' ');
        QVERIFY2(names.contains("PATH"), shown.constData());
        QVERIFY2(!names.contains("OPENAI_API_KEY") && !names.contains("GPUF_PLANTED_TOKEN"), shown.constData());
        QVERIFY(!given.contains("planted"));
    }
};

QTEST_GUILESS_MAIN(TestMeasureQueue)
#include "tst_measure_queue.moc"
