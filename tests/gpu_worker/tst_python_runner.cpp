// Python candidates without a GPU: core/gpu/python_runner starts the real harness (resources/python) in a fresh
// python3 per candidate on a standard-library problem, and every result kind, limit and isolation rule is checked.
#include "core/gpu/python_runner.h"

#include "gpuf_config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTest>

using namespace gpuf::gpu;
using nlohmann::json;

namespace {

const QString kData = QStringLiteral(GPUF_WORKER_DATA_DIR "/python");

std::string candidateSource(const QString &name)
{
    QFile f(kData + QStringLiteral("/candidates/") + name + QStringLiteral(".py"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

PythonSettings settings()
{
    PythonSettings s;
    s.harnessDir = GPUF_SOURCE_DIR "/resources/python";
    s.problemsDir = (kData).toStdString();
    return s;
}

json request(const QString &candidate, json options = json::object())
{
    options.emplace("max_samples", 20);
    options.emplace("cooldown_ms", 50); // a noisy CPU timing is measured again after it
    return {{"candidate",
                {{"format", kPythonCandidateFormat}, {"name", candidate.toStdString()},
                    {"source", candidateSource(candidate)}}},
        {"problem", {{"name", "scale_stdlib"}}}, {"options", options}};
}

// The sandbox as this machine allows it, probed once (initTestCase).
SandboxStatus &sandbox()
{
    static SandboxStatus status;
    return status;
}

// Where the machine allows no sandbox, the runner tests still run, unsandboxed (the escapes' tests skip).
PythonSettings allowed(PythonSettings s)
{
    s.allowUnsandboxed = !sandbox().available;
    return s;
}

json run(const json &body)
{
    auto parsed = parsePythonJob(body, settings());
    if (auto *errors = std::get_if<std::vector<std::string>>(&parsed))
        return {{"status", "bad_request"}, {"message", errors->front()}};
    return runPythonJob(std::get<PythonJob>(parsed), allowed(settings()), PythonDevice {}, sandbox());
}

QString text(const json &j, const char *key) { return QString::fromStdString(j.value(key, std::string())); }

} // namespace

class TestPythonRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("python3 is not installed");
        sandbox() = probePythonSandbox(settings());
        if (!sandbox().available)
            qWarning("no sandbox here, the candidates run without one: %s", sandbox().reason.c_str());
    }

    void goodCandidate()
    {
        const json r = run(request(QStringLiteral("good")));
        QCOMPARE(text(r, "status"), QStringLiteral("ok"));
        QCOMPARE(text(r, "mode"), QStringLiteral("stdlib"));
        QCOMPARE(r["cases"].size(), std::size_t(2));
        for (const auto &c : r["cases"]) {
            QCOMPARE(QString::fromStdString(c["status"]), QStringLiteral("ok"));
            QVERIFY(c["correctness"]["checked"].get<bool>());
            QCOMPARE(c["correctness"]["runs"].get<int>(), 2);
            QCOMPARE(c["correctness"]["after_timing"]["fresh_inputs"]["mismatches"].get<int>(), 0);
            QVERIFY(c["timing"]["n"].get<int>() >= 3);
            QVERIFY(c["timing"]["n"].get<int>() <= 20);
            QCOMPARE(QString::fromStdString(c["timing"]["method"]), QStringLiteral("cpu_thread_time"));
            QCOMPARE(QString::fromStdString(c["call_timing"]["method"]), QStringLiteral("cpu_perf_counter_loop"));
            QCOMPARE(
                QString::fromStdString(c["call_timing"]["after_sync"]["method"]), QStringLiteral("cpu_perf_counter"));
            // No GPU, no kernel records: the device time stays the thread's CPU time and says why.
            QCOMPARE(QString::fromStdString(c["timing"]["kernel_records"]),
                QStringLiteral("no GPU in the standard-library mode"));
            QCOMPARE(QString::fromStdString(c["speedup_time"]), QStringLiteral("device"));
            QVERIFY(c["reference_timing"]["mean_us"].get<double>() > 0);
            QVERIFY(c["speedup"].get<double>() > 0);
        }
        QVERIFY(r["geomean_speedup"].get<double>() > 0);
        QCOMPARE(r["isolation"]["temp_dir"].get<std::string>(), std::string("own, removed afterwards"));
        QCOMPARE(r["isolation"]["exit"].get<std::string>(), std::string("exit code 0"));
    }

    void failureKinds_data()
    {
        QTest::addColumn<QString>("candidate");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("message");
        QTest::newRow("syntax") << "syntax_error"
                                << "compile_failed"
                                << "during parse: SyntaxError";
        QTest::newRow("import") << "import_error"
                                << "compile_failed"
                                << "ModuleNotFoundError";
        QTest::newRow("no entry") << "no_entry"
                                  << "compile_failed"
                                  << "no callable custom_kernel";
        QTest::newRow("raises") << "raises"
                                << "runtime_error"
                                << "ValueError: planted failure";
        QTest::newRow("wrong") << "wrong"
                               << "incorrect"
                               << "1 of 64 elements outside tolerance";
        QTest::newRow("returns input") << "returns_input"
                                       << "incorrect"
                                       << "returned_input";
        QTest::newRow("cached") << "cached"
                                << "incorrect"
                                << "cached_result";
        QTest::newRow("late cheat") << "late_cheat"
                                    << "incorrect"
                                    << "the last timed call";
        QTest::newRow("exits") << "exits"
                               << "runtime_error"
                               << "exit code 3";
        QTest::newRow("segfault") << "segfault"
                                  << "runtime_error"
                                  << "signal 11";
    }
    void failureKinds()
    {
        QFETCH(QString, candidate);
        QFETCH(QString, status);
        QFETCH(QString, message);
        const json r = run(request(candidate));
        QCOMPARE(text(r, "status"), status);
        QVERIFY2(text(r, "message").contains(message), qPrintable(text(r, "message")));
        if (status == QLatin1String("runtime_error") || status == QLatin1String("compile_failed")) {
            QVERIFY(r.contains("error"));
            QVERIFY(r["error"].contains("type"));
            QVERIFY(r["error"].contains("traceback"));
        }
        if (status == QLatin1String("incorrect")) {
            const json &c = r["cases"][0];
            QVERIFY(!c.contains("timing")); // a wrong candidate's figure is never reported
            QCOMPARE(QString::fromStdString(c["status"]), status);
        }
    }

    void incorrectSaysWhere()
    {
        const json r = run(request(QStringLiteral("wrong")));
        const json &leaf = r["cases"][0]["correctness"]["outputs"][0];
        QCOMPARE(leaf["output"].get<std::string>(), std::string("out"));
        QCOMPARE(leaf["mismatches"].get<int>(), 1);
        QCOMPARE(leaf["where"][0].get<int>(), 7);
        QVERIFY(qAbs(leaf["max_abs_error"].get<double>() - 1e-3) < 1e-9);
        QVERIFY(leaf["max_rel_error"].get<double>() > 0);
    }

    void wallClockLimit()
    {
        const json r = run(request(QStringLiteral("hang"), {{"timeout_ms", 1500}}));
        QCOMPARE(text(r, "status"), QStringLiteral("timeout"));
        QVERIFY2(text(r, "message").contains(QStringLiteral("correctness case n64")), qPrintable(text(r, "message")));
        QVERIFY(r["isolation"]["exit"].get<std::string>().find("signal 9") != std::string::npos);
    }

    void memoryLimit()
    {
        const json r = run(request(QStringLiteral("memory_hog"), {{"memory_limit_mb", 200}}));
        QCOMPARE(text(r, "status"), QStringLiteral("runtime_error"));
        const QString type = QString::fromStdString(r["error"]["type"].get<std::string>());
        QVERIFY2(
            type == QLatin1String("MemoryError") || type == QLatin1String("MemoryLimitExceeded"), qPrintable(type));
        QVERIFY(r["isolation"]["peak_rss_mb"].get<double>() < 400);
    }

    void ownTemporaryDirectory()
    {
        const json r = run(request(QStringLiteral("temp_dir_probe")));
        QVERIFY2(text(r, "status") == QLatin1String("ok"), qPrintable(text(r, "message")));
    }

    void networkIsolation()
    {
        // The test listens on the host's loopback; a candidate in its own network namespace cannot reach it.
        const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        QVERIFY(listener >= 0);
        QVERIFY(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
        QVERIFY(::listen(listener, 4) == 0);
        QVERIFY(::getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length) == 0);
        json probe = request(QStringLiteral("network_probe"));
        std::string &source = probe["candidate"]["source"].get_ref<std::string &>();
        for (std::size_t at; (at = source.find("@PORT@")) != std::string::npos;)
            source.replace(at, 6, std::to_string(ntohs(address.sin_port)));
        const json isolated = run(probe);
        probe["options"]["network"] = "allow";
        const json open = run(probe);
        ::close(listener);
        const QString network = QString::fromStdString(isolated["isolation"]["network"].get<std::string>());
        if (network.startsWith(QLatin1String("not isolated")))
            QSKIP(qPrintable(QStringLiteral("this machine allows no network namespace: ") + network));
        QVERIFY2(text(isolated, "status") == QLatin1String("ok"), qPrintable(text(isolated, "message")));
        QCOMPARE(text(open, "status"), QStringLiteral("runtime_error"));
        QVERIFY(text(open, "message").contains(QStringLiteral("network reachable")));
        QVERIFY(open["isolation"]["network"].get<std::string>().find("not requested") != std::string::npos);
    }

    void candidateOutputIsKeptApart()
    {
        const json r = run(request(QStringLiteral("prints")));
        QCOMPARE(text(r, "status"), QStringLiteral("ok")); // its prints did not disturb the result
        const json failing = run(request(QStringLiteral("raises")));
        QVERIFY(failing.value("log_tail", std::string()).size() < 5000);
    }

    void implausibleBelowFloor()
    {
        // A peak bandwidth of 1 kB/s makes every real time look faster than the floor: flagged, not a record.
        const json r = run(request(QStringLiteral("good"), {{"peak_bandwidth_gbs", 1e-6}}));
        QCOMPARE(text(r, "status"), QStringLiteral("ok"));
        QVERIFY(r["cases"][0]["implausible"].get<bool>());
        QVERIFY(r["cases"][0]["floor_us"].get<double>() > r["cases"][0]["timing"]["mean_us"].get<double>());
        QCOMPARE(r["implausible_cases"].size(), std::size_t(2));
        const json fine = run(request(QStringLiteral("good"), {{"peak_bandwidth_gbs", 1e6}}));
        QVERIFY(!fine["cases"][0]["implausible"].get<bool>());
    }

    void stopRuleAndCases()
    {
        const json r = run(request(QStringLiteral("good"),
            {{"cases", {"n512"}}, {"min_samples", 5}, {"max_samples", 5}, {"time_reference", false}}));
        QCOMPARE(r["cases"].size(), std::size_t(1));
        QCOMPARE(r["cases"][0]["timing"]["n"].get<int>(), 5);
        QCOMPARE(r["cases"][0]["timing"]["stop_reason"].get<std::string>(), std::string("max_samples"));
        QVERIFY(!r["cases"][0].contains("reference_timing"));
    }

    // The sampling options reach the harness: every sample kept, the collector paused, the median's speedup beside
    // the mean's (a mean inflated by a few slow samples shows as a gap between the two).
    void samplesAndMedians()
    {
        const json r = run(request(QStringLiteral("good"),
            {{"cases", {"n512"}}, {"min_samples", 6}, {"max_samples", 6}, {"keep_samples", true}, {"disable_gc", true},
                {"launch_guard_us", 50}}));
        QCOMPARE(text(r, "status"), QStringLiteral("ok"));
        const json &c = r["cases"][0];
        QCOMPARE(c["timing"]["samples_us"].size(), std::size_t(6));
        QVERIFY(c["timing"]["gc_disabled"].get<bool>());
        QCOMPARE(c["timing"]["launch_guard_us"].get<double>(), 50.0);
        QVERIFY(!c["reference_timing"].contains("samples_us") || c["reference_timing"]["samples_us"].size() == 6);
        QCOMPARE(c["speedup_median"].get<double>(),
            c["reference_timing"]["median_us"].get<double>() / c["timing"]["median_us"].get<double>());
        QCOMPARE(r["geomean_speedup_median"].get<double>(), c["speedup_median"].get<double>());
        const json plain = run(request(QStringLiteral("good"), {{"cases", {"n512"}}}));
        QVERIFY(!plain["cases"][0]["timing"].contains("samples_us"));
        QVERIFY(plain["cases"][0]["timing"]["gc_disabled"].get<bool>());
    }

    // Both figures of every call, the candidate's and the reference's: device time (the stdlib's thread CPU time)
    // and call time (wall clock, do_bench's loop, single calls beside it); a candidate that sleeps 3 ms on the host
    // is launch-bound by about that much, and the one that does not is not.
    void deviceAndCallTime()
    {
        const json options = {{"cases", {"n512"}}, {"cooldown_ms", 0}, {"launch_bound_margin", 0.5}};
        const json r = run(request(QStringLiteral("host_sleep"), options));
        QCOMPARE(text(r, "status"), QStringLiteral("ok"));
        QCOMPARE(r["launch_bound_margin"].get<double>(), 0.5);
        const json &c = r["cases"][0];
        for (const char *key : {"timing", "call_timing", "reference_timing", "reference_call_timing"})
            QVERIFY2(c[key]["median_us"].get<double>() > 0, key);
        QCOMPARE(QString::fromStdString(c["call_timing"]["kind"]), QStringLiteral("call"));
        QCOMPARE(QString::fromStdString(c["call_timing"]["stop_reason"]), QStringLiteral("call_rep_ms"));
        // do_bench's 100 ms of repetitions at 3 ms or more a call: 34 at most (sleeps overrun, never underrun)
        QVERIFY(c["call_timing"]["n"].get<int>() >= 5);
        QVERIFY(c["call_timing"]["n"].get<int>() <= 34);
        QVERIFY(c["call_timing"]["after_sync"]["median_us"].get<double>() >= 3000.0);
        QVERIFY(c["call_timing"]["median_us"].get<double>() >= 3000.0);
        QVERIFY2(c["timing"]["median_us"].get<double>() < 1500.0, c["timing"].dump().c_str());
        QVERIFY(c["launch_bound"].get<bool>());
        const double overhead = c["host_overhead_us"].get<double>();
        QVERIFY2(overhead > 2500.0 && overhead < 100000.0, std::to_string(overhead).c_str());
        QVERIFY(r["launch_bound_cases"] == json::array({"n512"}));
        // The speedup is device time's (scale_stdlib names no SPEEDUP_TIME and is no paper task); both are given.
        QCOMPARE(c["speedup"].get<double>(), c["speedups"]["device"]["mean"].get<double>());
        QVERIFY(c["speedups"]["call"]["median"].get<double>() < c["speedups"]["device"]["median"].get<double>());
        // The reference and a candidate that does not sleep pay no such host time. Compared in microseconds, not
        // through their flags: on a loaded machine (ctest -j2 on two cores) a few-microsecond stdlib call's wall time
        // can exceed its CPU time by the margin through preemption alone.
        const auto gap = [](const json &call, const json &device) {
            return call["median_us"].get<double>() - device["median_us"].get<double>();
        };
        const double referenceGap = gap(c["reference_call_timing"], c["reference_timing"]);
        QVERIFY2(referenceGap < overhead - 2000.0, std::to_string(referenceGap).c_str());

        const json good = run(request(QStringLiteral("good"), options));
        const json &g = good["cases"][0];
        const double goodGap = gap(g["call_timing"], g["timing"]);
        QVERIFY2(goodGap < overhead - 2000.0, std::to_string(goodGap).c_str());
        const json off = run(request(QStringLiteral("good"), {{"cases", {"n512"}}, {"call_time", false}}));
        QVERIFY(!off["cases"][0].contains("call_timing"));
        QVERIFY(!off["cases"][0].contains("launch_bound"));
    }

    // SPEEDUP_TIME in problem.py picks the figure of `speedup`; a value other than device or call is refused.
    void speedupTimeOfTheProblem()
    {
        json body = request(QStringLiteral("host_sleep"), {{"cases", {"n64"}}, {"cooldown_ms", 0}});
        body["problem"] = {{"name", "scale_stdlib_call"}};
        const json r = run(body);
        QCOMPARE(text(r, "status"), QStringLiteral("ok"));
        QCOMPARE(text(r, "speedup_time"), QStringLiteral("call"));
        const json &c = r["cases"][0];
        QCOMPARE(QString::fromStdString(c["speedup_time"]), QStringLiteral("call"));
        QCOMPARE(c["speedup"].get<double>(), c["speedups"]["call"]["mean"].get<double>());
        QCOMPARE(c["speedup_median"].get<double>(), c["speedups"]["call"]["median"].get<double>());
        QCOMPARE(r["geomean_speedup"].get<double>(), r["geomean_speedups"]["call"]["mean"].get<double>());
        body["options"]["call_time"] = false; // not measured: device time, and the result says why
        const json off = run(body);
        QCOMPARE(text(off, "speedup_time"), QStringLiteral("device"));
        QVERIFY(text(off, "speedup_time_note").contains(QStringLiteral("call time was not measured")));
        body["problem"] = {{"name", "scale_stdlib_badtime"}};
        const json bad = run(body);
        QCOMPARE(text(bad, "status"), QStringLiteral("infrastructure_failure"));
        QVERIFY2(text(bad, "message").contains(QStringLiteral("SPEEDUP_TIME must be 'device' or 'call', not 'wall'")),
            qPrintable(text(bad, "message")));
    }

    // A timing whose error stays above the noise target after the stop rule is measured once more after the
    // cool-down and marked noisy when it still is: a noise target of 0 can never be met.
    void noisyTimingIsMeasuredAgain()
    {
        const json r = run(request(QStringLiteral("good"),
            {{"cases", {"n64"}}, {"min_samples", 4}, {"max_samples", 4}, {"target_rse", 0}, {"noise_rse", 0},
                {"cooldown_ms", 20}, {"call_time", false}, {"time_reference", false}}));
        QCOMPARE(text(r, "status"), QStringLiteral("ok"));
        const json &t = r["cases"][0]["timing"];
        QCOMPARE(t["remeasured"]["after_cooldown_ms"].get<double>(), 20.0);
        QCOMPARE(t["remeasured"]["first"]["n"].get<int>(), 4);
        QVERIFY(t["noisy"].get<bool>());
        QVERIFY(r["cases"][0]["noisy"] == json::array({"timing"}));
        QVERIFY(r["noisy_cases"] == json::array({"n64"}));
        const json calm = run(request(QStringLiteral("good"),
            {{"cases", {"n64"}}, {"noise_rse", 1}, {"call_time", false}, {"time_reference", false}}));
        QVERIFY(!calm["cases"][0]["timing"]["noisy"].get<bool>());
        QVERIFY(!calm["cases"][0]["timing"].contains("remeasured"));
    }

    void badRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error");
        const std::string src = "def custom_kernel(d): return d";
        auto body = [&](json candidate, json problem, json options) {
            json b = {{"candidate", candidate}, {"problem", problem}, {"options", options}};
            return QByteArray::fromStdString(b.dump());
        };
        const json cand = {{"format", kPythonCandidateFormat}, {"source", src}};
        const json prob = {{"name", "scale_stdlib"}};
        QTest::newRow("no source") << body({{"format", kPythonCandidateFormat}}, prob, json::object())
                                   << "candidate.source: required";
        QTest::newRow("no problem") << body(cand, nullptr, json::object()) << "problem: required";
        QTest::newRow("unknown problem") << body(cand, {{"name", "nope"}}, json::object()) << "no problem.py in";
        QTest::newRow("bad name") << body(cand, {{"name", "../etc"}}, json::object()) << "problem.name: expected";
        QTest::newRow("unknown option") << body(cand, prob, {{"warmpu", 1}}) << "options.warmpu: unknown option";
        QTest::newRow("bad timeout") << body(cand, prob, {{"timeout_ms", "long"}}) << "options.timeout_ms: expected";
        QTest::newRow("bad network") << body(cand, prob, {{"network", "off"}}) << "options.network: expected";
        QTest::newRow("bad samples") << body(cand, prob, {{"min_samples", 10}, {"max_samples", 5}})
                                     << "options.max_samples: must be >= min_samples";
        QTest::newRow("bad cases") << body(cand, prob, {{"cases", "n64"}}) << "options.cases: expected an array";
        QTest::newRow("bad guard") << body(cand, prob, {{"launch_guard_us", -1}}) << "options.launch_guard_us: out of";
        QTest::newRow("bad call_time") << body(cand, prob, {{"call_time", "yes"}})
                                       << "options.call_time: expected true or false";
        QTest::newRow("bad margin") << body(cand, prob, {{"launch_bound_margin", -0.1}})
                                    << "options.launch_bound_margin: out of";
        QTest::newRow("bad cooldown") << body(cand, prob, {{"cooldown_ms", "1s"}}) << "options.cooldown_ms: expected";
        QTest::newRow("bad keep_samples")
            << body(cand, prob, {{"keep_samples", 1}}) << "options.keep_samples: expected true or false";
        QTest::newRow("unknown field") << body(json {{"format", kPythonCandidateFormat}, {"source", src}, {"x", 1}},
            prob, json::object()) << "candidate.x: unknown field";
    }
    void badRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        const json r = run(json::parse(body.toStdString()));
        QCOMPARE(text(r, "status"), QStringLiteral("bad_request"));
        QVERIFY2(text(r, "message").contains(error), qPrintable(text(r, "message")));
    }

    void unknownCaseIsReported()
    {
        const json r = run(request(QStringLiteral("good"), {{"cases", {"n9"}}}));
        QCOMPARE(text(r, "status"), QStringLiteral("bad_request"));
        QVERIFY(text(r, "message").contains(QStringLiteral("no case named 'n9'")));
    }

    void missingInterpreter()
    {
        PythonSettings s = settings();
        s.interpreter = "/nonexistent/python3";
        auto parsed = parsePythonJob(request(QStringLiteral("good")), s);
        const json r = runPythonJob(std::get<PythonJob>(parsed), allowed(s), PythonDevice {}, sandbox());
        QCOMPARE(text(r, "status"), QStringLiteral("infrastructure_failure"));
        QVERIFY(text(r, "message").contains(QStringLiteral("could not start the Python interpreter")));
    }

    void harnessMissing()
    {
        PythonSettings s = settings();
        s.harnessDir = "/nonexistent";
        auto parsed = parsePythonJob(request(QStringLiteral("good")), s);
        const json r = runPythonJob(std::get<PythonJob>(parsed), allowed(s), PythonDevice {}, sandbox());
        QCOMPARE(text(r, "status"), QStringLiteral("infrastructure_failure"));
        QVERIFY2(text(r, "message").contains(QStringLiteral("harness did not start")), qPrintable(text(r, "message")));
    }

    void problemWithoutTorchFailsHonestly()
    {
        // A PyTorch problem on a machine without PyTorch (or without a GPU) is the machine's failure, not the
        // candidate's: infrastructure_failure with the reason.
        PythonSettings s = settings();
        s.problemsDir = GPUF_SOURCE_DIR "/resources/problems";
        json body = request(QStringLiteral("good"));
        body["problem"] = {{"name", "row_softmax_triton"}};
        auto parsed = parsePythonJob(body, s);
        QVERIFY(std::holds_alternative<PythonJob>(parsed));
        const json r = runPythonJob(std::get<PythonJob>(parsed), allowed(s), PythonDevice {}, sandbox());
        if (text(r, "status") == QLatin1String("ok"))
            QSKIP("this machine has PyTorch with a GPU");
        QCOMPARE(text(r, "status"), QStringLiteral("infrastructure_failure"));
        QVERIFY(text(r, "message").contains(QStringLiteral("could not load the problem or its backend")));
    }
};

QTEST_GUILESS_MAIN(TestPythonRunner)
#include "tst_python_runner.moc"
