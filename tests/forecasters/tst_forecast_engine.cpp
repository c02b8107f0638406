// The forecast engine end to end: a real temporary store, the LLM backend and its ChatClient against the scripted
// OpenAI-compatible server on loopback. Each answer scenario has its exact stored outcome; then the cache, refresh,
// samples, concurrency, cancellation and the factory's refusals.
#include "core/forecasters/forecast_engine.h"
#include "core/forecasters/forecast_queue.h"
#include "core/forecasters/forecaster_config.h"
#include "core/forecasters/prompt.h"
#include "core/store/forecast_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/support/openai_answers.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::test;
using namespace Qt::StringLiterals;

namespace {

struct Expected
{
    ForecastStatus status = ForecastStatus::Ok;
    int bin = 0;
    double rawSum = 0.0;
    QString error; // exact; a trailing '*' matches any rest
};

// A tool call whose arguments are exactly `arguments` (text that need not be JSON), not streamed.
ScriptedResponse rawToolCall(const QString &arguments)
{
    const QJsonObject function {{u"name"_s, u"submit_kernel_runtime_estimate"_s}, {u"arguments"_s, arguments}};
    const QJsonObject call {{u"id"_s, u"call_1"_s}, {u"type"_s, u"function"_s}, {u"function"_s, function}};
    const QJsonObject message {
        {u"role"_s, u"assistant"_s}, {u"content"_s, QJsonValue()}, {u"tool_calls"_s, QJsonArray {call}}};
    return jsonResponse(completionObject(message, u"tool_calls"_s));
}

QJsonObject args(int bin, const QList<double> &p)
{
    return forecastArguments(bin, p, u"Shared-memory tiling cuts global loads."_s);
}

bool matches(const QString &actual, const QString &expected)
{
    if (expected.endsWith(u'*'))
        return actual.startsWith(expected.chopped(1));
    return actual == expected;
}

} // namespace

class TestForecastEngine : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<OpenAiServer> m_server;
    RowId m_reference = 0;
    QList<RowId> m_candidates;
    int m_forecasters = 0;

    // A new LLM forecaster on the fixture server.
    RowId addForecaster(bool toolCalling = true, bool stream = true, int retries = 1, int concurrency = 8,
        int idleTimeoutMs = 10000, OpenAiServer *server = nullptr)
    {
        forecasters::LlmForecasterSettings s;
        s.endpoint.baseUrl = (server ? server : m_server.get())->baseUrl();
        s.endpoint.model = u"test-model"_s;
        s.endpoint.toolCalling = toolCalling;
        s.endpoint.stream = stream;
        s.endpoint.maxRetries = retries;
        s.endpoint.backoffBaseMs = 5;
        s.endpoint.concurrency = concurrency;
        s.endpoint.idleTimeoutMs = idleTimeoutMs;
        s.endpoint.totalTimeoutMs = 30000;
        s.prompt.toolCalling = toolCalling;
        Forecaster f;
        f.name = u"llm-%1"_s.arg(++m_forecasters);
        f.kind = ForecasterKind::Llm;
        f.config = forecasters::llmConfig(s);
        auto id = ForecasterRepo(*m_store).ensure(f);
        if (!id)
            qFatal("forecaster: %s", qPrintable(id.error()));
        return *id;
    }

    ForecastBatch batch(RowId forecaster, int candidates = 1, int samples = 1, bool refresh = false)
    {
        static quint64 nextId = 1;
        ForecastBatch b;
        b.id = nextId++;
        b.forecasterId = forecaster;
        for (int i = 0; i < candidates; ++i)
            b.pairs.append(ForecastPair {m_reference, m_candidates.at(i)});
        b.hardware = hardwarePreset(u"A100"_s);
        b.samples = samples;
        b.refresh = refresh;
        return b;
    }

    // Runs one batch on an engine on this thread (the server's sockets live here too) and returns its summary.
    ForecastSummary run(ForecastEngine &engine, const ForecastBatch &b)
    {
        std::optional<ForecastSummary> summary;
        QObject context;
        connect(&engine, &ForecastEngine::batchFinished, &context, [&](quint64 id, const ForecastSummary &s) {
            if (id == b.id)
                summary = s;
        });
        engine.enqueue(b);
        if (!QTest::qWaitFor([&] { return summary.has_value(); }, 20000))
            return ForecastSummary {-1};
        return *summary;
    }

    ForecastSummary run(const ForecastBatch &b)
    {
        ForecastEngine engine;
        engine.setStorePath(m_path);
        return run(engine, b);
    }

    QList<Forecast> forecastsOf(RowId forecaster)
    {
        auto all = ForecastRepo(*m_store).list();
        QList<Forecast> out;
        for (const Forecast &f : *all) {
            if (f.forecasterId == forecaster)
                out.append(f);
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase();
    void init();
    void scenarios_data();
    void scenarios();
    void watchedReasoningStreams();
    void cacheAndRefresh();
    void samplesAreRepeats();
    void errorsAreAskedAgain();
    void searchModeRetriesOnce();
    void concurrencyLimit();
    void cancel();
    void otherKinds();
    void queueOnItsOwnThread();
};

void TestForecastEngine::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(u"engine.gpuf"_s);
    auto opened = Store::open(m_path);
    QVERIFY2(opened.ok(), qPrintable(opened.error()));
    m_store = std::move(opened.value());
    Problem p;
    p.name = u"row_softmax"_s;
    QVERIFY(ProblemRepo(*m_store).insert(p).ok());
    for (int i = 0; i < 4; ++i) {
        Kernel k;
        k.problemId = p.id;
        k.language = u"cuda"_s;
        k.source = u"__global__ void k%1(float *x) { x[%1] = 0.0f; }\n"_s.arg(i);
        k.origin = i == 0 ? u"seed"_s : u"manual"_s;
        auto id = KernelRepo(*m_store).insertOrGet(k);
        QVERIFY(id.ok());
        (i == 0 ? m_reference : m_candidates.emplace_back()) = *id;
    }
    QVERIFY(ProblemRepo(*m_store).setReferenceKernel(p.id, m_reference).ok());
    m_server = std::make_unique<OpenAiServer>();
    QVERIFY(m_server->listen());
}

