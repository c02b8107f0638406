// Integration tests of `gpuf forecaster add|list` and `gpuf forecast`: the real executable against the scripted
// OpenAI-compatible server on loopback and a real store; the exact summary documents, exit codes, hardware choices,
// and that an API key handed over through an environment variable is used but never written anywhere.
#include "core/forecasters/prompt.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/support/cli_run.h"
#include "tests/support/openai_answers.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::test;
using namespace Qt::StringLiterals;

namespace {

using Run = gpuf::test::CliRun;

// Everything this process logs, to look for the key in.
QByteArray g_log;
void captureLog(QtMsgType, const QMessageLogContext &, const QString &message) { g_log += message.toUtf8() + '\n'; }

QJsonObject jsonOf(const Run &r)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    return error.error == QJsonParseError::NoError && doc.isObject() ? doc.object() : QJsonObject();
}

QJsonObject summary(int requested, int ok, int parseFailed, int errors, int cached)
{
    return QJsonObject {{u"requested"_s, requested}, {u"ok"_s, ok}, {u"parse_failed"_s, parseFailed},
        {u"errors"_s, errors}, {u"cached"_s, cached}};
}

} // namespace

class TestCliForecast : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;
    QString m_home; // HOME and XDG folders of the gpuf processes: any settings they write land here
    std::unique_ptr<Store> m_connection; // held open so the WAL file outlives each gpuf process
    std::unique_ptr<OpenAiServer> m_server; // on its own thread: the test blocks while gpuf runs
    QProcessEnvironment m_env;
    RowId m_rowSoftmaxRef = 0;

    Run runGpuf(const QStringList &args)
    {
        Run r = gpuf::test::runGpufBytes(args, 120000, m_env);
        m_outputs += r.out + r.err;
        return r;
    }
    QByteArray m_outputs; // every gpuf run's stdout and stderr

    Run addForecaster(const QString &name, const QStringList &extra = {})
    {
        return runGpuf(QStringList {u"forecaster"_s, u"add"_s, m_store, name, u"--endpoint"_s, m_server->baseUrl(),
                           u"--model"_s, u"test-model"_s}
            + extra);
    }

    RowId forecasterId(const QString &name)
    {
        auto f = ForecasterRepo(*m_connection).findByName(name);
        return f && f->has_value() ? (**f).id : 0;
    }

    QList<Forecast> forecastsOf(const QString &name)
    {
        const RowId id = forecasterId(name);
        QList<Forecast> out;
        const auto all = ForecastRepo(*m_connection).list(); // named: a temporary would die before the loop
        for (const Forecast &f : *all) {
            if (f.forecasterId == id)
                out.append(f);
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void help();
    void addAndList();
    void addRefusals_data();
    void addRefusals();
    void summaryJson();
    void mixedOutcomes();
    void hardwareChoices();
    void localHardware();
    void localHardwareThroughWorker();
    void apiKeyNeverWritten();
};

void TestCliForecast::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_home = m_dir.filePath(u"home"_s);
    QVERIFY(QDir().mkpath(m_home));
    m_env = QProcessEnvironment::systemEnvironment();
    m_env.insert(u"HOME"_s, m_home);
    m_env.insert(u"XDG_CONFIG_HOME"_s, m_home + u"/.config"_s);
    m_env.insert(u"XDG_DATA_HOME"_s, m_home + u"/.local/share"_s);
    m_env.insert(u"XDG_CACHE_HOME"_s, m_home + u"/.cache"_s);
    m_env.insert(u"PATH"_s, u"/usr/bin:/bin"_s); // no gpuf-measure from elsewhere
    m_store = m_dir.filePath(u"cli.gpuf"_s);
    auto opened = Store::open(m_store);
    QVERIFY2(opened.ok(), qPrintable(opened.error()));
    m_connection = std::move(opened.value());
    // row_softmax: a reference and two candidates; transpose: a reference and one; empty: no reference.
    const QList<QPair<QString, int>> problems {{u"row_softmax"_s, 3}, {u"transpose"_s, 2}, {u"empty"_s, 1}};
    for (const auto &[name, kernels] : problems) {
        Problem p;
        p.name = name;
        QVERIFY(ProblemRepo(*m_connection).insert(p).ok());
        RowId reference = 0;
        for (int i = 0; i < kernels; ++i) {
            Kernel k;
            k.problemId = p.id;
            k.language = u"cuda"_s;
            k.source = u"// %1 v%2\n__global__ void k(float *x) { x[%2] = 1.0f; }\n"_s.arg(name).arg(i);
            k.origin = u"manual"_s;
            auto id = KernelRepo(*m_connection).insertOrGet(k);
            QVERIFY(id.ok());
            if (i == 0)
                reference = *id;
        }
        if (name != u"empty"_s)
            QVERIFY(ProblemRepo(*m_connection).setReferenceKernel(p.id, reference).ok());
        if (name == u"row_softmax"_s)
            m_rowSoftmaxRef = reference;
    }
    m_server = std::make_unique<OpenAiServer>(OpenAiServer::Threading::OwnThread);
    QVERIFY(m_server->listen());
    m_server->setResponder([](const RecordedRequest &) { return toolCallAnswer(forecastArguments(), true); });
}

