// The Slurm backend against a real Slurm: tests/measure/slurm_cluster.sh starts a single-node cluster (munged,
// slurmctld, slurmd; CPUs=2, no GPU) in a temporary directory, and the measurement engine submits real job arrays
// that run the real gpuf-measure on the node: hello and compile answer without a GPU, a measurement fails as the node
// has none. Also: retry after scancel of one array task, pick-up by a new engine over the same store, a job the
// scheduler forgot, a result file cut short, a node rebooted under a running task (slurm_cluster.sh reboot), a time
// limit reached before gpuf-measure said hello, and the bad inputs (no sbatch, a refused submission, a shared directory
// that cannot be written, an unknown profile). Skips, saying why, without Slurm, munge, root or the worker.
#include "core/measure/cluster_batch.h"
#include "core/measure/measure_engine.h"
#include "core/store/cluster_repo.h"
#include "measure_fixture.h"
#include "tests/support/cli_run.h"

#include <QDir>
#include <QHostInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QSaveFile>
#include <QSettings>
#include <QSignalSpy>

using namespace gpuf;

namespace {

constexpr int kWaitMs = 120000; // generous: a loaded machine starts jobs slowly; the usual wait is seconds

QString run(const QString &program, const QStringList &args, int *exitCode = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    p.waitForFinished(120000);
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAll()).trimmed();
}

} // namespace

