// gpuf device and gpuf measure on this machine, through the real gpuf binary: exit codes, the exact reason when
// there is no GPU or no worker, kernels without a spec, unknown kernels, and that nothing is stored then; where the
// Python sandbox cannot be made, measure and sweep say so once unless --unsandboxed, which a cluster refuses.
#include "measure_fixture.h"
#include "tests/support/cli_run.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace gpuf;

using Run = gpuf::test::CliText;

class TestMeasureCli : public QObject
{
    Q_OBJECT

    testing::CorpusStore m_fixture;
    QString m_reason; // why this machine cannot measure; empty when it can

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_fixture.create());
        m_fixture.store.reset(); // the CLI opens the file itself
    }

    void device()
    {
        const Run r = test::runGpuf({QStringLiteral("device"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(doc.contains(QStringLiteral("available")), qPrintable(r.out + r.err));
        const bool available = doc.value(QStringLiteral("available")).toBool();
        const QJsonArray devices = doc.value(QStringLiteral("devices")).toArray();
        if (available) {
            QVERIFY(doc.value(QStringLiteral("reason")).isNull());
            QVERIFY(!devices.isEmpty());
            const QJsonObject first = devices.first().toObject();
            QVERIFY(first.value(QStringLiteral("multiprocessors")).toInt() > 0);
            QVERIFY(!first.value(QStringLiteral("compute_capability")).toString().isEmpty());
            return;
        }
        m_reason = doc.value(QStringLiteral("reason")).toString();
        QVERIFY(!m_reason.isEmpty());
        QVERIFY(devices.isEmpty());
        if (testing::workerBinary().isEmpty() && doc.value(QStringLiteral("worker")).isNull())
            QCOMPARE(m_reason, QStringLiteral("gpuf-measure not built: CUDA toolkit missing"));
        else
            QVERIFY(!doc.value(QStringLiteral("worker")).toString().isEmpty());

        const Run text = test::runGpuf({QStringLiteral("device")});
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out.trimmed(), QStringLiteral("no GPU available: ") + m_reason);
    }

    void measureWithoutGpu()
    {
        if (m_reason.isEmpty())
            QSKIP("this machine has a GPU: measuring would succeed (tests/gpu covers it)");
        const Run r = test::runGpuf({QStringLiteral("measure"), m_fixture.path, QStringLiteral("2")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("nothing measured")) && r.err.contains(m_reason), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        auto store = Store::open(m_fixture.path, Store::Mode::ExistingOnly);
        QCOMPARE(store.value()->counts()->measurements, 0);
    }

    void badKernels_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no kernel") << QStringList {} << 2 << QStringLiteral("give a STORE and at least one KERNEL");
        QTest::newRow("unknown id") << QStringList {QStringLiteral("4242")} << 1 << QStringLiteral("kernel '4242'");
        QTest::newRow("short prefix") << QStringList {QStringLiteral("ab")} << 1
                                      << QStringLiteral("at least 6 hex digits");
        QTest::newRow("unknown hash") << QStringList {QStringLiteral("0000000000")} << 1
                                      << QStringLiteral("no kernel with that id or content hash prefix");
        QTest::newRow("one bad among good")
            << QStringList {QStringLiteral("2"), QStringLiteral("nothex!")} << 1 << QStringLiteral("kernel 'nothex!'");
    }
    void badKernels()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = test::runGpuf(QStringList {QStringLiteral("measure"), m_fixture.path} + args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void kernelWithoutSpec()
    {
        RowId id = 0;
        {
            auto store = Store::open(m_fixture.path, Store::Mode::ExistingOnly);
            Kernel k;
            k.problemId = 1;
            k.name = QStringLiteral("pasted");
            k.language = QStringLiteral("cuda");
            k.source = QStringLiteral("extern \"C\" __global__ void pasted() {}");
            k.origin = QStringLiteral("manual");
            QVERIFY(KernelRepo(**store).insertOrGet(k).ok());
            id = k.id;
        }
        const Run r = test::runGpuf({QStringLiteral("measure"), m_fixture.path, QString::number(id)});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("kernel %1 ('pasted') has no kernel spec (parameters.spec)").arg(id)),
            qPrintable(r.err));
    }

    // Every command that runs candidates on this machine: without bubblewrap (a PATH holding only python3), the
    // worker refuses Python candidates and the command says so once, with the way out; --unsandboxed is the way out,
    // and with a cluster it is refused (it would not reach the nodes).
    void unsandboxed_data()
    {
        QTest::addColumn<QStringList>("args"); // after the command and STORE
        QTest::addColumn<QString>("command");
        QTest::newRow("measure") << QStringList {QStringLiteral("2")} << QStringLiteral("measure");
        QTest::newRow("sweep") << QStringList {QStringLiteral("--family"), QStringLiteral("transpose"),
            QStringLiteral("--sample"), QStringLiteral("1")}
                               << QStringLiteral("sweep");
    }
    void unsandboxed()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, command);
        if (testing::workerBinary().isEmpty())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("no python3 on PATH");
        QTemporaryDir dir;
        QVERIFY(QFile::link(python, dir.filePath(QStringLiteral("python3"))));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), dir.path()); // python3 and no bwrap
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config"))); // no opt-in setting
        const QString store = command == QLatin1String("measure") ? m_fixture.path : dir.filePath(QStringLiteral("s"));
        const QString said = command
            + QStringLiteral(": Python candidates will not be measured: the sandbox for "
                             "Python candidates could not be made: ");
        const Run strict = test::runGpuf(QStringList {command, store} + args, 120000, env);
        QCOMPARE(strict.err.count(said), 1);
        QVERIFY2(strict.err.contains(QStringLiteral("--unsandboxed")), qPrintable(strict.err));
        const Run allowed = test::runGpuf(
            QStringList {command, store} + args + QStringList {QStringLiteral("--unsandboxed")}, 120000, env);
        QVERIFY2(allowed.exitCode != 2, qPrintable(allowed.err)); // the option exists
        QVERIFY2(!allowed.err.contains(said), qPrintable(allowed.err));
        const Run cluster = test::runGpuf(QStringList {command, store} + args
                + QStringList {QStringLiteral("--cluster"), QStringLiteral("hpc"), QStringLiteral("--unsandboxed")},
            120000, env);
        QCOMPARE(cluster.exitCode, 1);
        QVERIFY2(
            cluster.err.contains(QStringLiteral("--unsandboxed concerns this machine's gpuf-measure, not the nodes "
                                                "of cluster 'hpc': give it to theirs with gpuf cluster set-profile "
                                                "hpc --worker-arg=--unsandboxed")),
            qPrintable(cluster.err));
    }
};

QTEST_GUILESS_MAIN(TestMeasureCli)
#include "tst_measure_cli.moc"