void TestCliForecast::cleanupTestCase() { qInstallMessageHandler(nullptr); }

void TestCliForecast::help()
{
    const Run top = runGpuf({u"--help"_s});
    QVERIFY(top.out.contains("  forecaster  "));
    QVERIFY(top.out.contains("  forecast    "));
    const Run r = runGpuf({u"forecast"_s, u"--help"_s});
    QCOMPARE(r.exitCode, 0);
    for (const char *option : {"--forecaster", "--problem", "--hardware", "--samples", "--refresh", "--json"})
        QVERIFY2(r.out.contains(option), option);
}

void TestCliForecast::addAndList()
{
    const Run add = addForecaster(u"local"_s,
        {u"--api-key-env"_s, u"LOCAL_KEY"_s, u"--profile"_s, u"paper"_s, u"--no-stream"_s, u"--concurrency"_s, u"3"_s,
            u"--temperature"_s, u"0.5"_s, u"--max-tokens"_s, u"2048"_s, u"--reasoning-effort"_s, u"medium"_s,
            u"--json"_s});
    QVERIFY2(add.exitCode == 0, add.err.constData());
    const QJsonObject added = jsonOf(add);
    QCOMPARE(added[u"name"_s].toString(), u"local"_s);
    QCOMPARE(added[u"kind"_s].toString(), u"llm"_s);
    const QJsonObject config = added[u"config"_s].toObject();
    const QJsonObject expected {{u"endpoint"_s, m_server->baseUrl()}, {u"model"_s, u"test-model"_s},
        {u"temperature"_s, 0.5}, {u"max_tokens"_s, 2048}, {u"reasoning_effort"_s, u"medium"_s}, {u"concurrency"_s, 3},
        {u"total_timeout_ms"_s, 600000}, {u"idle_timeout_ms"_s, 120000}, {u"connect_timeout_ms"_s, 10000},
        {u"max_retries"_s, 3}, {u"stream"_s, false}, {u"tool_calling"_s, true}, {u"api_key_env"_s, u"LOCAL_KEY"_s},
        {u"prompt_profile"_s, u"paper"_s}, {u"prompt_version"_s, u"gpuf-1"_s}};
    QCOMPARE(config, expected);

    const Run list = runGpuf({u"forecaster"_s, u"list"_s, m_store, u"--json"_s});
    QCOMPARE(list.exitCode, 0);
    const QJsonArray rows = jsonOf(list)[u"forecasters"_s].toArray();
    QVERIFY(!rows.isEmpty());
    bool found = false;
    for (const QJsonValue row : rows)
        found = found || row.toObject() == added;
    QVERIFY(found);
    const Run text = runGpuf({u"forecaster"_s, u"list"_s, m_store});
    QVERIFY(text.out.contains(QByteArray(" local (llm): test-model at " + m_server->baseUrl().toUtf8())));
}