class TestMeasureCluster : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_worker;
    QString m_skip;
    bool m_started = false;
    testing::CorpusStore m_fixture;
    RowId m_kernel = 0;
    RowId m_broken = 0;

    QString script() const { return QStringLiteral(GPUF_MEASURE_TEST_DIR "/slurm_cluster.sh"); }
    QString clusterDir() const { return m_dir.filePath(QStringLiteral("slurm")); }

    ClusterProfile profile() const
    {
        ClusterProfile p;
        p.name = QStringLiteral("testcluster");
        p.partition = QStringLiteral("test");
        p.gpuCount = 0; // the test node has no GPU
        p.timeLimit = QStringLiteral("10");
        p.sharedDirectory = m_dir.filePath(QStringLiteral("shared"));
        p.workerPath = m_worker;
        p.workerArguments = {QStringLiteral("--cache-dir"), m_dir.filePath(QStringLiteral("cubins"))};
        p.pollIntervalMs = 200;
        p.requestsPerTask = 2;
        p.maxAttempts = 3;
        p.compileArch = QStringLiteral("sm_90");
        return p;
    }

    MeasureEngineConfig config(const ClusterProfile &p) const
    {
        MeasureEngineConfig c;
        c.snapshotIntervalMs = 20;
        c.clusterProfiles = {p};
        return c;
    }

    static MeasureJob job(RowId kernel, MeasureKind kind, const QString &cluster = QStringLiteral("testcluster"))
    {
        MeasureJob j;
        j.kernelId = kernel;
        j.mode = MeasureMode::Cluster;
        j.cluster = cluster;
        j.kind = kind;
        return j;
    }

    static bool allFinished(const MeasureEngine &engine)
    {
        const MeasureSnapshot s = engine.snapshot();
        return s.queued == 0 && s.running == 0;
    }

    QList<ClusterTask> tasks()
    {
        auto all = ClusterRepo(*m_fixture.store).tasks();
        if (!all)
            qWarning("cluster tasks: %s", qPrintable(all.error()));
        return all ? *all : QList<ClusterTask> {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_worker = testing::workerBinary();
        if (m_worker.isEmpty()) {
            m_skip = QStringLiteral("gpuf-measure is not built (no CUDA toolkit at configure time)");
            return;
        }
        QVERIFY(m_dir.isValid());
        QVERIFY(m_fixture.create());
        m_kernel = m_fixture.candidateOf(QStringLiteral("axpy"));
        QVERIFY(m_kernel > 0);
        Kernel broken = **KernelRepo(*m_fixture.store).find(m_kernel);
        broken.id = 0;
        broken.name = QStringLiteral("does_not_compile");
        broken.source = QStringLiteral("this is not CUDA;\n");
        QJsonObject spec = broken.parameters.value(QStringLiteral("spec")).toObject();
        spec.insert(QStringLiteral("source"), broken.source);
        broken.parameters.insert(QStringLiteral("spec"), spec);
        auto inserted = KernelRepo(*m_fixture.store).insertOrGet(broken);
        QVERIFY2(inserted.ok(), qPrintable(inserted.error()));
        m_broken = *inserted;

        int rc = 0;
        const QString out = run(QStringLiteral("sh"), {script(), QStringLiteral("start"), clusterDir()}, &rc);
        if (rc == 77) {
            m_skip = out.section(QStringLiteral("skip: "), 1);
            return;
        }
        QVERIFY2(rc == 0, qPrintable(QStringLiteral("the test cluster did not start: ") + out));
        m_started = true;
        const QString conf = out.section(QStringLiteral("SLURM_CONF="), 1).trimmed();
        QVERIFY(QFileInfo::exists(conf));
        qputenv("SLURM_CONF", conf.toUtf8());
        // The CLI keeps its cluster profiles here (gpuf/clusters.conf), never in the user's own settings.
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
    }

    void init()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
    }

    void cleanupTestCase()
    {
        if (m_started)
            run(QStringLiteral("sh"), {script(), QStringLiteral("stop"), clusterDir()});
    }

    // hello and compile need no GPU; the measurement fails because the node has none, and says so.
    void collectsAnswersFromTheNode()
    {
        const qint64 measurementsBefore = m_fixture.measurementCount();
        MeasureEngine engine(config(profile()));
        engine.setStorePath(m_fixture.path);
        engine.enqueue({job(0, MeasureKind::Hello), job(m_kernel, MeasureKind::Compile),
            job(m_broken, MeasureKind::Compile), job(m_kernel, MeasureKind::Measure)});
        QTRY_VERIFY_WITH_TIMEOUT(allFinished(engine), kWaitMs);
        const MeasureSnapshot s = engine.snapshot();
        QCOMPARE(s.items.size(), 4);
        const QString host = QHostInfo::localHostName().section(QLatin1Char('.'), 0, 0);
        for (const MeasureItem &item : s.items) {
            QVERIFY2(item.clusterJobId.contains(QLatin1Char('_')),
                qPrintable(item.clusterJobId + QStringLiteral(" ") + item.message));
            QCOMPARE(item.clusterNode, host);
            QCOMPARE(item.cluster, QStringLiteral("testcluster"));
        }
        const MeasureItem &hello = s.items[0];
        QCOMPARE(hello.state, MeasureItemState::Done);
        QVERIFY2(hello.message.contains(QStringLiteral("no GPU")), qPrintable(hello.message));
        QCOMPARE(s.items[1].state, MeasureItemState::Done);
        QCOMPARE(s.items[1].outcome, QStringLiteral("ok"));
        QVERIFY2(s.items[1].message.contains(QStringLiteral("compiled for sm_90")), qPrintable(s.items[1].message));
        // The kernel's own failure is its result.
        QCOMPARE(s.items[2].state, MeasureItemState::Done);
        QCOMPARE(s.items[2].outcome, QStringLiteral("compile_failed"));
        QVERIFY(!s.items[2].message.isEmpty());
        // No GPU on the node: nothing was measured, nothing stored, and the reason names the node.
        QCOMPARE(s.items[3].state, MeasureItemState::Failed);
        QCOMPARE(s.items[3].outcome, QStringLiteral("infrastructure_failure"));
        QVERIFY2(
            s.items[3].message.startsWith(QStringLiteral("on node %1:").arg(host)), qPrintable(s.items[3].message));
        QCOMPARE(m_fixture.measurementCount(), measurementsBefore);

        const QList<ClusterTask> recorded = tasks();
        QCOMPARE(recorded.size(), 2);
        for (const ClusterTask &t : recorded) {
            QVERIFY(!t.open);
            QCOMPARE(t.state, QStringLiteral("collected"));
            QCOMPARE(t.attempts, 1);
            QCOMPARE(t.results.size(), 2);
            QVERIFY(!QFile::exists(cluster::resultFile(t.batchDir, t.arrayIndex) + QStringLiteral(".part-") + t.jobId));
        }
        QCOMPARE(ClusterRepo(*m_fixture.store).jobs(recorded.first().batchDir)->size(), 1);
    }

    // A task cancelled on the cluster (scancel of one array task) is submitted again and then collected.
    void retriesACancelledTask()
    {
        ClusterProfile p = profile();
        p.requestsPerTask = 1;
        p.extraOptions = {QStringLiteral("--hold")}; // nothing starts until the test releases it
        MeasureEngine engine(config(p));
        QSignalSpy notices(&engine, &MeasureEngine::notice);
        engine.setStorePath(m_fixture.path);
        engine.enqueue({job(0, MeasureKind::Hello), job(0, MeasureKind::Hello)});
        QTRY_VERIFY_WITH_TIMEOUT(
            engine.snapshot().items.size() == 2 && engine.snapshot().items[1].clusterState == QLatin1String("PENDING"),
            kWaitMs);
        const QString first = engine.snapshot().items[1].clusterJobId;
        const QString arrayJob = first.section(QLatin1Char('_'), 0, 0);
        QCOMPARE(first, arrayJob + QStringLiteral("_1"));
        int rc = 0;
        const QString scancelSaid = run(QStringLiteral("scancel"), {first}, &rc);
        QVERIFY2(rc == 0, qPrintable(scancelSaid));
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot().items[1].clusterAttempts == 2
                && engine.snapshot().items[1].clusterState == QLatin1String("PENDING"),
            kWaitMs);
        const QString second = engine.snapshot().items[1].clusterJobId;
        QVERIFY(second != first);
        QCOMPARE(second.section(QLatin1Char('_'), 1), QStringLiteral("1")); // the same task of the batch
        for (const QString &j : {arrayJob, second.section(QLatin1Char('_'), 0, 0)})
            QCOMPARE(run(QStringLiteral("scontrol"), {QStringLiteral("release"), j}, &rc), QString());
        QTRY_VERIFY_WITH_TIMEOUT(allFinished(engine), kWaitMs);
        const MeasureSnapshot s = engine.snapshot();
        QCOMPARE(s.items[0].state, MeasureItemState::Done);
        QCOMPARE(s.items[0].clusterAttempts, 1);
        QCOMPARE(s.items[1].state, MeasureItemState::Done);
        QCOMPARE(s.items[1].clusterAttempts, 2);
        QStringList said;
        for (const QList<QVariant> &n : std::as_const(notices))
            said << n.first().toString();
        // A pending task cancelled with scancel leaves no record (Slurm drops the index from the array), so the
        // backend sees it vanish; a running one would be CANCELLED. Either way it goes out again.
        const QString text = said.join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("submitted again (job %1 disappeared from the scheduler)").arg(first))
                || text.contains(QStringLiteral("submitted again (CANCELLED)")),
            qPrintable(text));
        auto jobs = ClusterRepo(*m_fixture.store).jobs(tasks().first().batchDir);
        QCOMPARE(jobs->size(), 2);
        QCOMPARE(jobs->at(1).arraySpec, QStringLiteral("1"));
    }

    // The program closes with jobs out; a new engine over the same store finds them, shows them and collects them.
    void picksUpJobsAfterARestart()
    {
        ClusterProfile p = profile();
        p.extraOptions = {QStringLiteral("--hold")};
        QString jobId;
        {
            MeasureEngine first(config(p));
            first.setStorePath(m_fixture.path);
            first.enqueue({job(0, MeasureKind::Hello), job(m_kernel, MeasureKind::Compile)});
            QTRY_VERIFY_WITH_TIMEOUT(first.snapshot().items.size() == 2
                    && first.snapshot().items[1].clusterState == QLatin1String("PENDING"),
                kWaitMs);
            jobId = first.snapshot().items[0].clusterJobId.section(QLatin1Char('_'), 0, 0);
        }
        QVERIFY(!jobId.isEmpty());
        QCOMPARE(tasks().first().state, QStringLiteral("PENDING"));
        QVERIFY(tasks().first().open);

        MeasureEngine second(config(p));
        second.setStorePath(m_fixture.path);
        QCOMPARE(second.snapshot().items.size(), 2);
        QCOMPARE(second.snapshot().items[0].state, MeasureItemState::Running);
        QCOMPARE(second.snapshot().items[0].clusterJobId, jobId + QStringLiteral("_0"));
        QCOMPARE(second.snapshot().items[1].kernelLabel,
            second.snapshot().items[1].problemName + QStringLiteral(" / ")
                + (*KernelRepo(*m_fixture.store).find(m_kernel))->name);
        int rc = 0;
        run(QStringLiteral("scontrol"), {QStringLiteral("release"), jobId}, &rc);
        QCOMPARE(rc, 0);
        QTRY_VERIFY_WITH_TIMEOUT(allFinished(second), kWaitMs);
        QCOMPARE(second.snapshot().items[0].state, MeasureItemState::Done);
        QCOMPARE(second.snapshot().items[1].state, MeasureItemState::Done);
        QCOMPARE(second.snapshot().items[1].outcome, QStringLiteral("ok"));
        QVERIFY(!tasks().first().open);
    }

    // A job the scheduler no longer knows and a result file cut short: what the file holds is kept, the rest is
    // submitted again.
    void recoversAVanishedJobAndACutShortFile()
    {
        const ClusterProfile p = profile();
        const QString batch = p.sharedDirectory + QStringLiteral("/gpuf-batches/made-by-test");
        for (const char *sub : {"requests", "results", "logs"})
            QVERIFY(QDir().mkpath(batch + QLatin1Char('/') + QLatin1String(sub)));
        QSaveFile runSh(batch + QStringLiteral("/run.sh"));
        QVERIFY(runSh.open(QIODevice::WriteOnly));
        runSh.write(cluster::jobScript(p, batch));
        QVERIFY(runSh.commit());
        const QString hello1 = QStringLiteral("{\"id\":1,\"type\":\"hello\"}");
        const QString hello2 = QStringLiteral("{\"id\":2,\"type\":\"hello\"}");
        ClusterRepo repo(*m_fixture.store);
        for (int index : {0, 1}) {
            QSaveFile requests(cluster::requestFile(batch, index));
            QVERIFY(requests.open(QIODevice::WriteOnly));
            requests.write((hello1 + QLatin1Char('\n') + hello2 + QLatin1Char('\n')).toUtf8());
            QVERIFY(requests.commit());
            ClusterTask t;
            t.profile = p.name;
            t.batchDir = batch;
            t.arrayIndex = index;
            t.jobId = QStringLiteral("999999"); // never issued by this cluster
            t.state = QStringLiteral("RUNNING");
            t.attempts = 1;
            for (const QString &line : {hello1, hello2}) {
                const QJsonObject request = QJsonDocument::fromJson(line.toUtf8()).object();
                t.requests.append(QJsonObject {{QStringLiteral("id"), request.value(QStringLiteral("id"))},
                    {QStringLiteral("kind"), QStringLiteral("hello")}, {QStringLiteral("kernel"), 0},
                    {QStringLiteral("options"), QJsonObject()}, {QStringLiteral("line"), request}});
            }
            QVERIFY(repo.insertTask(t).ok());
        }
        // Task 1 died while answering: its first answer is whole, the second cut off mid-line.
        QFile part(cluster::resultFile(batch, 1) + QStringLiteral(".part-999999"));
        QVERIFY(part.open(QIODevice::WriteOnly));
        part.write("{\"gpuf_cluster\":\"start\",\"node\":\"gone-node\",\"job_id\":\"999999\",\"task\":1}\n"
                   "{\"id\":\"gpuf-hello\",\"type\":\"hello\",\"status\":\"ok\",\"devices\":[]}\n"
                   "{\"id\":1,\"type\":\"hello\",\"status\":\"ok\",\"worker_version\":\"0.1.0\","
                   "\"gpu_available\":false,\"gpu_unavailable_reason\":\"x\",\"devices\":[]}\n"
                   "{\"id\":2,\"type\":\"hel");
        part.close();

        MeasureEngine engine(config(p));
        QSignalSpy notices(&engine, &MeasureEngine::notice);
        engine.setStorePath(m_fixture.path);
        QCOMPARE(engine.snapshot().items.size(), 4);
        QTRY_VERIFY_WITH_TIMEOUT(allFinished(engine), kWaitMs);
        const MeasureSnapshot s = engine.snapshot();
        for (const MeasureItem &item : s.items)
            QVERIFY2(item.state == MeasureItemState::Done, qPrintable(item.message));
        // Task 0 ran again whole; task 1's first answer came from the cut-short file, its second from the retry.
        QCOMPARE(s.items[0].clusterAttempts, 2);
        QCOMPARE(s.items[2].clusterNode, QStringLiteral("gone-node"));
        QCOMPARE(s.items[2].clusterAttempts, 1);
        QCOMPARE(s.items[3].clusterAttempts, 2);
        QStringList said;
        for (const QList<QVariant> &n : std::as_const(notices))
            said << n.first().toString();
        QVERIFY2(said.join(QLatin1Char('\n')).contains(QStringLiteral("job 999999_0 disappeared from the scheduler")),
            qPrintable(said.join(QLatin1Char('\n'))));
        QVERIFY2(said.join(QLatin1Char('\n')).contains(QStringLiteral("cut short")),
            qPrintable(said.join(QLatin1Char('\n'))));
    }

    // A node that reboots under a running task: slurmd and the job's processes are killed at once and slurmd starts
    // again (slurm_cluster.sh reboot), after which Slurm calls the job RUNNING until its time limit. A task that is
    // only slow keeps its heartbeat and is left alone; the lost one is cancelled and submitted again, and the queue
    // says why (it used to wait for the time limit and report every request as a kernel timeout).
    void resubmitsATaskWhoseNodeWasLost()
    {
        ClusterProfile p = profile();
        p.pollIntervalMs = 1000; // a heartbeat every second: lost after 6 s without one
        // A worker that starts only once the test opens the gate: until then the task is slow, not dead.
        const QString gate = m_dir.filePath(QStringLiteral("gate"));
        const QString gated = m_dir.filePath(QStringLiteral("gated_worker.sh"));
        {
            QFile file(gated);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QStringLiteral("#!/bin/sh\nwhile [ ! -e '%1' ]; do sleep 0.2; done\nexec '%2' \"$@\"\n")
                           .arg(gate, m_worker)
                           .toUtf8());
        }
        QVERIFY(QFile::setPermissions(gated, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        p.workerPath = gated;
        MeasureEngine engine(config(p));
        QSignalSpy notices(&engine, &MeasureEngine::notice);
        engine.setStorePath(m_fixture.path);
        engine.enqueue({job(0, MeasureKind::Hello), job(m_kernel, MeasureKind::Compile)});
        QTRY_VERIFY_WITH_TIMEOUT(
            engine.snapshot().items.size() == 2 && engine.snapshot().items[0].clusterState == QLatin1String("RUNNING"),
            kWaitMs);
        const QString firstJob = engine.snapshot().items[0].clusterJobId.section(QLatin1Char('_'), 0, 0);
        QString batch;
        for (const ClusterTask &t : tasks()) {
            if (t.jobId == firstJob)
                batch = t.batchDir;
        }
        QVERIFY(!batch.isEmpty());
        const auto heartbeat = [&batch] {
            bool exists = false;
            return cluster::parseHeartbeat(cluster::readFile(cluster::heartbeatFile(batch, 0), &exists));
        };
        QTRY_COMPARE_WITH_TIMEOUT(heartbeat().jobId, firstJob, kWaitMs);
        // Slow, not lost: the node's clock goes past twice the silence that would mean a lost node, beating, and the
        // task stays where it is.
        const qint64 firstBeat = heartbeat().epoch;
        QTRY_VERIFY_WITH_TIMEOUT(heartbeat().epoch > firstBeat + 2 * cluster::lostAfterMs(p) / 1000, kWaitMs);
        QCOMPARE(engine.snapshot().items[0].clusterAttempts, 1);
        QCOMPARE(engine.snapshot().items[0].state, MeasureItemState::Running);
        QCOMPARE(engine.snapshot().items[0].clusterState, QStringLiteral("RUNNING"));

        int rc = 0;
        const QString rebooted = run(QStringLiteral("sh"), {script(), QStringLiteral("reboot"), clusterDir()}, &rc);
        QVERIFY2(rc == 0, qPrintable(rebooted));
        // Slurm still calls the job RUNNING after the reboot (what made this hard to see).
        QCOMPARE(
            run(QStringLiteral("squeue"),
                {QStringLiteral("--noheader"), QStringLiteral("--format=%T"), QStringLiteral("--jobs=") + firstJob}),
            QStringLiteral("RUNNING"));
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot().items[0].clusterAttempts == 2, kWaitMs);
        const QString host = QHostInfo::localHostName().section(QLatin1Char('.'), 0, 0);
        const QString lost = QStringLiteral("node %1 was lost: its task gave no sign of life for ").arg(host);
        for (const MeasureItem &item : engine.snapshot().items) {
            QVERIFY2(item.state == MeasureItemState::Running, qPrintable(item.message));
            QVERIFY2(item.message.startsWith(QStringLiteral("attempt 2 of 3: ") + lost), qPrintable(item.message));
            QVERIFY2(item.message.endsWith(
                         QStringLiteral("s while Slurm still called it RUNNING (gpuf-measure never said hello)")),
                qPrintable(item.message));
        }
        QStringList said;
        for (const QList<QVariant> &n : std::as_const(notices))
            said << n.first().toString();
        QVERIFY2(said.join(QLatin1Char('\n')).contains(QStringLiteral("submitted again (") + lost),
            qPrintable(said.join(QLatin1Char('\n'))));
        // The lost job was cancelled, so it holds no CPU of the node until its time limit.
        QTRY_VERIFY_WITH_TIMEOUT(
            run(QStringLiteral("squeue"),
                {QStringLiteral("--noheader"), QStringLiteral("--format=%T"), QStringLiteral("--jobs=") + firstJob})
                != QLatin1String("RUNNING"),
            kWaitMs);

        QFile open(gate);
        QVERIFY(open.open(QIODevice::WriteOnly));
        open.close();
        QTRY_VERIFY_WITH_TIMEOUT(allFinished(engine), kWaitMs);
        const MeasureSnapshot s = engine.snapshot();
        QCOMPARE(s.items[0].state, MeasureItemState::Done);
        QCOMPARE(s.items[0].clusterAttempts, 2);
        QVERIFY(s.items[0].clusterJobId.section(QLatin1Char('_'), 0, 0) != firstJob);
        QCOMPARE(s.items[1].state, MeasureItemState::Done);
        QCOMPARE(s.items[1].outcome, QStringLiteral("ok"));
    }

    // A task whose gpuf-measure never said hello in the whole time limit (here: a worker that never starts, on a live
    // node) ran no kernel: Slurm's TIMEOUT is not reported as the kernels' timeouts, the task goes out again.
    void timeLimitWithoutHelloIsNoKernelTimeout()
    {
        ClusterProfile p = profile();
        p.timeLimit = QStringLiteral("1"); // a minute; slurmctld ends the job within about half a minute after it
        const QString gate = m_dir.filePath(QStringLiteral("gate-time-limit"));
        const QString gated = m_dir.filePath(QStringLiteral("gated_worker_time_limit.sh"));
        {
            QFile file(gated);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QStringLiteral("#!/bin/sh\nwhile [ ! -e '%1' ]; do sleep 0.2; done\nexec '%2' \"$@\"\n")
                           .arg(gate, m_worker)
                           .toUtf8());
        }
        QVERIFY(QFile::setPermissions(gated, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        p.workerPath = gated;
        MeasureEngine engine(config(p));
        engine.setStorePath(m_fixture.path);
        engine.enqueue({job(m_kernel, MeasureKind::Compile)});
        QTRY_VERIFY_WITH_TIMEOUT(
            engine.snapshot().items.size() == 1 && engine.snapshot().items[0].clusterState == QLatin1String("RUNNING"),
            kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot().items[0].clusterAttempts == 2, 3 * kWaitMs);
        const MeasureItem retried = engine.snapshot().items[0];
        QCOMPARE(retried.state, MeasureItemState::Running);
        QVERIFY2(
            retried.message.startsWith(QStringLiteral("attempt 2 of 3: the task reached its time limit (1) on node ")),
            qPrintable(retried.message));
        QVERIFY2(retried.message.endsWith(QStringLiteral(" and gpuf-measure never said hello there: no kernel ran, so "
                                                         "none timed out")),
            qPrintable(retried.message));
        QFile open(gate);
        QVERIFY(open.open(QIODevice::WriteOnly));
        open.close();
        QTRY_VERIFY_WITH_TIMEOUT(allFinished(engine), kWaitMs);
        QCOMPARE(engine.snapshot().items[0].state, MeasureItemState::Done);
        QCOMPARE(engine.snapshot().items[0].outcome, QStringLiteral("ok"));
    }

    // The same through gpuf: a profile made with set-profile, a measurement submitted without waiting, the task
    // listed by status, and collect storing what the node answered.
    void commandLine()
    {
        const QString gpuf = QStringLiteral(GPUF_CLI_PATH);
        const ClusterProfile p = profile();
        auto r = test::runProgram(gpuf,
            {QStringLiteral("cluster"), QStringLiteral("set-profile"), QStringLiteral("clitest"),
                QStringLiteral("--shared-dir"), p.sharedDirectory, QStringLiteral("--partition"), p.partition,
                QStringLiteral("--gpus"), QStringLiteral("0"), QStringLiteral("--time"), p.timeLimit,
                QStringLiteral("--worker"), p.workerPath, QStringLiteral("--poll-ms"), QStringLiteral("200")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = test::runProgram(gpuf, {QStringLiteral("cluster"), QStringLiteral("profiles")});
        QVERIFY2(r.out.contains(QByteArray(
                     QByteArray("clitest: sbatch --partition=test --time=10; shared ") + p.sharedDirectory.toUtf8())),
            r.out.constData());

        r = test::runProgram(gpuf,
            {QStringLiteral("measure"), m_fixture.path, QString::number(m_kernel), QStringLiteral("--cluster"),
                QStringLiteral("clitest"), QStringLiteral("--no-wait")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("submitted; gpuf cluster collect"), r.out.constData());
        r = test::runProgram(
            gpuf, {QStringLiteral("cluster"), QStringLiteral("status"), m_fixture.path, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray open = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("tasks")).toArray();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first().toObject().value(QStringLiteral("profile")).toString(), QStringLiteral("clitest"));

        r = test::runProgram(
            gpuf, {QStringLiteral("cluster"), QStringLiteral("collect"), m_fixture.path, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1); // the node has no GPU: the measurement failed, and collect says so
        const QJsonArray results = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("results")).toArray();
        QCOMPARE(results.size(), 1);
        const QJsonObject result = results.first().toObject();
        QCOMPARE(result.value(QStringLiteral("outcome")).toString(), QStringLiteral("infrastructure_failure"));
        QVERIFY(result.value(QStringLiteral("message")).toString().startsWith(QStringLiteral("on node ")));
        r = test::runProgram(gpuf, {QStringLiteral("cluster"), QStringLiteral("status"), m_fixture.path});
        QVERIFY2(r.out.contains("no cluster jobs out"), r.out.constData());

        r = test::runProgram(
            gpuf, {QStringLiteral("cluster"), QStringLiteral("hello"), m_fixture.path, QStringLiteral("clitest")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("gpuf-measure") && r.out.contains("no GPU"), r.out.constData());

        r = test::runProgram(gpuf,
            {QStringLiteral("measure"), m_fixture.path, QString::number(m_kernel), QStringLiteral("--cluster"),
                QStringLiteral("nope")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no cluster profile named 'nope'"), r.err.constData());
    }

    // A profile made unusable by hand in the settings file: gpuf measure and a search refuse it alike, with the
    // field and the fix, before anything is submitted or written (a search used to run with every evaluation failed).
    void handEditedProfileIsRefused()
    {
        const QString gpuf = QStringLiteral(GPUF_CLI_PATH);
        const ClusterProfile p = profile();
        auto r = test::runProgram(gpuf,
            {QStringLiteral("cluster"), QStringLiteral("set-profile"), QStringLiteral("edited"),
                QStringLiteral("--shared-dir"), p.sharedDirectory, QStringLiteral("--partition"), p.partition,
                QStringLiteral("--gpus"), QStringLiteral("0"), QStringLiteral("--worker"), p.workerPath});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = test::runProgram(gpuf,
            {QStringLiteral("cluster"), QStringLiteral("set-profile"), QStringLiteral("edited"),
                QStringLiteral("--time"), QStringLiteral("25:99:99")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("time limit: '25:99:99' is not a Slurm time"), r.err.constData());
        {
            QSettings file(m_dir.filePath(QStringLiteral("config/gpuf/clusters.conf")), QSettings::IniFormat);
            QVERIFY(file.childGroups().contains(QStringLiteral("cluster")));
            file.setValue(QStringLiteral("cluster/profiles/edited/time_limit"), QStringLiteral("25:99:99"));
        }
        const QByteArray refusal = "the cluster profile 'edited' is not usable: time limit: '25:99:99'";
        const int tasksBefore = int(tasks().size());
        r = test::runProgram(gpuf,
            {QStringLiteral("measure"), m_fixture.path, QString::number(m_kernel), QStringLiteral("--cluster"),
                QStringLiteral("edited"), QStringLiteral("--no-wait")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(refusal), r.err.constData());
        r = test::runProgram(gpuf,
            {QStringLiteral("search"), QStringLiteral("start"), m_fixture.path, QStringLiteral("--family"),
                QStringLiteral("transpose"), QStringLiteral("--gpu"), QStringLiteral("cluster:edited"),
                QStringLiteral("--steps"), QStringLiteral("1"), QStringLiteral("--name"), QStringLiteral("edited")});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(refusal), r.err.constData());
        QVERIFY2(r.err.contains("fix it with gpuf cluster set-profile edited"), r.err.constData());
        QCOMPARE(int(tasks().size()), tasksBefore);
        r = test::runProgram(gpuf, {QStringLiteral("search"), QStringLiteral("list"), m_fixture.path});
        QVERIFY2(!r.out.contains("edited"), r.out.constData());
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("no sbatch") << QStringLiteral("sbatch") << QStringLiteral("/nonexistent/sbatch is not on PATH");
        QTest::newRow("refused") << QStringLiteral("partition")
                                 << QStringLiteral("the scheduler refused the job: sbatch: error:");
        QTest::newRow("shared directory")
            << QStringLiteral("shared") << QStringLiteral("the shared directory /proc/gpuf-shared is not writable");
        QTest::newRow("unknown profile") << QStringLiteral("profile")
                                         << QStringLiteral("no cluster profile named 'nope'");
    }
    void badInput()
    {
        QFETCH(QString, what);
        QFETCH(QString, message);
        ClusterProfile p = profile();
        MeasureEngineConfig c = config(p);
        QString cluster = p.name;
        if (what == QLatin1String("sbatch"))
            c.clusterCommands.sbatch = QStringLiteral("/nonexistent/sbatch");
        else if (what == QLatin1String("partition"))
            c.clusterProfiles[0].partition = QStringLiteral("no_such_partition");
        else if (what == QLatin1String("shared"))
            c.clusterProfiles[0].sharedDirectory = QStringLiteral("/proc/gpuf-shared");
        else
            cluster = QStringLiteral("nope");
        const int tasksBefore = int(tasks().size());
        MeasureEngine engine(c);
        engine.setStorePath(m_fixture.path);
        engine.enqueue({job(m_kernel, MeasureKind::Compile, cluster)});
        QTRY_VERIFY_WITH_TIMEOUT(allFinished(engine), kWaitMs);
        const MeasureItem item = engine.snapshot().items.first();
        QCOMPARE(item.state, MeasureItemState::Failed);
        QVERIFY2(item.message.contains(message), qPrintable(item.message));
        // A refused submission is recorded, closed, with the scheduler's words; the others never reached the store.
        const QList<ClusterTask> after = tasks();
        QCOMPARE(int(after.size()), tasksBefore + (what == QLatin1String("partition") ? 1 : 0));
        if (what == QLatin1String("partition")) {
            QVERIFY(!after.first().open);
            QCOMPARE(after.first().state, QStringLiteral("failed"));
            QVERIFY(after.first().message.contains(QStringLiteral("partition")));
        }
    }
};

QTEST_GUILESS_MAIN(TestMeasureCluster)
#include "tst_measure_cluster.moc"