void TestForecastEngine::init()
{
    // Whatever a previous test left queued must not answer this one.
    m_server->setResponder({});
}

void TestForecastEngine::scenarios_data()
{
    QTest::addColumn<QList<ScriptedResponse>>("responses");
    QTest::addColumn<bool>("toolCalling");
    QTest::addColumn<int>("retries");
    QTest::addColumn<int>("idleTimeoutMs");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("bin");
    QTest::addColumn<double>("rawSum");
    QTest::addColumn<QString>("error");
    QTest::addColumn<int>("requests");

    const QList<double> even {0.0, 0.0, 0.05, 0.2, 0.5, 0.2, 0.05, 0.0};
    const auto ok = int(ForecastStatus::Ok);
    const auto parseFailed = int(ForecastStatus::ParseFailed);
    const auto error = int(ForecastStatus::Error);
    const QString none;
    QTest::newRow("tool call") << QList {toolCallAnswer(forecastArguments(), false)} << true << 1 << 10000 << ok << 5
                               << 1.0 << none << 1;
    QTest::newRow("streamed tool call") << QList {toolCallAnswer(forecastArguments(), true)} << true << 1 << 10000 << ok
                                        << 5 << 1.0 << none << 1;
    QTest::newRow("awkward stream") << QList {awkwardReasoningToolCallStream(args(6, even)).response} << true << 1
                                    << 10000 << ok << 6 << 1.0 << none << 1;
    QTest::newRow("plain JSON, no tools")
        << QList {jsonContentAnswer(args(4, even), true)} << false << 1 << 10000 << ok << 4 << 1.0 << none << 1;
    QTest::newRow("no tool call") << QList {noToolCallAnswer(false)} << true << 1 << 10000 << parseFailed << 0 << 0.0
                                  << u"no tool call in the answer (finish reason: stop; content: \"The candidate "
                                     "looks faster, probably by about a third.\")"_s
                                  << 1;
    QTest::newRow("wrong tool name") << QList {wrongToolNameAnswer(forecastArguments(), true)} << true << 1 << 10000
                                     << parseFailed << 0 << 0.0
                                     << u"the model called 'estimate_speedup' instead of "
                                        "submit_kernel_runtime_estimate (finish reason: tool_calls; content: *"_s
                                     << 1;
    QTest::newRow("invalid JSON") << QList {rawToolCall(u"{\"predicted_bin\": 5, \"p_sev"_s)} << true << 1 << 10000
                                  << parseFailed << 0 << 0.0 << u"the arguments are not valid JSON (*"_s << 1;
    QTest::newRow("sum 0.8") << QList {toolCallAnswer(args(5, {0, 0, 0, 0.2, 0.4, 0.2, 0, 0}), true)} << true << 1
                             << 10000 << ok << 5 << 0.8 << none << 1;
    QTest::newRow("sum 1.2") << QList {toolCallAnswer(args(5, {0, 0, 0, 0.3, 0.6, 0.3, 0, 0}), false)} << true << 1
                             << 10000 << ok << 5 << 1.2 << none << 1;
    QTest::newRow("all zeros") << QList {toolCallAnswer(args(5, {}), false)} << true << 1 << 10000 << parseFailed << 0
                               << 0.0 << u"the probabilities sum to 0; nothing to renormalise"_s << 1;
    QString nanArgs = QString::fromUtf8(QJsonDocument(args(5, even)).toJson(QJsonDocument::Compact));
    nanArgs.replace(u"\"p_minor_speedup\":0.5"_s, u"\"p_minor_speedup\":NaN"_s);
    QTest::newRow("NaN") << QList {rawToolCall(nanArgs)} << true << 1 << 10000 << parseFailed << 0 << 0.0
                         << u"p_minor_speedup is NaN"_s << 1;
    QTest::newRow("bin 9") << QList {toolCallAnswer(args(9, even), true)} << true << 1 << 10000 << parseFailed << 0
                           << 0.0 << u"predicted_bin is 9, outside 1..8"_s << 1;
    QJsonObject stringBin = args(5, even);
    stringBin.insert(u"predicted_bin"_s, u"5"_s);
    QTest::newRow("string bin") << QList {toolCallAnswer(stringBin, false)} << true << 1 << 10000 << parseFailed << 0
                                << 0.0 << u"predicted_bin is the string \"5\"; an integer is required"_s << 1;
    QTest::newRow("429 then ok") << QList {errorResponse(429, u"slow down"_s, {{"Retry-After", "0"}}),
        toolCallAnswer(forecastArguments(), true)}
                                 << true << 1 << 10000 << ok << 5 << 1.0 << none << 2;
    QTest::newRow("500 then ok") << QList {errorResponse(500, u"overloaded"_s),
        toolCallAnswer(forecastArguments(), true)}
                                 << true << 1 << 10000 << ok << 5 << 1.0 << none << 2;
    ScriptedResponse stall = toolCallAnswer(forecastArguments(), true);
    stall.fault = Fault::Stall;
    stall.faultAfterChunk = 2;
    QTest::newRow("stall") << QList {stall} << true << 0 << 300 << error << 0 << 0.0 << u"timed_out: no data for *"_s
                           << 1;
    ScriptedResponse reset = toolCallAnswer(forecastArguments(), true);
    reset.fault = Fault::Reset;
    reset.faultAfterChunk = 2;
    QTest::newRow("reset") << QList {reset} << true << 0 << 10000 << error << 0 << 0.0
                           << u"transport_error: connection *"_s << 1;
}

