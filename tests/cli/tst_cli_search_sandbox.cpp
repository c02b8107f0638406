// gpuf search and the Python sandbox, as gpuf measure and gpuf sweep (tst_measure_cli): where the sandbox cannot be
// made (here: a PATH without bubblewrap), `search start --gpu local` says once why Python candidates will not run and
// how to allow them; --unsandboxed allows them and silences it; with --gpu cluster:PROFILE, --unsandboxed is refused
// in one sentence (it would not reach the nodes) and nothing is written.
#include "../measure/measure_fixture.h"
#include "../search/search_fixture.h"
#include "tests/support/cli_run.h"

#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;
using gpuf::test::runGpuf;

class TestCliSearchSandbox : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;
    QProcessEnvironment m_env; // python3 on PATH, no bwrap, no opt-in setting

    QStringList start(const QString &name, const QStringList &extra) const
    {
        return QStringList {u"search"_s, u"start"_s, m_store, u"--name"_s, name, u"--problem"_s, u"sgemm"_s,
                   u"--steps"_s, u"1"_s, u"--measure"_s, u"1"_s}
        + extra;
    }

    int searches() const
    {
        auto store = Store::open(m_store, Store::Mode::ReadOnly);
        return store ? int((*store)->counts().value().searches) : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_store = m_dir.filePath(u"sandbox.gpuf"_s);
        const QString error = testing::makeWorldStore(m_store);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString python = QStandardPaths::findExecutable(u"python3"_s);
        if (python.isEmpty())
            QSKIP("no python3 on PATH");
        const QString bin = m_dir.filePath(u"bin"_s);
        QVERIFY(QDir().mkpath(bin));
        QVERIFY(QFile::link(python, bin + u"/python3"_s));
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(u"PATH"_s, bin);
        m_env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"config"_s));
    }

    void saidOnceAndAllowed()
    {
        if (testing::workerBinary().isEmpty())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        const QString said = u"search start: Python candidates will not be measured: the sandbox for Python "
                             u"candidates could not be made: "_s;
        const auto strict = runGpuf(start(u"strict"_s, {u"--gpu"_s, u"local"_s}), 120000, m_env);
        QCOMPARE(strict.err.count(said), 1);
        QVERIFY2(strict.err.contains(u"--unsandboxed"_s), qPrintable(strict.err));
        // Said as a search's notice, not as its failure: without a GPU here the search is refused after it.
        QVERIFY2(!strict.err.contains(u"gpuf: search start: Python candidates"_s), qPrintable(strict.err));

        const auto allowed = runGpuf(start(u"allowed"_s, {u"--gpu"_s, u"local"_s, u"--unsandboxed"_s}), 120000, m_env);
        QVERIFY2(allowed.exitCode != 2, qPrintable(allowed.err)); // the option exists
        QVERIFY2(!allowed.err.contains(said), qPrintable(allowed.err));
        QVERIFY2(!allowed.err.contains(u"Python candidates will not be measured"_s), qPrintable(allowed.err));

        // A replay measures nothing here: no worker is asked, and nothing is said.
        const auto replay = runGpuf(start(u"replay"_s, {u"--quiet"_s}), 120000, m_env);
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.err));
        QVERIFY2(!replay.err.contains(u"Python candidates"_s), qPrintable(replay.err));
    }

    void refusedWithACluster()
    {
        const int before = searches();
        const auto cluster
            = runGpuf(start(u"cluster"_s, {u"--gpu"_s, u"cluster:hpc"_s, u"--unsandboxed"_s}), 120000, m_env);
        QCOMPARE(cluster.exitCode, 1);
        QCOMPARE(cluster.err,
            u"gpuf: search start: --unsandboxed concerns this machine's gpuf-measure, not the nodes of cluster 'hpc': "
            u"give it to theirs with gpuf cluster set-profile hpc --worker-arg=--unsandboxed\n"_s);
        QCOMPARE(searches(), before);
        // Without --unsandboxed the cluster is what is wrong: the profile does not exist.
        const auto unknown = runGpuf(start(u"cluster"_s, {u"--gpu"_s, u"cluster:hpc"_s}), 120000, m_env);
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains(u"no cluster profile named 'hpc'"_s), qPrintable(unknown.err));
    }
};

QTEST_GUILESS_MAIN(TestCliSearchSandbox)
#include "tst_cli_search_sandbox.moc"
