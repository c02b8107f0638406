// Protocol round trips against the real gpuf-measure process: --version, hello (with or without a GPU),
// malformed requests, and NVRTC compiles for an explicit arch with the cubin cache. No GPU needed.
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLibrary>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kBinary = QStringLiteral(GPUF_MEASURE_BINARY);

QJsonObject requests()
{
    QFile f(QStringLiteral(GPUF_WORKER_DATA_DIR "/worker_requests.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QByteArray compact(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

QJsonObject askOn(QProcess &worker, const QByteArray &line)
{
    worker.write(line + '\n');
    while (!worker.canReadLine()) {
        if (!worker.waitForReadyRead(60000))
            return {};
    }
    return QJsonDocument::fromJson(worker.readLine()).object();
}

// A measure request for the Python candidate `file` (data/python/…) on the standard-library problem.
QByteArray pythonRequest(const QString &id, const QString &file)
{
    QFile source(QStringLiteral(GPUF_WORKER_DATA_DIR "/python/") + file);
    if (!source.open(QIODevice::ReadOnly))
        return {};
    return compact(QJsonObject {{QStringLiteral("id"), id}, {QStringLiteral("type"), QStringLiteral("measure")},
        {QStringLiteral("candidate"),
            QJsonObject {{QStringLiteral("format"), QStringLiteral("gpuf-python/1")},
                {QStringLiteral("source"), QString::fromUtf8(source.readAll())}}},
        {QStringLiteral("problem"),
            QJsonObject {{QStringLiteral("dir"), QStringLiteral(GPUF_WORKER_DATA_DIR "/python/scale_stdlib")}}},
        {QStringLiteral("options"), QJsonObject {{QStringLiteral("max_samples"), 5}}}});
}

QJsonObject sandboxOf(const QJsonObject &hello)
{
    return hello.value(QLatin1StringView("python")).toObject().value(QLatin1StringView("sandbox")).toObject();
}

} // namespace

class TestMeasureWorker : public QObject
{
    Q_OBJECT

private:
    QProcess m_worker;
    QTemporaryDir m_cache;

    QJsonObject ask(const QByteArray &line) { return askOn(m_worker, line); }

private Q_SLOTS:
    void initTestCase()
    {
        if (kBinary.isEmpty())
            QSKIP("gpuf-measure is not built (no CUDA toolkit at configure time)");
        QVERIFY(m_cache.isValid());
        m_worker.start(kBinary, {QStringLiteral("--cache-dir"), m_cache.path()});
        QVERIFY(m_worker.waitForStarted());
    }
    void cleanupTestCase()
    {
        if (m_worker.state() == QProcess::Running) {
            m_worker.write("{\"id\":0,\"type\":\"shutdown\"}\n");
            m_worker.closeWriteChannel();
            QVERIFY(m_worker.waitForFinished(10000));
            QCOMPARE(m_worker.exitCode(), 0);
        }
    }

    void version()
    {
        QProcess p;
        p.start(kBinary, {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().startsWith("gpuf-measure "));
    }

    void hello()
    {
        const QJsonObject r = ask("{\"id\":\"h1\",\"type\":\"hello\"}");
        QCOMPARE(r.value(QLatin1StringView("id")).toString(), QStringLiteral("h1"));
        QCOMPARE(r.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(r.value(QLatin1StringView("protocol")).toString(), QStringLiteral("gpuf-measure/1"));
        QVERIFY(!r.value(QLatin1StringView("nvrtc_version")).toString().isEmpty());
        QLibrary driver(QStringLiteral("cuda"), 1);
        if (!driver.load()) {
            // This machine has no driver: hello still answers, and says exactly why there is no GPU.
            QCOMPARE(r.value(QLatin1StringView("gpu_available")).toBool(), false);
            QVERIFY(r.value(QLatin1StringView("gpu_unavailable_reason"))
                        .toString()
                        .startsWith(QStringLiteral("no NVIDIA driver found")));
            QVERIFY(r.value(QLatin1StringView("devices")).toArray().isEmpty());
        } else if (!r.value(QLatin1StringView("gpu_available")).toBool()) {
            QVERIFY(!r.value(QLatin1StringView("gpu_unavailable_reason")).toString().isEmpty());
        }
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QJsonValue>("id");
        QTest::addColumn<QString>("error");
        const QJsonArray rows = requests().value(QLatin1StringView("malformed")).toArray();
        QVERIFY(rows.size() >= 10);
        for (const QJsonValue v : rows) {
            const QJsonObject row = v.toObject();
            QTest::newRow(qPrintable(row.value(QLatin1StringView("name")).toString()))
                << row.value(QLatin1StringView("line")).toString().toUtf8() << row.value(QLatin1StringView("id"))
                << row.value(QLatin1StringView("error")).toString();
        }
    }
    void malformed()
    {
        QFETCH(QByteArray, line);
        QFETCH(QJsonValue, id);
        QFETCH(QString, error);
        const QJsonObject r = ask(line);
        QCOMPARE(r.value(QLatin1StringView("status")).toString(), QStringLiteral("bad_request"));
        QCOMPARE(r.value(QLatin1StringView("id")), id);
        QString all;
        for (const QJsonValue e : r.value(QLatin1StringView("errors")).toArray())
            all += e.toString() + QLatin1Char('\n');
        QVERIFY2(all.contains(error), qPrintable(all));
        QCOMPARE(m_worker.state(), QProcess::Running); // never a crash
    }

    void pythonCandidateThroughTheWorker()
    {
        // A gpuf-python/1 candidate on a standard-library problem: the worker starts the harness in a fresh
        // interpreter and answers with the same envelope; a failing candidate leaves the worker running.
        QFile good(QStringLiteral(GPUF_WORKER_DATA_DIR "/python/candidates/good.py"));
        QFile bad(QStringLiteral(GPUF_WORKER_DATA_DIR "/python/candidates/segfault.py"));
        QVERIFY(good.open(QIODevice::ReadOnly) && bad.open(QIODevice::ReadOnly));
        const QString dir = QStringLiteral(GPUF_WORKER_DATA_DIR "/python/scale_stdlib");
        auto request = [&](const QString &id, const QByteArray &source) {
            return compact(QJsonObject {{QStringLiteral("id"), id}, {QStringLiteral("type"), QStringLiteral("measure")},
                {QStringLiteral("candidate"),
                    QJsonObject {{QStringLiteral("format"), QStringLiteral("gpuf-python/1")},
                        {QStringLiteral("source"), QString::fromUtf8(source)}}},
                {QStringLiteral("problem"), QJsonObject {{QStringLiteral("dir"), dir}}},
                {QStringLiteral("options"), QJsonObject {{QStringLiteral("max_samples"), 5}}}});
        };
        const QJsonObject ok = ask(request(QStringLiteral("p1"), good.readAll()));
        QCOMPARE(ok.value(QLatin1StringView("id")).toString(), QStringLiteral("p1"));
        QCOMPARE(ok.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(ok.value(QLatin1StringView("cases")).toArray().size(), 2);
        QCOMPARE(ok.value(QLatin1StringView("provenance")).toObject().value(QLatin1StringView("language")).toString(),
            QStringLiteral("python"));
        QCOMPARE(ok.value(QLatin1StringView("restart_required")).toBool(true), false);
        const QJsonObject crashed = ask(request(QStringLiteral("p2"), bad.readAll()));
        QCOMPARE(crashed.value(QLatin1StringView("status")).toString(), QStringLiteral("runtime_error"));
        QCOMPARE(m_worker.state(), QProcess::Running); // the candidate's crash was its own process's
        const QJsonObject hello = ask("{\"id\":\"h2\",\"type\":\"hello\"}");
        QVERIFY(!hello.value(QLatin1StringView("python"))
                     .toObject()
                     .value(QLatin1StringView("harness_dir"))
                     .toString()
                     .isEmpty());
    }

    // A candidate that kills the process that started its interpreter meets the sandbox's init instead: the worker
    // answers, and answers the next request.
    void pythonCandidateCannotKillTheWorker()
    {
        const QJsonObject hello = ask("{\"id\":\"h3\",\"type\":\"hello\"}");
        if (!sandboxOf(hello).value(QLatin1StringView("available")).toBool())
            QSKIP(qPrintable(QStringLiteral("the sandbox cannot be made here: ")
                + sandboxOf(hello).value(QLatin1StringView("reason")).toString()));
        const QJsonObject r = ask(pythonRequest(QStringLiteral("k1"), QStringLiteral("escapes/kill_parent.py")));
        QCOMPARE(r.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(m_worker.state(), QProcess::Running);
        QCOMPARE(
            ask("{\"id\":\"h4\",\"type\":\"hello\"}").value(QLatin1StringView("id")).toString(), QStringLiteral("h4"));
    }

    // Where bwrap cannot run, hello says so once and Python candidates are refused with the reason, unless the
    // worker was started with --unsandboxed.
    void pythonRefusedWithoutSandbox()
    {
        QProcess strict;
        strict.start(
            kBinary, {QStringLiteral("--no-cache"), QStringLiteral("--bwrap"), QStringLiteral("/nonexistent/bwrap")});
        QVERIFY(strict.waitForStarted());
        const QJsonObject sandbox = sandboxOf(askOn(strict, "{\"id\":\"h\",\"type\":\"hello\"}"));
        QCOMPARE(sandbox.value(QLatin1StringView("available")).toBool(true), false);
        QVERIFY(sandbox.value(QLatin1StringView("refusal")).toString().contains(QStringLiteral("install bubblewrap")));
        const QJsonObject refused
            = askOn(strict, pythonRequest(QStringLiteral("r1"), QStringLiteral("candidates/good.py")));
        QCOMPARE(refused.value(QLatin1StringView("status")).toString(), QStringLiteral("infrastructure_failure"));
        QVERIFY(refused.value(QLatin1StringView("message"))
                    .toString()
                    .startsWith(QStringLiteral("the sandbox for Python candidates could not be made: could not start "
                                               "'/nonexistent/bwrap'")));
        strict.closeWriteChannel();
        QVERIFY(strict.waitForFinished(10000));

        QProcess allowed;
        allowed.start(kBinary,
            {QStringLiteral("--no-cache"), QStringLiteral("--bwrap"), QStringLiteral("/nonexistent/bwrap"),
                QStringLiteral("--unsandboxed")});
        QVERIFY(allowed.waitForStarted());
        const QJsonObject ran
            = askOn(allowed, pythonRequest(QStringLiteral("r2"), QStringLiteral("candidates/good.py")));
        QCOMPARE(ran.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        QVERIFY(ran.value(QLatin1StringView("isolation"))
                    .toObject()
                    .value(QLatin1StringView("sandbox"))
                    .toString()
                    .startsWith(QStringLiteral("none, allowed by --unsandboxed")));
        allowed.closeWriteChannel();
        QVERIFY(allowed.waitForFinished(10000));
    }

    void compileWithArchAndCache()
    {
        QJsonObject compile {{QStringLiteral("id"), QStringLiteral("c1")},
            {QStringLiteral("type"), QStringLiteral("compile")}, {QStringLiteral("arch"), QStringLiteral("sm_90")},
            {QStringLiteral("spec"), requests().value(QLatin1StringView("compile_ok"))}};
        const QByteArray request = compact(compile);
        const QJsonObject first = ask(request);
        QCOMPARE(first.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        const QJsonObject c1 = first.value(QLatin1StringView("compile")).toObject();
        QCOMPARE(c1.value(QLatin1StringView("arch")).toString(), QStringLiteral("sm_90"));
        const QJsonArray kernels = c1.value(QLatin1StringView("kernels")).toArray();
        QCOMPARE(kernels.size(), 1);
        QCOMPARE(kernels[0].toObject().value(QLatin1StringView("entry")).toString(), QStringLiteral("scale"));
        QVERIFY(kernels[0].toObject().value(QLatin1StringView("registers")).toInt() > 0);
        QCOMPARE(kernels[0].toObject().value(QLatin1StringView("spill_store_bytes")).toInt(), 0);

        const QJsonObject second = ask(request);
        const QJsonObject c2 = second.value(QLatin1StringView("compile")).toObject();
        QCOMPARE(second.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        QVERIFY(c2.value(QLatin1StringView("cache_hit")).toBool());
        QCOMPARE(c2.value(QLatin1StringView("cache_key")), c1.value(QLatin1StringView("cache_key")));
        const double ms = c2.value(QLatin1StringView("compile_ms")).toDouble();
        QVERIFY2(ms < 5.0, qPrintable(QStringLiteral("cached compile took %1 ms").arg(ms)));
        QCOMPARE(c2.value(QLatin1StringView("kernels")).toArray(), kernels);

        // The binary's hash (the evidence's "Binary hash") is the SHA-256 of the cubin the worker keeps and loads,
        // computed here a second way; a cache hit reports the same binary.
        QFile cubin(m_cache.filePath(c1.value(QLatin1StringView("cache_key")).toString() + QStringLiteral(".cubin")));
        QVERIFY2(cubin.open(QIODevice::ReadOnly), qPrintable(cubin.fileName()));
        const QString sha
            = QString::fromLatin1(QCryptographicHash::hash(cubin.readAll(), QCryptographicHash::Sha256).toHex());
        QCOMPARE(c1.value(QLatin1StringView("binary_sha256")).toString(), sha);
        QCOMPARE(c2.value(QLatin1StringView("binary_sha256")).toString(), sha);

        // Another architecture is another cache entry.
        compile.insert(QStringLiteral("arch"), QStringLiteral("sm_80"));
        const QJsonObject c3 = ask(compact(compile)).value(QLatin1StringView("compile")).toObject();
        QVERIFY(!c3.value(QLatin1StringView("cache_hit")).toBool());
        QVERIFY(c3.value(QLatin1StringView("cache_key")) != c1.value(QLatin1StringView("cache_key")));
    }

    void compileReportsPtxMix()
    {
        // 16-byte loads, a shuffle, a barrier and an atomic: each shows up in the instruction mix asked for.
        const QString source = QStringLiteral(R"(extern "C" __global__ void mix(const float4* x, float* out)
{
    __shared__ float s[32];
    float4 v = x[threadIdx.x];
    float t = v.x + v.y + v.z + v.w;
    t += __shfl_down_sync(0xffffffffu, t, 16);
    s[threadIdx.x % 32] = t;
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(out, s[1]);
})");
        const QJsonObject spec {{QStringLiteral("format"), QStringLiteral("gpuf-kernel/1")},
            {QStringLiteral("name"), QStringLiteral("t/mix")}, {QStringLiteral("source"), source},
            {QStringLiteral("launches"), QJsonArray {QJsonObject {{QStringLiteral("entry"), QStringLiteral("mix")}}}}};
        QJsonObject compile {{QStringLiteral("id"), QStringLiteral("p1")},
            {QStringLiteral("type"), QStringLiteral("compile")}, {QStringLiteral("arch"), QStringLiteral("sm_90")},
            {QStringLiteral("spec"), spec}, {QStringLiteral("ptx_mix"), true}};
        const QJsonObject r = ask(compact(compile));
        QCOMPARE(r.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        const QJsonObject mix
            = r.value(QLatin1StringView("compile")).toObject().value(QLatin1StringView("ptx_mix")).toObject();
        const auto count = [&mix](const char *key) { return mix.value(QLatin1StringView(key)).toInt(-1); };
        QVERIFY2(count("ld_global_v4") >= 1, qPrintable(QString::fromUtf8(compact(mix))));
        QVERIFY(count("ld_global") >= count("ld_global_v4"));
        QVERIFY(count("shfl") >= 1);
        QVERIFY(count("bar_sync") >= 1);
        QVERIFY(count("atomics") >= 1);
        QCOMPARE(count("mma"), 0);
        QVERIFY(count("instructions") > count("ld_global") + count("shfl") + count("bar_sync") + count("atomics"));
        // Asked again: the same mix, now from the cache.
        const QJsonObject again = ask(compact(compile)).value(QLatin1StringView("compile")).toObject();
        QVERIFY(again.value(QLatin1StringView("cache_hit")).toBool());
        QCOMPARE(again.value(QLatin1StringView("ptx_mix")).toObject(), mix);
        // Not asked: not there (the field is additive).
        compile.remove(QStringLiteral("ptx_mix"));
        QVERIFY(!ask(compact(compile))
                     .value(QLatin1StringView("compile"))
                     .toObject()
                     .contains(QLatin1StringView("ptx_mix")));
        compile.insert(QStringLiteral("ptx_mix"), QStringLiteral("yes"));
        const QJsonObject bad = ask(compact(compile));
        QCOMPARE(bad.value(QLatin1StringView("status")).toString(), QStringLiteral("bad_request"));
        QVERIFY(bad.value(QLatin1StringView("message")).toString().contains(QLatin1StringView("ptx_mix")));
    }

    void compileErrorReturnsLog()
    {
        const QJsonObject r = ask(compact({{QStringLiteral("id"), QStringLiteral("e1")},
            {QStringLiteral("type"), QStringLiteral("compile")}, {QStringLiteral("arch"), QStringLiteral("sm_90")},
            {QStringLiteral("spec"), requests().value(QLatin1StringView("compile_broken"))}}));
        QCOMPARE(r.value(QLatin1StringView("status")).toString(), QStringLiteral("compile_failed"));
        const QString log = r.value(QLatin1StringView("compile")).toObject().value(QLatin1StringView("log")).toString();
        QVERIFY2(
            log.contains(QStringLiteral("undefined_symbol")) && log.contains(QStringLiteral("error")), qPrintable(log));
    }

    // A compile request whose spec has `source` and one launch per entry.
    QJsonObject compileRequest(const QString &id, const QString &source, const QStringList &entries)
    {
        QJsonArray launches;
        for (const QString &e : entries)
            launches.append(QJsonObject {{QStringLiteral("entry"), e}});
        const QJsonObject spec {{QStringLiteral("format"), QStringLiteral("gpuf-kernel/1")},
            {QStringLiteral("name"), QStringLiteral("sgemm/v1")}, {QStringLiteral("source"), source},
            {QStringLiteral("launches"), launches}};
        return ask(compact({{QStringLiteral("id"), id}, {QStringLiteral("type"), QStringLiteral("compile")},
            {QStringLiteral("arch"), QStringLiteral("sm_90")}, {QStringLiteral("spec"), spec}}));
    }

    // Entry points as C++ names and template instantiations: NVRTC name expressions find their mangled symbols, and
    // the compile reports each entry's resources under the name the spec gave.
    void compileTemplateAndCppEntries()
    {
        const QString source = QStringLiteral(
            "template <int BM, int BN> __global__ void sgemm(float *c, int n) { if (threadIdx.x < n) c[threadIdx.x] "
            "= BM * BN; }\n"
            "namespace ops { __global__ void scale(float *y, float a) { y[threadIdx.x] *= a; } }\n"
            "extern \"C\" __global__ void plain(float *y) { y[threadIdx.x] = 0.0f; }\n");
        const QStringList entries {
            QStringLiteral("sgemm<64, 32>"), QStringLiteral("ops::scale"), QStringLiteral("plain")};
        const QJsonObject r = compileRequest(QStringLiteral("t1"), source, entries);
        QCOMPARE(r.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        const QJsonObject compile = r.value(QLatin1StringView("compile")).toObject();
        const QJsonObject lowered = compile.value(QLatin1StringView("lowered_names")).toObject();
        QCOMPARE(
            lowered.value(QLatin1StringView("sgemm<64, 32>")).toString(), QStringLiteral("_Z5sgemmILi64ELi32EEvPfi"));
        QCOMPARE(lowered.value(QLatin1StringView("ops::scale")).toString(), QStringLiteral("_ZN3ops5scaleEPff"));
        QCOMPARE(lowered.value(QLatin1StringView("plain")).toString(), QStringLiteral("plain"));
        QStringList reported;
        for (const QJsonValue k : compile.value(QLatin1StringView("kernels")).toArray())
            reported << k.toObject().value(QLatin1StringView("entry")).toString();
        reported.sort();
        QCOMPARE(reported,
            (QStringList {QStringLiteral("ops::scale"), QStringLiteral("plain"), QStringLiteral("sgemm<64, 32>")}));

        // Another instantiation of the same source is another cubin; the same one again is a cache hit.
        const QJsonObject other = compileRequest(QStringLiteral("t2"), source, {QStringLiteral("sgemm<128, 8>")});
        QCOMPARE(other.value(QLatin1StringView("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(
            other.value(QLatin1StringView("compile")).toObject().value(QLatin1StringView("cache_hit")).toBool(), false);
        const QJsonObject again = compileRequest(QStringLiteral("t3"), source, entries);
        const QJsonObject cached = again.value(QLatin1StringView("compile")).toObject();
        QCOMPARE(cached.value(QLatin1StringView("cache_hit")).toBool(), true);
        QCOMPARE(cached.value(QLatin1StringView("lowered_names")).toObject(), lowered);
    }

    void compileNamesMissingInclude_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("message");
        QTest::newRow("host header in the source")
            << QStringLiteral("#include <cstdio>\n__global__ void k(float *x) { x[0] = 1.0f; }\n")
            << QStringLiteral("#include <cstdio> (line 1) cannot be found");
        QTest::newRow("host header behind a toolkit header")
            << QStringLiteral("#include <cublas_v2.h>\n__global__ void k(float *x) { x[0] = 1.0f; }\n")
            << QStringLiteral("which the source reaches through #include <cublas_v2.h> (line 1)");
    }
    void compileNamesMissingInclude()
    {
        QFETCH(QString, source);
        QFETCH(QString, message);
        const QJsonObject r = compileRequest(QStringLiteral("i1"), source, {QStringLiteral("k")});
        QCOMPARE(r.value(QLatin1StringView("status")).toString(), QStringLiteral("compile_failed"));
        const QString text = r.value(QLatin1StringView("message")).toString();
        QVERIFY2(text.contains(message) && text.contains(QStringLiteral("--include-dir")), qPrintable(text));
        QVERIFY(r.value(QLatin1StringView("compile"))
                    .toObject()
                    .value(QLatin1StringView("diagnosis"))
                    .toString()
                    .contains(message));
    }

    void compileNamesUnknownEntry()
    {
        const QJsonObject r = compileRequest(QStringLiteral("u1"),
            QStringLiteral("template <int N> __global__ void k(float *x) { x[0] = N; }\n"), {QStringLiteral("kk<4>")});
        QCOMPARE(r.value(QLatin1StringView("status")).toString(), QStringLiteral("compile_failed"));
        const QString text = r.value(QLatin1StringView("message")).toString();
        QVERIFY2(text.contains(QStringLiteral("entry 'kk<4>' does not name a __global__ function")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestMeasureWorker)
#include "tst_measure_worker.moc"