void TestForecastEngine::scenarios()
{
    QFETCH(QList<ScriptedResponse>, responses);
    QFETCH(bool, toolCalling);
    QFETCH(int, retries);
    QFETCH(int, idleTimeoutMs);
    QFETCH(int, status);
    QFETCH(int, bin);
    QFETCH(double, rawSum);
    QFETCH(QString, error);
    QFETCH(int, requests);
    for (const ScriptedResponse &r : std::as_const(responses))
        m_server->enqueue(r);
    const int before = m_server->requestCount();
    const RowId forecaster = addForecaster(toolCalling, true, retries, 8, idleTimeoutMs);
    const ForecastSummary s = run(batch(forecaster));
    QCOMPARE(s.requested, 1);
    QCOMPARE(s.ok, status == int(ForecastStatus::Ok) ? 1 : 0);
    QCOMPARE(s.parseFailed, status == int(ForecastStatus::ParseFailed) ? 1 : 0);
    QCOMPARE(s.errors, status == int(ForecastStatus::Error) ? 1 : 0);
    QCOMPARE(s.cached, 0);
    QCOMPARE(m_server->requestCount() - before, requests);

    const QList<Forecast> stored = forecastsOf(forecaster);
    QCOMPARE(stored.size(), 1);
    const Forecast &f = stored.first();
    QCOMPARE(int(f.status), status);
    QVERIFY2(matches(f.errorText, error), qPrintable(f.errorText));
    QCOMPARE(f.referenceKernelId, m_reference);
    QCOMPARE(f.candidateKernelId, m_candidates.first());
    QVERIFY(f.hardwareId > 0);
    QCOMPARE(f.repeat, 0);
    QVERIFY(f.cacheKey.startsWith(u"fc1:"_s));
    // What the forecaster saw: the exact messages; and what it answered.
    ForecastRequest request;
    request.reference = *KernelRepo(*m_store).find(m_reference).value();
    request.candidate = *KernelRepo(*m_store).find(m_candidates.first()).value();
    request.operation = u"row_softmax"_s;
    request.hardware = hardwarePreset(u"A100"_s);
    const QJsonArray messages
        = forecasters::promptMessages(request, {forecasters::PromptProfile::Default, toolCalling});
    QCOMPARE(f.messages, QString::fromUtf8(QJsonDocument(messages).toJson(QJsonDocument::Compact)));
    const QJsonObject sent = m_server->requests().last().json();
    QCOMPARE(sent[u"messages"_s].toArray(), messages);
    QCOMPARE(sent.contains(u"tools"_s), toolCalling);
    if (toolCalling)
        QCOMPARE(sent[u"tool_choice"_s].toObject(), forecasters::toolChoice());
    if (f.status == ForecastStatus::Error) {
        QCOMPARE(f.predictedBin, std::nullopt);
        return;
    }
    QVERIFY(!f.response.isEmpty());
    QVERIFY(f.latencySeconds >= 0.0);
    if (f.status == ForecastStatus::ParseFailed) {
        QCOMPARE(f.predictedBin, std::nullopt);
        QCOMPARE(f.rawProbabilitySum, std::nullopt);
        return;
    }
    QCOMPARE(f.predictedBin, std::optional(bin));
    QVERIFY(f.rawProbabilitySum.has_value());
    QVERIFY(qFuzzyCompare(*f.rawProbabilitySum, rawSum));
    double sum = 0.0;
    for (double p : f.probabilities)
        sum += p;
    QVERIFY(qFuzzyCompare(sum, 1.0));
    QVERIFY(!f.reasoning.isEmpty());
    QVERIFY(f.tokensIn > 0);
    QVERIFY(f.tokensOut > 0);
}

