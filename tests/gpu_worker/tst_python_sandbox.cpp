// The escapes a Python candidate could make before the sandbox, each tried by a real candidate
// (data/python/escapes) through core/gpu/python_runner on the standard-library problem, and each contained: the
// worker's secrets, writes outside the temporary directory, the host's Unix sockets, processes left behind, memory
// spread over several processes, a fork bomb, a SIGKILL to the process that started it (tst_measure_worker tries that
// one on gpuf-measure itself, where it is built). Without a sandbox on this machine they skip; the refusal is tested
// either way.
#include "core/gpu/python_runner.h"

#include "gpuf_config.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace gpuf::gpu;
using nlohmann::json;

namespace {

const QString kData = QStringLiteral(GPUF_WORKER_DATA_DIR "/python");

PythonSettings settings()
{
    PythonSettings s;
    s.harnessDir = GPUF_SOURCE_DIR "/resources/python";
    s.problemsDir = kData.toStdString();
    return s;
}

// The escape's source with its placeholders (@TARGET@, @SOCKET@, @MARKER@) replaced.
std::string escape(const QString &name, const QList<std::pair<QString, QString>> &values = {})
{
    QFile f(kData + QStringLiteral("/escapes/") + name + QStringLiteral(".py"));
    QString source = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    for (const auto &[placeholder, value] : values)
        source.replace(placeholder, value);
    return source.toStdString();
}

json run(const std::string &source, const SandboxStatus &sandbox, json options = json::object(),
    const PythonSettings &s = settings())
{
    options.emplace("max_samples", 5);
    const json body = {{"candidate", {{"format", kPythonCandidateFormat}, {"source", source}}},
        {"problem", {{"name", "scale_stdlib"}}}, {"options", options}};
    auto parsed = parsePythonJob(body, s);
    if (auto *errors = std::get_if<std::vector<std::string>>(&parsed))
        return {{"status", "bad_request"}, {"message", errors->front()}};
    return runPythonJob(std::get<PythonJob>(parsed), s, PythonDevice {}, sandbox);
}

QString text(const json &j, const char *key) { return QString::fromStdString(j.value(key, std::string())); }

// The processes whose command line holds `marker`.
int processesWith(const QByteArray &marker)
{
    int found = 0;
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        QFile cmdline(QStringLiteral("/proc/") + pid + QStringLiteral("/cmdline"));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(marker))
            ++found;
    }
    return found;
}

} // namespace