void TestCliForecast::addRefusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error");
    QTest::newRow("no model") << QStringList {u"--endpoint"_s, u"http://127.0.0.1:1/v1"_s} << 2
                              << u"gpuf: forecaster add: --endpoint and --model are required\n"_s;
    QTest::newRow("not http") << QStringList {u"--endpoint"_s, u"ftp://host/v1"_s, u"--model"_s, u"m"_s} << 2
                              << u"gpuf: forecaster add: --endpoint must be an http(s) URL (got 'ftp://host/v1')\n"_s;
    QTest::newRow("credentials in the URL") << QStringList {u"--endpoint"_s, u"http://me:pw@host/v1"_s, u"--model"_s,
        u"m"_s} << 2 << u"gpuf: forecaster add: --endpoint must not carry credentials; use --api-key-env\n"_s;
    const QString keyLike
        = u"gpuf: forecaster add: --api-key-env: the value given as the variable's name looks like an "
          "API key itself; it was not kept. Put the key in an environment variable (export "
          "OPENAI_API_KEY=...) and give that variable's name\n"_s;
    QTest::newRow("a key instead of a variable name") << QStringList {u"--endpoint"_s, u"http://host/v1"_s,
        u"--model"_s, u"m"_s, u"--api-key-env"_s, u"sk-proj-Zk3q9XbT0aLm"_s}
                                                      << 2 << keyLike;
    // A Hugging Face token is a valid variable name by its letters alone: refused for its shape, never echoed.
    QTest::newRow("a token that is a valid name") << QStringList {u"--endpoint"_s, u"http://host/v1"_s, u"--model"_s,
        u"m"_s, u"--api-key-env"_s, u"hf_QpZk3q9XbT0aLmWn7"_s}
                                                  << 2 << keyLike;
    QTest::newRow("a long random key") << QStringList {u"--endpoint"_s, u"http://host/v1"_s, u"--model"_s, u"m"_s,
        u"--api-key-env"_s, u"Qp7Zk3q9XbT0aLmWn7Rt2"_s}
                                       << 2 << keyLike;
    QTest::newRow("not a variable name") << QStringList {u"--endpoint"_s, u"http://host/v1"_s, u"--model"_s, u"m"_s,
        u"--api-key-env"_s, u"MY-KEY"_s} << 2
                                         << u"gpuf: forecaster add: --api-key-env: give the NAME of an environment "
                                            "variable (letters, digits and _, not starting with a digit), not its "
                                            "value\n"_s;
    QTest::newRow("profile") << QStringList {u"--endpoint"_s, u"http://host/v1"_s, u"--model"_s, u"m"_s, u"--profile"_s,
        u"other"_s} << 2 << u"gpuf: forecaster add: --profile is default or paper (got 'other')\n"_s;
    QTest::newRow("concurrency") << QStringList {u"--endpoint"_s, u"http://host/v1"_s, u"--model"_s, u"m"_s,
        u"--concurrency"_s, u"0"_s}
                                 << 2 << u"gpuf: forecaster add: --concurrency takes a positive integer\n"_s;
}

void TestCliForecast::addRefusals()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    const Run r = runGpuf(QStringList {u"forecaster"_s, u"add"_s, m_store, u"refused"_s} + args);
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(QString::fromUtf8(r.err), error);
    QCOMPARE(forecasterId(u"refused"_s), 0);
    if (const qsizetype at = args.indexOf(u"--api-key-env"_s); at >= 0)
        QVERIFY(!r.out.contains(args.at(at + 1).toUtf8()) && !r.err.contains(args.at(at + 1).toUtf8()));
}