void TestForecastEngine::watchedReasoningStreams()
{
    const AwkwardStream awkward = awkwardReasoningToolCallStream(args(6, {0, 0, 0, 0, 0.3, 0.6, 0.1, 0}));
    m_server->enqueue(awkward.response);
    const RowId forecaster = addForecaster();
    ForecastEngine engine(ForecastEngineConfig {200, 20, {}});
    engine.setStorePath(m_path);
    QString text;
    int replaced = 0;
    connect(&engine, &ForecastEngine::reasoningUpdated, this, [&](const ForecastReasoning &r) {
        QCOMPARE(r.pair.candidateKernelId, m_candidates.first());
        if (r.replace) {
            ++replaced;
            text = r.text;
        } else {
            text += r.text;
        }
    });
    engine.watch(ForecastPair {m_reference, m_candidates.first()});
    const ForecastSummary s = run(engine, batch(forecaster));
    QCOMPARE(s.ok, 1);
    QCOMPARE(replaced, 0); // watched before it started: only appended pieces
    // Thinking (reasoning fields and the <think> block), the prose around it, then the rationale as it streamed.
    QVERIFY2(text.contains(u"Größere Blöcke → fewer launches. "_s), qPrintable(text));
    QVERIFY2(text.contains(u"Coalesced loads… still memory-bound."_s), qPrintable(text));
    QVERIFY2(text.contains(u"Verdict: faster."_s), qPrintable(text));
    QVERIFY2(text.endsWith(u"\n\nShared-memory tiling cuts global loads."_s), qPrintable(text));
    QCOMPARE(forecastsOf(forecaster).first().reasoning, u"Shared-memory tiling cuts global loads."_s);
}

void TestForecastEngine::cacheAndRefresh()
{
    const RowId forecaster = addForecaster();
    m_server->setResponder([](const RecordedRequest &) { return toolCallAnswer(forecastArguments(), true); });
    const int before = m_server->requestCount();
    ForecastSummary s = run(batch(forecaster, 3));
    QCOMPARE(s.requested, 3);
    QCOMPARE(s.ok, 3);
    QCOMPARE(m_server->requestCount() - before, 3);
    // Second run: everything from the cache, nothing sent.
    s = run(batch(forecaster, 3));
    QCOMPARE(s.requested, 3);
    QCOMPARE(s.cached, 3);
    QCOMPARE(s.ok, 0);
    QCOMPARE(m_server->requestCount() - before, 3);
    // Refresh asks again and stores new rows.
    s = run(batch(forecaster, 3, 1, true));
    QCOMPARE(s.ok, 3);
    QCOMPARE(s.cached, 0);
    QCOMPARE(m_server->requestCount() - before, 6);
    QCOMPARE(forecastsOf(forecaster).size(), 6);
    // Other hardware is another key.
    ForecastBatch other = batch(forecaster, 1);
    other.hardware = hardwarePreset(u"L40S"_s);
    s = run(other);
    QCOMPARE(s.ok, 1);
    QCOMPARE(s.cached, 0);
}