class TestPythonSandbox : public QObject
{
    Q_OBJECT

private:
    SandboxStatus m_sandbox;
    QByteArray m_marker = "gpuf-escape-" + QByteArray::number(::getpid());

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("python3 is not installed");
        m_sandbox = probePythonSandbox(settings());
    }

    void init()
    {
        const QByteArray test = QTest::currentTestFunction();
        if (!m_sandbox.available && !test.startsWith("refused"))
            QSKIP(qPrintable(QStringLiteral("the sandbox cannot be made here: %1 (scripts/setup installs bubblewrap)")
                                 .arg(QString::fromStdString(m_sandbox.reason))));
    }

    void secretsStayWithTheWorker()
    {
        qputenv("OPENAI_API_KEY", "sk-planted-openai-7f3a");
        qputenv("GPUF_TEST_TOKEN", "planted-token-91c2");
        qputenv("TRITON_PLANTED_SECRET", "planted-secret-5d0e");
        const json r = run(escape(QStringLiteral("read_secret")), m_sandbox);
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("GPUF_TEST_TOKEN");
        qunsetenv("TRITON_PLANTED_SECRET");
        QCOMPARE(text(r, "status"), QStringLiteral("runtime_error"));
        QVERIFY2(text(r, "message").contains(QStringLiteral("secrets seen: []")), qPrintable(text(r, "message")));
        const QString everything = QString::fromStdString(r.dump());
        QVERIFY(text(r, "log_tail").contains(QStringLiteral("PATH="))); // the candidate did print what it saw
        QVERIFY(!everything.contains(QStringLiteral("planted-")));
        QVERIFY(!everything.contains(QStringLiteral("sk-planted")));
    }

    void writesStayInTheTemporaryDirectory()
    {
        QTemporaryDir target;
        QVERIFY(target.isValid());
        const QString name = QStringLiteral("gpuf-escaped-") + QString::fromLatin1(m_marker);
        const json r = run(escape(QStringLiteral("write_outside"),
                               {{QStringLiteral("@TARGET@"), target.path()},
                                   {QStringLiteral("@MARKER@"), QString::fromLatin1(m_marker)}}),
            m_sandbox);
        const QString home = QDir::home().filePath(name);
        const bool wroteHome = QFile::exists(home);
        QFile::remove(home);
        QVERIFY2(text(r, "status") == QLatin1String("ok"), qPrintable(text(r, "message")));
        QVERIFY(!QFile::exists(target.filePath(name)));
        QVERIFY(!wroteHome);
    }

    void hostUnixSocketsOutOfReach()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray path = QFile::encodeName(dir.filePath(QStringLiteral("host.sock")));
        const int server = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        QVERIFY(server >= 0 && std::size_t(path.size()) < sizeof address.sun_path);
        std::copy(path.cbegin(), path.cend(), address.sun_path);
        QVERIFY(::bind(server, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
        QVERIFY(::listen(server, 4) == 0);
        const json r = run(
            escape(QStringLiteral("unix_socket"), {{QStringLiteral("@SOCKET@"), QFile::decodeName(path)}}), m_sandbox);
        const int accepted = ::accept(server, nullptr, nullptr);
        const int why = errno;
        if (accepted >= 0)
            ::close(accepted);
        ::close(server);
        QVERIFY2(text(r, "status") == QLatin1String("ok"), qPrintable(text(r, "message")));
        QVERIFY(accepted < 0 && (why == EAGAIN || why == EWOULDBLOCK)); // nothing connected
    }

    void noProcessOutlivesTheAnswer()
    {
        const json r = run(
            escape(QStringLiteral("leave_process"), {{QStringLiteral("@MARKER@"), QString::fromLatin1(m_marker)}}),
            m_sandbox);
        QVERIFY2(text(r, "status") == QLatin1String("ok"), qPrintable(text(r, "message")));
        QTRY_COMPARE(processesWith(m_marker), 0); // killed with the sandbox, not merely asked to go
    }

    // The candidate's SIGKILL to the process that started its interpreter (here this test, in gpuf-measure the
    // worker) meets the sandbox's own init: the test is still running to read the answer, which is correct.
    void workerOutOfReach()
    {
        const json r = run(escape(QStringLiteral("kill_parent")), m_sandbox);
        QVERIFY2(text(r, "status") == QLatin1String("ok"), qPrintable(text(r, "message")));
        QVERIFY(r["isolation"]["sandbox"].get<std::string>().rfind("bubblewrap", 0) == 0);
    }

    void memoryLimitCoversEveryProcess()
    {
        // Four children of 120 MiB each: every one below the limit of 300 MiB, together well above it.
        const json r = run(
            escape(QStringLiteral("memory_children")), m_sandbox, {{"memory_limit_mb", 300}, {"timeout_ms", 30000}});
        QCOMPARE(text(r, "status"), QStringLiteral("runtime_error"));
        QCOMPARE(QString::fromStdString(r["error"]["type"].get<std::string>()), QStringLiteral("MemoryLimitExceeded"));
        QVERIFY2(
            text(r, "message").contains(QStringLiteral("all its processes together")), qPrintable(text(r, "message")));
        QVERIFY(r["isolation"]["peak_rss_mb"].get<double>() > 300);
        QVERIFY(r["isolation"]["wall_ms"].get<double>() < 30000); // stopped by the memory check, not the clock
    }

    // A fork bomb: every process of the tree starts more copies for ever. The tree is stopped at its process limit
    // (refused by the kernel where a pids cgroup can be made, caught by the poll of the tree otherwise) and killed
    // whole, long before its wall-clock limit.
    void forkBombIsStoppedAndKilled_data()
    {
        QTest::addColumn<bool>("cgroup");
        QTest::newRow("pids cgroup where one can be made") << true;
        QTest::newRow("count of the tree alone") << false;
    }
    void forkBombIsStoppedAndKilled()
    {
        QFETCH(bool, cgroup);
        PythonSettings s = settings();
        s.pidsCgroup = cgroup;
        const json r
            = run(escape(QStringLiteral("fork_bomb"), {{QStringLiteral("@MARKER@"), QString::fromLatin1(m_marker)}}),
                m_sandbox, {{"process_limit", 64}, {"timeout_ms", 60000}}, s);
        QCOMPARE(text(r, "status"), QStringLiteral("runtime_error"));
        QCOMPARE(QString::fromStdString(r["error"]["type"].get<std::string>()), QStringLiteral("ProcessLimitExceeded"));
        QVERIFY2(
            text(r, "message")
                .startsWith(QStringLiteral(
                    "the candidate's processes went over their limit of 64 processes and threads (all its processes "
                    "together; last phase: ")),
            qPrintable(text(r, "message")));
        QVERIFY(r["isolation"]["wall_ms"].get<double>() < 60000); // stopped by the process limit, not the clock
        QCOMPARE(r["isolation"]["process_limit"].get<int>(), 64);
        qInfo("process limit kept by %s; at most %d processes and threads seen",
            r["isolation"]["process_scope"].get<std::string>().c_str(), r["isolation"]["peak_tasks"].get<int>());
        if (!cgroup)
            QVERIFY(r["isolation"]["process_scope"].get<std::string>().starts_with("the whole process tree, counted"));
        QTRY_COMPARE(processesWith(m_marker), 0); // every copy killed with the tree
    }

    void processLimitIsChecked()
    {
        for (const json &bad : {json(7), json(100001), json(64.5), json("64")}) {
            const json r = run("def custom_kernel(data):\n    return data\n", m_sandbox, {{"process_limit", bad}});
            QCOMPARE(text(r, "status"), QStringLiteral("bad_request"));
            QCOMPARE(text(r, "message"),
                QStringLiteral(
                    "options.process_limit: expected a whole number of processes and threads in [8, 100000]"));
        }
    }

    // A shared Triton cache folder that does not exist yet (a fresh machine) is made and writable inside the
    // sandbox; left to bwrap it would not be bound and Triton's first compile would fail on a read-only file system.
    void freshTritonCacheIsWritable()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cache = dir.filePath(QStringLiteral("shared/triton"));
        QFile source(kData + QStringLiteral("/candidates/writes_cache.py"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const json r = run(source.readAll().toStdString(), m_sandbox, {{"triton_cache_dir", cache.toStdString()}});
        QVERIFY2(text(r, "status") == QLatin1String("ok"), qPrintable(text(r, "message")));
        QVERIFY(QFile::exists(cache + QStringLiteral("/written-by-candidate")));
    }

    // Triton compiles its launcher with the compiler CC names; one installed outside the system folders (a machine's
    // /opt/gcc) is visible, read-only, inside the sandbox (on the H200 every Triton variant failed without it).
    void compilerOutsideTheSystemIsVisible()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("opt/gcc/bin")));
        const QString compiler = dir.filePath(QStringLiteral("opt/gcc/bin/gcc"));
        QFile program(compiler);
        QVERIFY(program.open(QIODevice::WriteOnly));
        program.write("#!/bin/sh\nexit 0\n");
        program.close();
        QVERIFY(program.setPermissions(program.permissions() | QFileDevice::ExeOwner));
        const QByteArray before = qgetenv("CC");
        qputenv("CC", compiler.toUtf8());
        const SandboxStatus withCompiler = probePythonSandbox(settings());
        const json r = run("import os\n"
                           "def custom_kernel(d):\n"
                           "    assert os.access(os.environ['CC'], os.X_OK), 'no compiler at ' + os.environ['CC']\n"
                           "    return [d['a'] * v for v in d['x']]\n",
            withCompiler);
        if (before.isNull())
            qunsetenv("CC");
        else
            qputenv("CC", before);
        const auto &roots = withCompiler.pythonRoots;
        const std::filesystem::path root
            = std::filesystem::canonical(dir.filePath(QStringLiteral("opt/gcc")).toStdString());
        QVERIFY(std::find(roots.begin(), roots.end(), root) != roots.end());
        QVERIFY2(text(r, "status") == QLatin1String("ok"), qPrintable(text(r, "message")));
    }

    void isolationSaysSandboxed()
    {
        const json r = run("def custom_kernel(d):\n    return [d['a'] * v for v in d['x']]\n", m_sandbox);
        QCOMPARE(text(r, "status"), QStringLiteral("ok"));
        QVERIFY(r["isolation"]["sandbox"].get<std::string>().rfind("bubblewrap", 0) == 0);
    }

    void refusedWithoutSandbox()
    {
        PythonSettings s = settings();
        s.bwrap = "/nonexistent/bwrap";
        const SandboxStatus none = probePythonSandbox(s);
        QVERIFY(!none.available);
        QVERIFY2(none.reason.find("/nonexistent/bwrap") != std::string::npos, none.reason.c_str());
        const json refused = run("def custom_kernel(d):\n    return d\n", none, json::object(), s);
        QCOMPARE(text(refused, "status"), QStringLiteral("infrastructure_failure"));
        const QString message = text(refused, "message");
        QVERIFY2(message.startsWith(QStringLiteral("the sandbox for Python candidates could not be made: could not "
                                                   "start '/nonexistent/bwrap'")),
            qPrintable(message));
        QVERIFY(message.contains(QStringLiteral("install bubblewrap")));
        QVERIFY(message.contains(QStringLiteral("--unsandboxed")));
        QVERIFY(!refused.contains("cases")); // nothing ran
    }

    void refusedUnlessAllowed()
    {
        PythonSettings s = settings();
        s.bwrap = "/nonexistent/bwrap";
        s.allowUnsandboxed = true;
        const SandboxStatus none = probePythonSandbox(s);
        const json r = run("def custom_kernel(d):\n    return [d['a'] * v for v in d['x']]\n", none, json::object(), s);
        QVERIFY2(text(r, "status") == QLatin1String("ok"), qPrintable(text(r, "message")));
        QVERIFY(r["isolation"]["sandbox"].get<std::string>().rfind("none, allowed by --unsandboxed", 0) == 0);
    }
};

QTEST_GUILESS_MAIN(TestPythonSandbox)
#include "tst_python_sandbox.moc"