void TestCliForecast::summaryJson()
{
    QCOMPARE(addForecaster(u"summary"_s).exitCode, 0);
    const Run dup = addForecaster(u"summary"_s);
    QCOMPARE(dup.exitCode, 1);
    QCOMPARE(dup.err, QByteArray("gpuf: forecaster add: 'summary' exists already\n"));
    // Every pair of every problem with a reference: 2 + 1.
    Run r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"summary"_s, u"--json"_s});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.out, QJsonDocument(summary(3, 3, 0, 0, 0)).toJson(QJsonDocument::Compact) + '\n');
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"summary"_s, u"--json"_s});
    QCOMPARE(jsonOf(r), summary(3, 0, 0, 0, 3));
    // Two samples of one problem: sample 0 is cached, sample 1 is new.
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"summary"_s, u"--problem"_s, u"row_softmax"_s,
        u"--samples"_s, u"2"_s, u"--json"_s});
    QCOMPARE(jsonOf(r), summary(4, 2, 0, 0, 2));
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"summary"_s, u"--problem"_s, u"transpose"_s,
        u"--refresh"_s, u"--json"_s});
    QCOMPARE(jsonOf(r), summary(1, 1, 0, 0, 0));
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"summary"_s, u"--problem"_s, u"transpose"_s});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QByteArray("1 forecast(s) requested: 0 ok, 0 parse failed, 0 error(s), 1 cached\n"));
    const QList<Forecast> stored = forecastsOf(u"summary"_s);
    QCOMPARE(stored.size(), 3 + 2 + 1);
    for (const Forecast &f : stored) {
        QCOMPARE(f.status, ForecastStatus::Ok);
        QCOMPARE(f.hardwareId, 0); // none asked for: no hardware table
        QVERIFY(!f.messages.contains(u"## Hardware"_s));
    }

    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"nobody"_s});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.err, QByteArray("gpuf: forecast: no forecaster named 'nobody'\n"));
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"summary"_s, u"--problem"_s, u"nothing"_s});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.err, QByteArray("gpuf: forecast: no problem named 'nothing'\n"));
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"summary"_s, u"--samples"_s, u"0"_s});
    QCOMPARE(r.exitCode, 2);
    // A count with no bound ran for ever at full CPU (issue 26): refused at once, as the Forecast dock's box stops
    // at 16.
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"summary"_s, u"--samples"_s, u"2000000000"_s});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--samples"), r.err.constData());
    QVERIFY2(r.err.contains("from 1 to 16"), r.err.constData());
    r = runGpuf({u"forecast"_s, m_store});
    QCOMPARE(r.exitCode, 2);
}

void TestCliForecast::mixedOutcomes()
{
    QCOMPARE(addForecaster(u"mixed"_s, {u"--no-stream"_s}).exitCode, 0);
    // The answer depends on the candidate the request shows: v1 ok, v2 no tool call, transpose v1 a 400.
    m_server->setResponder([](const RecordedRequest &request) {
        const QString user = request.json()[u"messages"_s].toArray().at(1)[u"content"_s].toString();
        if (user.contains(u"## Candidate kernel\n\n```cuda\n// row_softmax v2"_s))
            return noToolCallAnswer(false);
        if (user.contains(u"## Candidate kernel\n\n```cuda\n// transpose v1"_s))
            return errorResponse(400, u"context length exceeded"_s);
        return toolCallAnswer(forecastArguments(), false);
    });
    const Run r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"mixed"_s, u"--json"_s});
    QCOMPARE(r.exitCode, 1); // a request failed
    QCOMPARE(jsonOf(r), summary(3, 1, 1, 1, 0));
    const Run text = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"mixed"_s});
    QCOMPARE(text.exitCode, 1);
    QCOMPARE(text.out, QByteArray("3 forecast(s) requested: 0 ok, 0 parse failed, 1 error(s), 2 cached\n"));
    QVERIFY2(text.err.contains("http_error: HTTP 400: context length exceeded\n"), text.err.constData());
    m_server->setResponder([](const RecordedRequest &) { return toolCallAnswer(forecastArguments(), true); });
}

