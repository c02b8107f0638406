// The Slurm batch's pure parts: array specs, sbatch/squeue/sacct output, state classes, result files (complete, cut
// short, with a request that got no answer), profile checks and settings, and the job script itself run by sh with
// a stand-in worker (no Slurm needed).
#include "core/measure/cluster_batch.h"
#include "core/measure/cluster_profile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::cluster;
using namespace Qt::StringLiterals;

class TestClusterBatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void arraySpecs_data()
    {
        QTest::addColumn<QList<int>>("indices");
        QTest::addColumn<QString>("spec");
        QTest::newRow("one") << QList<int> {0} << QStringLiteral("0");
        QTest::newRow("range") << QList<int> {0, 1, 2, 3} << QStringLiteral("0-3");
        QTest::newRow("gaps") << QList<int> {5, 1, 4} << QStringLiteral("1,4-5");
        QTest::newRow("duplicates") << QList<int> {2, 2, 3} << QStringLiteral("2-3");
    }
    void arraySpecs()
    {
        QFETCH(QList<int>, indices);
        QFETCH(QString, spec);
        QCOMPARE(arraySpec(indices), spec);
    }

    void sbatchOutput_data()
    {
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QString>("jobId");
        QTest::newRow("plain") << QByteArray("1234\n") << QStringLiteral("1234");
        QTest::newRow("federation") << QByteArray("77;gpu-cluster\n") << QStringLiteral("77");
        QTest::newRow("warning first") << QByteArray("sbatch: warning: x\n42\n") << QStringLiteral("42");
        QTest::newRow("nothing") << QByteArray("") << QString();
        QTest::newRow("words") << QByteArray("Submitted batch job 5\n") << QString();
    }
    void sbatchOutput()
    {
        QFETCH(QByteArray, output);
        QFETCH(QString, jobId);
        auto parsed = parseSbatchJobId(output);
        QCOMPARE(parsed.ok(), !jobId.isEmpty());
        if (parsed)
            QCOMPARE(*parsed, jobId);
        else
            QVERIFY2(parsed.error().startsWith(QStringLiteral("sbatch printed no job id")), qPrintable(parsed.error()));
    }

    void slurmStates()
    {
        const QByteArray squeue = "12_0|RUNNING|node7|None\n12_[1-2,4]|PENDING||Resources\n"
                                  "13|COMPLETED|node1|None\nnot a line\n";
        const QList<SlurmTaskState> states = parseSlurmStates(squeue);
        QCOMPARE(states.size(), 5);
        QCOMPARE(states[0].jobId, QStringLiteral("12"));
        QCOMPARE(states[0].arrayIndex, 0);
        QCOMPARE(states[0].node, QStringLiteral("node7"));
        QCOMPARE(states[3].arrayIndex, 4);
        QCOMPARE(states[3].reason, QStringLiteral("Resources"));
        QCOMPARE(states[4].arrayIndex, -1);
        const QList<SlurmTaskState> sacct = parseSlurmStates("12_3|CANCELLED by 0|node2\n12_3.batch|CANCELLED|node2\n");
        QCOMPARE(sacct.size(), 2);
        QCOMPARE(sacct[0].state, QStringLiteral("CANCELLED"));
        QCOMPARE(sacct[0].arrayIndex, 3);
    }

    void stateClasses_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<int>("kind");
        QTest::newRow("pending") << QStringLiteral("PENDING") << int(SlurmStateClass::Waiting);
        QTest::newRow("running") << QStringLiteral("RUNNING") << int(SlurmStateClass::Running);
        QTest::newRow("completing") << QStringLiteral("COMPLETING") << int(SlurmStateClass::Running);
        QTest::newRow("completed") << QStringLiteral("COMPLETED") << int(SlurmStateClass::Finished);
        QTest::newRow("failed") << QStringLiteral("FAILED") << int(SlurmStateClass::Finished);
        QTest::newRow("node fail") << QStringLiteral("NODE_FAIL") << int(SlurmStateClass::NodeFailed);
        QTest::newRow("preempted") << QStringLiteral("PREEMPTED") << int(SlurmStateClass::NodeFailed);
        QTest::newRow("boot fail") << QStringLiteral("BOOT_FAIL") << int(SlurmStateClass::NodeFailed);
        QTest::newRow("cancelled by") << QStringLiteral("CANCELLED by 1000") << int(SlurmStateClass::NodeFailed);
        QTest::newRow("timeout") << QStringLiteral("TIMEOUT") << int(SlurmStateClass::TimeLimit);
        QTest::newRow("oom") << QStringLiteral("OUT_OF_MEMORY") << int(SlurmStateClass::OutOfMemory);
        QTest::newRow("unknown") << QStringLiteral("SOMETHING_NEW") << int(SlurmStateClass::Unknown);
    }
    void stateClasses()
    {
        QFETCH(QString, state);
        QFETCH(int, kind);
        QCOMPARE(int(classifySlurmState(state)), kind);
    }

    void resultFiles()
    {
        const QByteArray complete = R"({"gpuf_cluster":"start","node":"n1","job_id":"5","task":0}
{"id":"gpuf-hello","type":"hello","status":"ok","devices":[]}
{"id":"gpuf-device","type":"device_info","status":"infrastructure_failure"}
{"id":1,"type":"hello","status":"ok"}
{"gpuf_cluster":"no_answer","line":2,"exit_code":1}
{"id":3,"type":"compile","status":"compile_failed"}
{"gpuf_cluster":"end","exit_code":0}
)";
        TaskResult r = parseTaskResult(complete);
        QVERIFY(r.ended);
        QCOMPARE(r.node, QStringLiteral("n1"));
        QCOMPARE(r.hello.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QVERIFY(r.device.isEmpty());
        QCOMPARE(r.responses.keys().size(), 2);
        QCOMPARE(r.responses.value(3).value(QStringLiteral("status")).toString(), QStringLiteral("compile_failed"));
        QCOMPARE(r.noAnswerLines, QList<int> {2});
        QCOMPARE(r.unreadableLines, 0);

        // Cut short: no end line, the last answer half written.
        TaskResult cut = parseTaskResult(complete.left(complete.indexOf("{\"id\":3") + 12));
        QVERIFY(!cut.ended);
        QCOMPARE(cut.responses.keys(), QList<qint64> {1});
        QCOMPARE(cut.unreadableLines, 1);
    }

    void profileProblems()
    {
        ClusterProfile p;
        p.name = QStringLiteral("a100s");
        p.sharedDirectory = QStringLiteral("/shared/u");
        QVERIFY(clusterProfileProblems(p).isEmpty());
        QCOMPARE(
            sbatchResourceOptions(p), QStringList({QStringLiteral("--gres=gpu:1"), QStringLiteral("--time=01:00:00")}));
        p.partition = QStringLiteral("gpu");
        p.account = QStringLiteral("proj");
        p.gpuType = QStringLiteral("a100");
        p.gpuCount = 2;
        p.extraOptions = {QStringLiteral("--qos=short")};
        QCOMPARE(sbatchResourceOptions(p),
            QStringList({QStringLiteral("--partition=gpu"), QStringLiteral("--account=proj"),
                QStringLiteral("--gres=gpu:a100:2"), QStringLiteral("--time=01:00:00"),
                QStringLiteral("--qos=short")}));

        ClusterProfile bad;
        bad.name = QStringLiteral("bad name");
        bad.sharedDirectory = QStringLiteral("relative/dir");
        bad.timeLimit = QStringLiteral("an hour");
        bad.extraOptions = {QStringLiteral("--array=0-9"), QStringLiteral("qos")};
        const QStringList problems = clusterProfileProblems(bad);
        QCOMPARE(problems.size(), 5);
        QVERIFY(problems.join(QLatin1Char('\n')).contains(QStringLiteral("shared directory")));
        QVERIFY(problems.join(QLatin1Char('\n')).contains(QStringLiteral("gpuf sets the array")));
    }

    // Values a hand-edited or mistyped profile can hold, each refused with the field it concerns.
    void profileRefusesBadValues_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("minutes over 59") << u"time"_s << u"25:99:99"_s << u"is not a Slurm time"_s;
        QTest::newRow("seconds over 59") << u"time"_s << u"10:75"_s << u"is not a Slurm time"_s;
        QTest::newRow("hours after days") << u"time"_s << u"1-24:00:00"_s << u"is not a Slurm time"_s;
        QTest::newRow("words") << u"time"_s << u"an hour"_s << u"is not a Slurm time"_s;
        QTest::newRow("arch placeholder") << u"arch"_s << u"sm_xx"_s << u"'sm_xx' is not a GPU architecture"_s;
        QTest::newRow("arch bare number") << u"arch"_s << u"90"_s << u"'90' is not a GPU architecture"_s;
        QTest::newRow("option with a line break")
            << u"option"_s << u"--qos=short\n#SBATCH --uid=0"_s << u"holds a line break"_s;
        QTest::newRow("partition with a line break") << u"partition"_s << u"gpu\nrm -rf"_s << u"partition: holds"_s;
        // Counts without an upper bound were saved (a task submitted again 2000000000 times).
        QTest::newRow("GPUs a task") << u"gpus"_s << u"2000000000"_s
                                     << u"GPU count: at most 64 a task, not 2000000000"_s;
        QTest::newRow("poll interval") << u"poll"_s << u"2000000000"_s
                                       << u"poll interval: at most 3600000 ms (an hour), not 2000000000"_s;
        QTest::newRow("requests a task") << u"per-task"_s << u"2000000000"_s
                                         << u"requests per task: at most 10000, not 2000000000"_s;
        QTest::newRow("attempts") << u"attempts"_s << u"2000000000"_s << u"attempts: at most 100, not 2000000000"_s;
    }

    void profileRefusesBadValues()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, message);
        ClusterProfile p;
        p.name = u"hpc"_s;
        p.sharedDirectory = u"/shared/u"_s;
        if (field == u"time"_s)
            p.timeLimit = value;
        else if (field == u"arch"_s)
            p.compileArch = value;
        else if (field == u"option"_s)
            p.extraOptions = {value};
        else if (field == u"gpus"_s)
            p.gpuCount = value.toInt();
        else if (field == u"poll"_s)
            p.pollIntervalMs = value.toInt();
        else if (field == u"per-task"_s)
            p.requestsPerTask = value.toInt();
        else if (field == u"attempts"_s)
            p.maxAttempts = value.toInt();
        else
            p.partition = value;
        const QStringList problems = clusterProfileProblems(p);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(message), qPrintable(problems.first()));
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"s.ini"_s), QSettings::IniFormat);
        QVERIFY(!saveClusterProfile(p, &settings).ok());
        QVERIFY(loadClusterProfiles(&settings).isEmpty());
    }

    void profileAcceptsSlurmTimes()
    {
        ClusterProfile p;
        p.name = u"hpc"_s;
        p.sharedDirectory = u"/shared/u"_s;
        for (const QString &time : {u"30"_s, u"30:00"_s, u"48:00:00"_s, u"2-12"_s, u"2-12:30"_s, u"1-23:59:59"_s}) {
            p.timeLimit = time;
            QVERIFY2(clusterProfileProblems(p).isEmpty(), qPrintable(time));
        }
        for (const QString &arch : {u"sm_80"_s, u"sm_90a"_s, u"sm_100a"_s, u"sm_120f"_s}) {
            p.compileArch = arch;
            QVERIFY2(clusterProfileProblems(p).isEmpty(), qPrintable(arch));
        }
    }

    // A profile broken by hand in the settings file is refused, with the fix, by everything that submits work.
    void handEditedProfileIsNotUsable()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"s.ini"_s), QSettings::IniFormat);
        ClusterProfile p;
        p.name = u"hpc"_s;
        p.sharedDirectory = u"/shared/u"_s;
        QVERIFY(saveClusterProfile(p, &settings).ok());
        QVERIFY(usableClusterProfile(u"hpc"_s, &settings).ok());
        settings.setValue(u"cluster/profiles/hpc/time_limit"_s, u"25:99:99"_s);
        QVERIFY(clusterProfile(u"hpc"_s, &settings).ok()); // still readable, so set-profile can repair it
        const auto usable = usableClusterProfile(u"hpc"_s, &settings);
        QVERIFY(!usable.ok());
        QVERIFY2(usable.error().startsWith(u"the cluster profile 'hpc' is not usable: time limit: '25:99:99'"_s),
            qPrintable(usable.error()));
        QVERIFY(usable.error().endsWith(u"(fix it with gpuf cluster set-profile hpc)"_s));
    }

    // The documentation names the file the profiles are really kept in (it named clusters.ini; the file is
    // clusters.conf), so a user who edits it by hand edits the right one.
    void docsNameTheSettingsFile()
    {
        const QString file = clusterSettingsFile();
        QCOMPARE(QFileInfo(file).fileName(), u"clusters.conf"_s);
        QCOMPARE(QFileInfo(file).dir().dirName(), u"gpuf"_s);
        QFile docs(QStringLiteral(GPUF_SOURCE_DIR "/docs/cluster.md"));
        QVERIFY(docs.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(docs.readAll());
        QVERIFY2(text.contains(u"~/.config/gpuf/"_s + QFileInfo(file).fileName()), qPrintable(file));
        QVERIFY(!text.contains(u"clusters.ini"_s));
    }

    void profilesInSettings()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        ClusterProfile p;
        p.name = QStringLiteral("hpc");
        p.sharedDirectory = QStringLiteral("/scratch/u/gpuf");
        p.partition = QStringLiteral("gpu");
        p.workerArguments = {QStringLiteral("--cache-dir"), QStringLiteral("/scratch/u/cubins")};
        p.pollIntervalMs = 5000;
        QVERIFY(saveClusterProfile(p, &settings).ok());
        auto read = clusterProfile(QStringLiteral("hpc"), &settings);
        QVERIFY2(read.ok(), qPrintable(read.error()));
        QCOMPARE(read->partition, QStringLiteral("gpu"));
        QCOMPARE(read->workerArguments, p.workerArguments);
        QCOMPARE(read->pollIntervalMs, 5000);
        QCOMPARE(loadClusterProfiles(&settings).size(), 1);
        auto missing = clusterProfile(QStringLiteral("nope"), &settings);
        QVERIFY(missing.error().contains(QStringLiteral("no cluster profile named 'nope'")));
        p.sharedDirectory.clear();
        QVERIFY(!saveClusterProfile(p, &settings).ok());
        QVERIFY(removeClusterProfile(QStringLiteral("hpc"), &settings));
        QVERIFY(loadClusterProfiles(&settings).isEmpty());
    }

    // The job script as a node runs it: a worker that dies on one request is started again past it, the request is
    // noted as unanswered, and the file is renamed into place with its end line.
    void jobScriptSkipsAWorkerCrash()
    {
        QTemporaryDir dir;
        const QString batch = dir.filePath(QStringLiteral("batch"));
        for (const char *sub : {"requests", "results", "logs"})
            QVERIFY(QDir().mkpath(batch + QLatin1Char('/') + QLatin1String(sub)));
        ClusterProfile p;
        p.name = QStringLiteral("t");
        p.sharedDirectory = dir.path();
        p.workerPath = QStringLiteral(GPUF_MEASURE_TEST_DIR "/crashing_worker.sh");
        QFile script(batch + QStringLiteral("/run.sh"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(jobScript(p, batch));
        script.close();
        QFile requests(requestFile(batch, 0));
        QVERIFY(requests.open(QIODevice::WriteOnly));
        requests.write(
            "{\"id\":1,\"type\":\"hello\"}\n{\"id\":2,\"type\":\"compile\"}\n{\"id\":3,\"type\":\"hello\"}\n");
        requests.close();

        QProcess sh;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("0"));
        env.insert(QStringLiteral("SLURM_JOB_ID"), QStringLiteral("77"));
        sh.setProcessEnvironment(env);
        sh.start(QStringLiteral("sh"), {batch + QStringLiteral("/run.sh")});
        QVERIFY(sh.waitForFinished(30000));
        QCOMPARE(sh.exitCode(), 0);
        QVERIFY(!QFile::exists(resultFile(batch, 0) + QStringLiteral(".part-77")));
        QFile out(resultFile(batch, 0));
        QVERIFY(out.open(QIODevice::ReadOnly));
        const TaskResult r = parseTaskResult(out.readAll());
        QVERIFY(r.ended);
        QCOMPARE(r.responses.keys().size(), 2);
        QVERIFY(r.responses.contains(1) && r.responses.contains(3));
        QCOMPARE(r.noAnswerLines, QList<int> {2});
        QVERIFY(!r.node.isEmpty());
        // The task left its heartbeat: the array job's id (SLURM_JOB_ID without an array) and the node's clock.
        bool exists = false;
        const Heartbeat beat = parseHeartbeat(readFile(heartbeatFile(batch, 0), &exists));
        QVERIFY(exists);
        QCOMPARE(beat.jobId, QStringLiteral("77"));
        QVERIFY(qAbs(beat.epoch - QDateTime::currentSecsSinceEpoch()) < 60);
        QVERIFY(scriptWritesHeartbeat(batch));
    }

    void heartbeats()
    {
        QCOMPARE(parseHeartbeat("1234 1795942712\n").jobId, QStringLiteral("1234"));
        QCOMPARE(parseHeartbeat("1234 1795942712\n").epoch, 1795942712);
        for (const QByteArray &bad :
            {QByteArray(), QByteArray("1234"), QByteArray("1234 x"), QByteArray("a 12"), QByteArray("1234 12 13")})
            QVERIFY2(parseHeartbeat(bad).jobId.isEmpty(), bad.constData());
        ClusterProfile p;
        QCOMPARE(heartbeatSeconds(p), 30); // the default poll interval
        QCOMPARE(lostAfterMs(p), 180000);
        p.pollIntervalMs = 200;
        QCOMPARE(heartbeatSeconds(p), 1);
        QCOMPARE(lostAfterMs(p), 6000);
        p.pollIntervalMs = 3600000;
        QCOMPARE(heartbeatSeconds(p), 60);
        QVERIFY(jobScript(p, QStringLiteral("/b")).contains("sleep 60\n"));
        QTemporaryDir dir;
        QVERIFY(!scriptWritesHeartbeat(dir.path())); // no run.sh, or one of an older gpuf
    }

    void jobScriptReportsAMissingWorker()
    {
        QTemporaryDir dir;
        const QString batch = dir.filePath(QStringLiteral("batch"));
        for (const char *sub : {"requests", "results", "logs"})
            QVERIFY(QDir().mkpath(batch + QLatin1Char('/') + QLatin1String(sub)));
        ClusterProfile p;
        p.name = QStringLiteral("t");
        p.sharedDirectory = dir.path();
        p.workerPath = dir.filePath(QStringLiteral("no-such-gpuf-measure"));
        QFile script(batch + QStringLiteral("/run.sh"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(jobScript(p, batch));
        script.close();
        QFile requests(requestFile(batch, 0));
        QVERIFY(requests.open(QIODevice::WriteOnly));
        requests.write("{\"id\":1,\"type\":\"hello\"}\n");
        requests.close();
        QProcess sh;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("0"));
        sh.setProcessEnvironment(env);
        sh.start(QStringLiteral("sh"), {batch + QStringLiteral("/run.sh")});
        QVERIFY(sh.waitForFinished(30000));
        QFile out(resultFile(batch, 0));
        QVERIFY(out.open(QIODevice::ReadOnly));
        const TaskResult r = parseTaskResult(out.readAll());
        QVERIFY(r.workerFailed);
        QCOMPARE(r.exitCode, 127);
        QVERIFY(r.responses.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestClusterBatch)
#include "tst_cluster_batch.moc"