void TestForecastEngine::samplesAreRepeats()
{
    const RowId forecaster = addForecaster();
    m_server->setResponder([](const RecordedRequest &) { return toolCallAnswer(forecastArguments(), false); });
    const ForecastSummary s = run(batch(forecaster, 1, 3));
    QCOMPARE(s.requested, 3);
    QCOMPARE(s.ok, 3);
    const QList<Forecast> stored = forecastsOf(forecaster);
    QCOMPARE(stored.size(), 3);
    QSet<int> repeats;
    QSet<QString> keys;
    for (const Forecast &f : stored) {
        repeats.insert(f.repeat);
        keys.insert(f.cacheKey);
    }
    QCOMPARE(repeats, (QSet<int> {0, 1, 2}));
    QCOMPARE(keys.size(), 3);
    // N = 4 afterwards: three from the cache, one new.
    const ForecastSummary more = run(batch(forecaster, 1, 4));
    QCOMPARE(more.cached, 3);
    QCOMPARE(more.ok, 1);
    QCOMPARE(forecastsOf(forecaster).last().repeat, 3);
}

void TestForecastEngine::errorsAreAskedAgain()
{
    const RowId forecaster = addForecaster(true, true, 0);
    m_server->enqueue(errorResponse(400, u"bad request"_s));
    ForecastSummary s = run(batch(forecaster));
    QCOMPARE(s.errors, 1);
    QCOMPARE(forecastsOf(forecaster).first().errorText, u"http_error: HTTP 400: bad request"_s);
    m_server->enqueue(noToolCallAnswer(true));
    s = run(batch(forecaster));
    QCOMPARE(s.cached, 0);
    QCOMPARE(s.parseFailed, 1);
    // A parse failure is a result: it is cached.
    s = run(batch(forecaster));
    QCOMPARE(s.cached, 1);
}

void TestForecastEngine::searchModeRetriesOnce()
{
    const RowId forecaster = addForecaster();
    ForecastEngine engine(ForecastEngineConfig {200, 100, BackendOptions {true}});
    engine.setStorePath(m_path);
    const int before = m_server->requestCount();
    m_server->enqueue(noToolCallAnswer(true));
    m_server->enqueue(toolCallAnswer(forecastArguments(), true));
    ForecastSummary s = run(engine, batch(forecaster, 1, 1, true));
    QCOMPARE(s.ok, 1);
    QCOMPARE(m_server->requestCount() - before, 2);
    // Two failures in a row: the second is the result, and it says so.
    m_server->enqueue(noToolCallAnswer(false));
    m_server->enqueue(toolCallAnswer(args(9, {0, 0, 0, 0, 1, 0, 0, 0}), false));
    s = run(engine, batch(forecaster, 1, 1, true));
    QCOMPARE(s.parseFailed, 1);
    QCOMPARE(m_server->requestCount() - before, 4);
    QCOMPARE(forecastsOf(forecaster).last().errorText, u"predicted_bin is 9, outside 1..8 (after one retry)"_s);
}

void TestForecastEngine::concurrencyLimit()
{
    OpenAiServer server; // its own, so the most open requests at once count this test's only
    QVERIFY(server.listen());
    const RowId forecaster = addForecaster(true, true, 1, 2, 10000, &server);
    server.setResponder([](const RecordedRequest &) {
        ScriptedResponse r = toolCallAnswer(forecastArguments(), false);
        r.headersDelayMs = 100;
        return r;
    });
    const ForecastSummary s = run(batch(forecaster, 3, 2));
    QCOMPARE(s.ok, 6);
    QCOMPARE(server.requestCount(), 6);
    QCOMPARE(server.maxOpenRequests(), 2);
}