void TestCliForecast::hardwareChoices()
{
    QCOMPARE(addForecaster(u"hw"_s).exitCode, 0);
    Run r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"hw"_s, u"--problem"_s, u"transpose"_s,
        u"--hardware"_s, u"H100"_s, u"--json"_s});
    QCOMPARE(jsonOf(r), summary(1, 1, 0, 0, 0));
    const Forecast f = forecastsOf(u"hw"_s).last();
    auto hardware = HardwareRepo(*m_connection).find(f.hardwareId);
    QVERIFY(hardware && hardware->has_value());
    QCOMPARE((**hardware).name, u"NVIDIA H100 80GB HBM3"_s);
    QVERIFY(f.messages.contains(u"| Device | NVIDIA H100 80GB HBM3 |"_s));
    // Another GPU is another cache key.
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"hw"_s, u"--problem"_s, u"transpose"_s, u"--hardware"_s,
        u"a100"_s, u"--json"_s});
    QCOMPARE(jsonOf(r), summary(1, 1, 0, 0, 0));
    r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"hw"_s, u"--hardware"_s, u"V100"_s});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, QByteArray("gpuf: forecast: unknown hardware 'V100' (A100, L40S, H100, H200, B200 or local)\n"));
}

void TestCliForecast::localHardware()
{
    // `gpuf device` says whether there is a GPU here and, when not, exactly why; --hardware local says the same.
    const Run device = runGpuf({u"device"_s, u"--json"_s});
    QCOMPARE(device.exitCode, 0);
    const QJsonObject state = jsonOf(device);
    QCOMPARE(addForecaster(u"local-gpu"_s).exitCode, 0);
    const Run r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"local-gpu"_s, u"--problem"_s, u"transpose"_s,
        u"--hardware"_s, u"local"_s, u"--json"_s});
    if (!state[u"available"_s].toBool()) {
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(QString::fromUtf8(r.err),
            u"gpuf: forecast: --hardware local: no GPU available: "_s + state[u"reason"_s].toString() + u'\n');
        QVERIFY(forecastsOf(u"local-gpu"_s).isEmpty());
        return;
    }
    QCOMPARE(jsonOf(r), summary(1, 1, 0, 0, 0));
    const QString name = state[u"devices"_s].toArray().first()[u"name"_s].toString();
    QVERIFY(forecastsOf(u"local-gpu"_s).first().messages.contains(u"| Device | "_s + name + u" |"_s));
}

// A GPU described by a stand-in gpuf-measure found on PATH: the table shows the driver's figures.
void TestCliForecast::localHardwareThroughWorker()
{
    const QString bin = m_dir.filePath(u"bin"_s);
    QVERIFY(QDir().mkpath(bin));
    const QString worker = bin + u"/gpuf-measure"_s;
    QFile::remove(worker);
    QVERIFY(QFile::copy(QStringLiteral(GPUF_CLI_TEST_DIR "/fake_gpu_worker.sh"), worker));
    QVERIFY(QFile::setPermissions(worker, QFile::permissions(worker) | QFileDevice::ExeOwner));
    const QProcessEnvironment saved = m_env;
    m_env.insert(u"PATH"_s, bin + u":/usr/bin:/bin"_s);
    const QJsonObject device = jsonOf(runGpuf({u"device"_s, u"--json"_s}));
    if (device[u"worker"_s].toString() != worker) {
        m_env = saved;
        QSKIP(qPrintable(u"a gpuf-measure is found before the stand-in: "_s + device[u"worker"_s].toString()));
    }
    QCOMPARE(addForecaster(u"stand-in-gpu"_s).exitCode, 0);
    const Run r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"stand-in-gpu"_s, u"--problem"_s, u"transpose"_s,
        u"--hardware"_s, u"local"_s, u"--json"_s});
    m_env = saved;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(jsonOf(r), summary(1, 1, 0, 0, 0));
    const Forecast f = forecastsOf(u"stand-in-gpu"_s).first();
    QVERIFY2(f.messages.contains(u"| Device | Test GPU 9000 |\\n| Compute Capability | 9.0 |\\n"
                                 "| Global Memory | 139.8 GB |\\n| Multiprocessors | 132 |\\n"
                                 "| Max Threads/SM | 2048 |\\n| Clock Rate | 1.98 GHz |\\n"
                                 "| Memory Clock | 3.20 GHz |\\n| Memory Bus Width | 6016 bits |\\n"_s),
        qPrintable(f.messages));
    auto hardware = HardwareRepo(*m_connection).find(f.hardwareId);
    QVERIFY(hardware && hardware->has_value());
    QCOMPARE((**hardware).name, u"Test GPU 9000"_s);
}

void TestCliForecast::apiKeyNeverWritten()
{
    qInstallMessageHandler(captureLog);
    const QByteArray key = "sk-gpuf-test-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16)
        + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
    const QString variable = u"GPUF_TEST_KEY_%1"_s.arg(QRandomGenerator::global()->generate(), 0, 16);
    m_env.insert(variable, QString::fromLatin1(key));
    QCOMPARE(addForecaster(u"keyed"_s, {u"--api-key-env"_s, variable}).exitCode, 0);
    // One answer that quotes the Authorization header back in an error: the client must not keep it.
    m_server->setResponder([](const RecordedRequest &request) {
        if (request.json()[u"messages"_s].toArray().at(1)[u"content"_s].toString().contains(u"// transpose v1"_s))
            return errorResponse(
                401, u"invalid credentials: "_s + QString::fromLatin1(request.header("Authorization")));
        return toolCallAnswer(forecastArguments(), true);
    });
    const int before = m_server->requestCount();
    const Run r = runGpuf({u"forecast"_s, m_store, u"--forecaster"_s, u"keyed"_s, u"--json"_s});
    QCOMPARE(jsonOf(r), summary(3, 2, 0, 1, 0));
    // The key was used: it reached the server in the Authorization header.
    const QList<RecordedRequest> requests = m_server->requests();
    QCOMPARE(requests.size() - before, 3);
    for (qsizetype i = before; i < requests.size(); ++i)
        QCOMPARE(requests.at(i).header("Authorization"), "Bearer " + key);
    QVERIFY(!forecastsOf(u"keyed"_s).isEmpty());
    runGpuf({u"forecaster"_s, u"list"_s, m_store, u"--json"_s});
    const QString bundle = m_dir.filePath(u"export.jsonl"_s);
    const Run exported = runGpuf({u"export"_s, m_store, bundle});
    QVERIFY2(exported.exitCode == 0, exported.err.constData());
    QVERIFY(QFileInfo(bundle).size() > 0);

    // Nowhere: the store, its WAL (held open by this test, so it still holds the runs' writes), any file a gpuf run
    // wrote under its HOME (settings, caches), the bundle, every output, this process's log.
    QVERIFY(QFileInfo::exists(m_store + u"-wal"_s));
    int files = 0;
    QDirIterator it(m_dir.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains(key), qPrintable(f.fileName()));
        ++files;
    }
    QVERIFY(files >= 3); // store, WAL, bundle at least
    QVERIFY(!m_outputs.isEmpty());
    QVERIFY(!m_outputs.contains(key));
    QVERIFY(!g_log.contains(key));
    // The error that quoted it was stored with the key blanked out.
    bool quoted = false;
    for (const Forecast &f : forecastsOf(u"keyed"_s))
        quoted = quoted || f.errorText.startsWith(u"http_error: HTTP 401: invalid credentials: Bearer "_s);
    QVERIFY(quoted);
    m_env.remove(variable);
}

QTEST_GUILESS_MAIN(TestCliForecast)
#include "tst_cli_forecast.moc"