void TestForecastEngine::cancel()
{
    const RowId forecaster = addForecaster();
    m_server->setResponder([](const RecordedRequest &) {
        ScriptedResponse r = toolCallAnswer(forecastArguments(), true);
        r.headersDelayMs = 10000;
        return r;
    });
    ForecastEngine engine;
    engine.setStorePath(m_path);
    const ForecastBatch b = batch(forecaster, 3);
    std::optional<ForecastSummary> summary;
    connect(&engine, &ForecastEngine::batchFinished, this, [&](quint64, const ForecastSummary &s) { summary = s; });
    const int before = m_server->requestCount();
    engine.enqueue(b);
    QTRY_COMPARE(m_server->requestCount() - before, 3);
    engine.cancel(b.id);
    QVERIFY(summary.has_value());
    QCOMPARE(summary->cancelled, 3);
    QCOMPARE(summary->requested, 3);
    QCOMPARE(forecastsOf(forecaster).size(), 0);
}

void TestForecastEngine::otherKinds()
{
    // A synchronous backend (the cost model answers inside start()) goes through the same queue.
    Forecaster cost;
    cost.name = u"cost"_s;
    cost.kind = ForecasterKind::CostModel;
    QVERIFY(ForecasterRepo(*m_store).ensure(cost).ok());
    ForecastSummary s = run(batch(cost.id, 3, 2));
    QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
    QCOMPARE(s.requested, 6);
    QCOMPARE(s.ok + s.parseFailed + s.errors, 6);
    QCOMPARE(forecastsOf(cost.id).size(), 6);
    s = run(batch(cost.id, 3, 2));
    QCOMPARE(s.cached, 6);
    Forecaster imported;
    imported.name = u"paper-gemini"_s;
    imported.kind = ForecasterKind::Import;
    QVERIFY(ForecasterRepo(*m_store).ensure(imported).ok());
    s = run(batch(imported.id));
    QCOMPARE(s.error, u"forecaster 'paper-gemini' holds imported forecasts; it cannot be run"_s);
    Forecaster broken;
    broken.name = u"broken"_s;
    broken.kind = ForecasterKind::Llm;
    broken.config = QJsonObject {{u"model"_s, u"m"_s}};
    QVERIFY(ForecasterRepo(*m_store).ensure(broken).ok());
    s = run(batch(broken.id));
    QCOMPARE(s.error, u"forecaster 'broken': endpoint is missing"_s);
    s = run(batch(9999));
    QCOMPARE(s.error, u"no forecaster with id 9999 in the store"_s);
}

// The GUI's handle: the engine on a thread of its own, values back by queued signals on this thread.
void TestForecastEngine::queueOnItsOwnThread()
{
    const RowId forecaster = addForecaster();
    m_server->setResponder([](const RecordedRequest &) {
        ScriptedResponse r = toolCallAnswer(forecastArguments(), true);
        for (HttpChunk &chunk : r.chunks)
            chunk.delayMs = 2; // long enough for the watch to arrive while it streams
        return r;
    });
    std::optional<ForecastSummary> summary;
    QString reasoning;
    int stored = 0;
    {
        ForecastQueue queue(ForecastEngineConfig {50, 20, {}});
        QThread *const self = QThread::currentThread();
        connect(&queue, &ForecastQueue::batchFinished, this, [&](quint64, const ForecastSummary &s) {
            QCOMPARE(QThread::currentThread(), self);
            summary = s;
        });
        connect(&queue, &ForecastQueue::reasoningUpdated, this,
            [&](const ForecastReasoning &r) { reasoning = r.replace ? r.text : reasoning + r.text; });
        connect(&queue, &ForecastQueue::forecastStored, this, [&](const Forecast &) { ++stored; });
        queue.setStorePath(m_path);
        queue.watch(ForecastPair {m_reference, m_candidates.at(1)});
        ForecastBatch b = batch(forecaster, 3);
        b.id = 0;
        const quint64 id = queue.enqueue(b);
        QCOMPARE(id, quint64(1));
        QTRY_VERIFY_WITH_TIMEOUT(summary.has_value(), 20000);
        QCOMPARE(summary->ok, 3);
        QCOMPARE(stored, 3);
        QTRY_COMPARE(queue.snapshot().items.size(), 3);
        QTRY_COMPARE(queue.snapshot().total.ok, 3);
        // A batch left running when the queue goes is cancelled, and nothing waits on it.
        queue.enqueue(batch(forecaster, 3, 1, true));
    }
    QCOMPARE(reasoning, u"The candidate fuses two passes.\n\nFusing the two passes halves global memory traffic."_s);
}

QTEST_GUILESS_MAIN(TestForecastEngine)
#include "tst_forecast_engine.moc"
