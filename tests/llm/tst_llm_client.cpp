// Tests for ChatClient against the scripted OpenAI-compatible server on loopback: real sockets, real SSE, each
// scenario with its exact outcome (status, error text, attempts, what was sent and received).
#include "core/llm/api_key.h"
#include "core/llm/chat_client.h"
#include "tests/llm/llm_test_support.h"

#include <QElapsedTimer>
#include <QThread>

#include <optional>

using namespace gpuf;
using namespace gpuf::llm;
using namespace gpuf::llm::testing;

class TestLlmClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void normalToolCall_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::newRow("streamed") << true;
        QTest::newRow("whole") << false;
    }
    void normalToolCall()
    {
        QFETCH(bool, stream);
        OpenAiServer server;
        QVERIFY(server.listen());
        const QJsonObject arguments = forecastArguments();
        server.enqueue(toolCallAnswer(arguments, stream));
        EndpointProfile profile = fastProfile(server);
        profile.stream = stream;
        profile.reasoningEffort = QStringLiteral("medium");
        profile.temperature = 0.7;
        profile.maxTokens = 2048;
        profile.extraHeaders = {{"X-Title", "gpuf tests"}};
        Session session(profile);
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.error, QString());
        QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(r.requestId, quint64(1));
        QCOMPARE(r.httpStatus, 200);
        QCOMPARE(r.attempts, 1);
        QCOMPARE(r.streamed, stream);
        QCOMPARE(r.toolCalls.size(), 1);
        QCOMPARE(r.toolCalls[0].id, QStringLiteral("call_1"));
        QCOMPARE(r.toolCalls[0].name, QString(kForecastTool));
        QCOMPARE(r.toolCalls[0].arguments, argumentsText(arguments));
        QCOMPARE(r.reasoning, QStringLiteral("The candidate fuses two passes."));
        QCOMPARE(r.content, QString());
        QCOMPARE(r.finishReason, QStringLiteral("tool_calls"));
        QCOMPARE(r.promptTokens, qint64(100));
        QCOMPARE(r.completionTokens, qint64(50));
        QVERIFY(r.latencySeconds > 0.0);
        QVERIFY(!r.rawResponse.isEmpty());
        if (stream) {
            QCOMPARE(joined(session.deltas, DeltaKind::Reasoning), r.reasoning);
            QCOMPARE(joined(session.deltas, DeltaKind::ToolArguments), r.toolCalls[0].arguments);
            QVERIFY(!session.deltas.isEmpty());
        } else {
            QCOMPARE(session.deltas.size(), 0);
        }
        // What went over the wire.
        QCOMPARE(server.requestCount(), 1);
        const RecordedRequest sent = server.requests().first();
        QCOMPARE(sent.method, QByteArray("POST"));
        QCOMPARE(sent.path, QByteArray("/v1/chat/completions"));
        QCOMPARE(sent.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(sent.header("X-Title"), QByteArray("gpuf tests"));
        QCOMPARE(sent.header("Authorization"), QByteArray());
        QCOMPARE(sent.body, r.requestBody);
        const QJsonObject body = sent.json();
        QCOMPARE(body.value(QLatin1StringView("model")).toString(), QStringLiteral("test-model"));
        QCOMPARE(body.value(QLatin1StringView("messages")).toArray(), forecastRequest(1).messages);
        QCOMPARE(body.value(QLatin1StringView("tools")).toArray(), forecastRequest(1).tools);
        QCOMPARE(body.value(QLatin1StringView("tool_choice")).toObject(), forecastRequest(1).toolChoice);
        QCOMPARE(body.value(QLatin1StringView("temperature")).toDouble(), 0.7);
        QCOMPARE(body.value(QLatin1StringView("max_tokens")).toInt(), 2048);
        QCOMPARE(body.value(QLatin1StringView("reasoning_effort")).toString(), QStringLiteral("medium"));
        QCOMPARE(body.value(QLatin1StringView("stream")).toBool(), stream);
        QCOMPARE(body.value(QLatin1StringView("stream_options"))
                     .toObject()
                     .value(QLatin1StringView("include_usage"))
                     .toBool(),
            stream);
    }

    void awkwardlySplitStream()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        const AwkwardStream scenario = awkwardReasoningToolCallStream(forecastArguments());
        server.enqueue(scenario.response);
        Session session(fastProfile(server));
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.error, QString());
        QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(r.reasoning, scenario.reasoning);
        QCOMPARE(r.content, scenario.content);
        QCOMPARE(r.toolCalls.size(), 1);
        QCOMPARE(r.toolCalls[0].id, QStringLiteral("call_awk"));
        QCOMPARE(r.toolCalls[0].name, QString(kForecastTool));
        QCOMPARE(r.toolCalls[0].arguments, scenario.toolArguments);
        QCOMPARE(r.finishReason, QStringLiteral("tool_calls"));
        QCOMPARE(r.promptTokens, qint64(321));
        QCOMPARE(r.completionTokens, qint64(123));
        QCOMPARE(r.rawResponse, scenario.response.body());
        // The deltas add up to the same text, arrive in order, and come per event, not per byte.
        QCOMPARE(joined(session.deltas, DeltaKind::Reasoning), scenario.reasoning);
        QCOMPARE(joined(session.deltas, DeltaKind::Content), scenario.content);
        QCOMPARE(joined(session.deltas, DeltaKind::ToolArguments), scenario.toolArguments);
        QVERIFY(session.deltas.size() <= scenario.response.body().count("data: "));
    }

    void plainJsonAnswer_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::newRow("streamed") << true;
        QTest::newRow("whole") << false;
    }
    void plainJsonAnswer()
    {
        QFETCH(bool, stream);
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(jsonContentAnswer(forecastArguments(), stream));
        EndpointProfile profile = fastProfile(server);
        profile.stream = stream;
        profile.toolCalling = false;
        Session session(profile);
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(r.toolCalls.size(), 0);
        QCOMPARE(r.content, QString::fromUtf8(QJsonDocument(forecastArguments()).toJson(QJsonDocument::Indented)));
        QCOMPARE(QJsonDocument::fromJson(r.content.toUtf8()).object(), forecastArguments());
        QCOMPARE(r.finishReason, QStringLiteral("stop"));
    }

    void noToolCall()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(noToolCallAnswer(true));
        Session session(fastProfile(server));
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(r.toolCalls.size(), 0);
        QCOMPARE(r.content, QStringLiteral("The candidate looks faster, probably by about a third."));
        QCOMPARE(joined(session.deltas, DeltaKind::Content), r.content);
        QCOMPARE(r.finishReason, QStringLiteral("stop"));
    }

    void wrongToolNameIsReportedIntact()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(wrongToolNameAnswer(forecastArguments(), true));
        Session session(fastProfile(server));
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(r.toolCalls.size(), 1);
        QCOMPARE(r.toolCalls[0].name, QStringLiteral("estimate_speedup"));
        QCOMPARE(r.toolCalls[0].arguments, argumentsText(forecastArguments()));
    }

    void invalidJson_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("error");
        QTest::newRow("whole body") << false << QStringLiteral("response is not JSON: ");
        QTest::newRow("stream event") << true << QStringLiteral("stream event is not JSON");
    }
    void invalidJson()
    {
        QFETCH(bool, stream);
        QFETCH(QString, error);
        OpenAiServer server;
        QVERIFY(server.listen());
        ScriptedResponse broken;
        if (stream) {
            broken = sseResponse(
                oneChunk("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\": [\n\n"));
        } else {
            broken.headers = {{"Content-Type", "application/json"}};
            broken.chunks = oneChunk("{\"choices\": [{\"message\": ");
        }
        server.enqueue(broken);
        server.enqueue(toolCallAnswer(forecastArguments(), stream)); // never used: protocol errors are not retried
        EndpointProfile profile = fastProfile(server);
        profile.stream = stream;
        Session session(profile);
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::ProtocolError);
        QVERIFY2(r.error.startsWith(error), qPrintable(r.error));
        QCOMPARE(r.attempts, 1);
        QCOMPARE(server.requestCount(), 1);
    }

    void retryAfterHonoured()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(errorResponse(429, QStringLiteral("Rate limit reached"), {{"Retry-After", "1"}}));
        server.enqueue(toolCallAnswer(forecastArguments(), true));
        EndpointProfile profile = fastProfile(server);
        Session session(profile);
        QElapsedTimer clock;
        clock.start();
        const ChatResult r = session.run(forecastRequest(1));
        const qint64 waited = clock.elapsed();
        QCOMPARE(r.error, QString());
        QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(r.attempts, 2);
        QCOMPARE(server.requestCount(), 2);
        QVERIFY2(waited >= 1000, qPrintable(QString::number(waited)));
        QVERIFY(r.latencySeconds >= 1.0);
        QCOMPARE(r.toolCalls.size(), 1);
    }

    void serverErrorThenSuccess()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(errorResponse(500, QStringLiteral("boom")));
        server.enqueue(toolCallAnswer(forecastArguments(), true));
        Session session(fastProfile(server));
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(r.attempts, 2);
        QCOMPARE(r.httpStatus, 200);
        QCOMPARE(r.toolCalls.value(0).arguments, argumentsText(forecastArguments()));
    }

    void serverErrorForever()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder([](const RecordedRequest &) { return errorResponse(500, QStringLiteral("boom")); });
        Session session(fastProfile(server));
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::HttpError);
        QCOMPARE(r.error, QStringLiteral("HTTP 500: boom"));
        QCOMPARE(r.httpStatus, 500);
        QCOMPARE(r.attempts, 3); // maxRetries 2
        QCOMPARE(server.requestCount(), 3);
    }

    void clientErrorsAreNotRetried_data()
    {
        QTest::addColumn<int>("status");
        QTest::newRow("400") << 400;
        QTest::newRow("401") << 401;
        QTest::newRow("404") << 404;
    }
    void clientErrorsAreNotRetried()
    {
        QFETCH(int, status);
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder(
            [status](const RecordedRequest &) { return errorResponse(status, QStringLiteral("no such thing")); });
        Session session(fastProfile(server));
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::HttpError);
        QCOMPARE(r.error, QStringLiteral("HTTP %1: no such thing").arg(status));
        QCOMPARE(r.attempts, 1);
        QCOMPARE(server.requestCount(), 1);
    }

    void stalledStreamHitsIdleTimeout()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        ScriptedResponse stalled = toolCallAnswer(forecastArguments(), true);
        stalled.fault = Fault::Stall;
        stalled.faultAfterChunk = 4; // role + reasoning pieces, then silence
        server.enqueue(stalled);
        Session session(fastProfile(server));
        QElapsedTimer clock;
        clock.start();
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::TimedOut);
        QCOMPARE(r.error, QStringLiteral("no data for 0.3 s (idle timeout)"));
        QCOMPARE(r.attempts, 1); // pieces were delivered: not started over
        QCOMPARE(r.reasoning, QStringLiteral("The candidate fuses two "));
        QVERIFY(clock.elapsed() >= 300); // not before the idle timeout; the error text says which timeout ended it
        QTRY_COMPARE(server.openRequests(), 0); // the connection was dropped
    }

    void silentServerIsRetriedThenTimesOut()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder([](const RecordedRequest &) {
            ScriptedResponse silent;
            silent.fault = Fault::Stall; // not even headers
            silent.headersDelayMs = 100000;
            return silent;
        });
        EndpointProfile profile = fastProfile(server);
        profile.maxRetries = 1;
        Session session(profile);
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::TimedOut);
        QCOMPARE(r.error, QStringLiteral("no data for 0.3 s (idle timeout)"));
        QCOMPARE(r.attempts, 2);
        QCOMPARE(server.requestCount(), 2);
    }

    void totalTimeout()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        ScriptedResponse slow = toolCallAnswer(forecastArguments(), true);
        for (HttpChunk &chunk : slow.chunks)
            chunk.delayMs = 100; // never idle, but too slow overall
        server.enqueue(slow);
        EndpointProfile profile = fastProfile(server);
        profile.totalTimeoutMs = 700;
        Session session(profile);
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::TimedOut);
        QVERIFY2(r.error.startsWith(QStringLiteral("total timeout after 0.7 s (1 attempt)")), qPrintable(r.error));
        QCOMPARE(r.attempts, 1);
        QVERIFY(!r.reasoning.isEmpty()); // what came so far is kept
    }

    void connectionResetMidStream_data()
    {
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("word");
        QTest::newRow("reset") << int(Fault::Reset) << QStringLiteral("reset");
        QTest::newRow("close") << int(Fault::Close) << QStringLiteral("closed");
    }
    void connectionResetMidStream()
    {
        QFETCH(int, fault);
        QFETCH(QString, word);
        OpenAiServer server;
        QVERIFY(server.listen());
        ScriptedResponse cut = toolCallAnswer(forecastArguments(), true);
        cut.fault = Fault(fault);
        cut.faultAfterChunk = 8; // the reasoning, the call's name and a first piece of its arguments
        cut.faultDelayMs = 50;
        qsizetype sent = 0;
        for (int i = 0; i <= cut.faultAfterChunk; ++i)
            sent += cut.chunks[i].data.size();
        server.enqueue(cut);
        Session session(fastProfile(server));
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::TransportError);
        QVERIFY2(r.error.startsWith(QStringLiteral("connection %1 after %2 bytes").arg(word).arg(sent)),
            qPrintable(r.error));
        QCOMPARE(r.attempts, 1);
        QCOMPARE(r.reasoning, QStringLiteral("The candidate fuses two passes.")); // what came is kept
        QCOMPARE(r.toolCalls.value(0).name, QString(kForecastTool));
        QCOMPARE(r.rawResponse.size(), sent);
    }

    void connectionRefused()
    {
        const quint16 port = closedPort();
        EndpointProfile profile;
        profile.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
        profile.model = QStringLiteral("m");
        profile.maxRetries = 1;
        profile.backoffBaseMs = 10;
        Session session(profile);
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::TransportError);
        QCOMPARE(r.error, QStringLiteral("connection refused to 127.0.0.1:%1").arg(port));
        QCOMPARE(r.attempts, 2);
        QCOMPARE(r.httpStatus, 0);
    }

    void cancelInFlight()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        ScriptedResponse slow = toolCallAnswer(forecastArguments(), true);
        slow.headersDelayMs = 10000;
        server.enqueue(slow);
        EndpointProfile profile = fastProfile(server);
        profile.idleTimeoutMs = 20000;
        Session session(profile);
        session.client.submit(forecastRequest(7));
        QTRY_COMPARE(server.openRequests(), 1);
        session.client.cancel(7);
        // At once, inside cancel(): the server has not even sent its headers (10 s away), so the result cannot be
        // its answer or a timeout (20 s away).
        QCOMPARE(session.results.size(), 1);
        QCOMPARE(session.results[0].requestId, quint64(7));
        QCOMPARE(session.results[0].status, ChatStatus::Cancelled);
        QCOMPARE(session.results[0].attempts, 1);
        QTRY_COMPARE_WITH_TIMEOUT(server.openRequests(), 0, 1000); // the connection was dropped
        session.client.cancel(7); // unknown by now: nothing more
        QTest::qWait(20);
        QCOMPARE(session.results.size(), 1);
    }

    void cancelMidStreamAndQueued()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        ScriptedResponse slow = toolCallAnswer(forecastArguments(), true);
        for (HttpChunk &chunk : slow.chunks)
            chunk.delayMs = 30;
        server.enqueue(slow);
        EndpointProfile profile = fastProfile(server);
        profile.concurrency = 1;
        Session session(profile);
        session.client.submit(forecastRequest(1));
        session.client.submit(forecastRequest(2)); // waits behind 1
        QTRY_VERIFY(!session.deltas.isEmpty());
        session.client.cancel(2);
        QCOMPARE(session.results.size(), 1);
        QCOMPARE(session.results[0].requestId, quint64(2));
        QCOMPARE(session.results[0].status, ChatStatus::Cancelled);
        QCOMPARE(session.results[0].error, QStringLiteral("cancelled before it was sent"));
        QCOMPARE(session.results[0].attempts, 0);
        session.client.cancelAll();
        QCOMPARE(session.results.size(), 2);
        QCOMPARE(session.results[1].requestId, quint64(1));
        QCOMPARE(session.results[1].status, ChatStatus::Cancelled);
        QVERIFY(!session.results[1].reasoning.isEmpty()); // what came before the cancel
        const qsizetype deltasAtCancel = session.deltas.size();
        QTest::qWait(100);
        QCOMPARE(session.deltas.size(), deltasAtCancel); // nothing after finished()
        QCOMPARE(server.requestCount(), 1); // request 2 never left
    }

    void concurrencyLimit()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder([](const RecordedRequest &) {
            ScriptedResponse r = toolCallAnswer(forecastArguments(), true);
            for (HttpChunk &chunk : r.chunks)
                chunk.delayMs = 2;
            return r;
        });
        EndpointProfile profile = fastProfile(server);
        profile.concurrency = 3;
        Session session(profile);
        for (quint64 id = 1; id <= 10; ++id)
            session.client.submit(forecastRequest(id));
        QVERIFY(waitUntil([&] { return session.results.size() == 10; }));
        for (const ChatResult &r : std::as_const(session.results))
            QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(server.maxOpenRequests(), 3);
        // FIFO: the server saw the requests in submission order.
        const QList<RecordedRequest> requests = server.requests();
        for (int i = 0; i < 10; ++i) {
            const QString user = requests[i]
                                     .json()
                                     .value(QLatin1StringView("messages"))
                                     .toArray()
                                     .at(1)
                                     .toObject()
                                     .value(QLatin1StringView("content"))
                                     .toString();
            QCOMPARE(user, QStringLiteral("request %1").arg(i + 1));
        }
    }

    void manyStreamsAreReadInBatches()
    {
        // Beyond 4 transfers the client reads in 40 ms batches: pieces of one batch merge, nothing is lost or
        // reordered.
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder([](const RecordedRequest &) {
            ScriptedResponse r = pacedForecastStream(40, 3, forecastArguments());
            return r;
        });
        const ScriptedResponse sample = pacedForecastStream(40, 3, forecastArguments());
        EndpointProfile profile = fastProfile(server);
        profile.concurrency = 12;
        Session session(profile);
        for (quint64 id = 1; id <= 12; ++id)
            session.client.submit(forecastRequest(id));
        QVERIFY(waitUntil([&] { return session.results.size() == 12; }));
        QString reasoning;
        for (int i = 0; i < 40; ++i)
            reasoning += QStringLiteral(" tok%1").arg(i);
        for (const ChatResult &r : std::as_const(session.results)) {
            QCOMPARE(r.status, ChatStatus::Ok);
            QCOMPARE(r.reasoning, reasoning);
            QCOMPARE(joined(session.deltas, DeltaKind::Reasoning, r.requestId), reasoning);
            QCOMPARE(joined(session.deltas, DeltaKind::ToolArguments, r.requestId), argumentsText(forecastArguments()));
        }
        QVERIFY2(
            session.deltas.size() < 12 * sample.chunks.size() / 2, qPrintable(QString::number(session.deltas.size())));
    }

    void apiKeyOnlyInTheHeader()
    {
        const QByteArray secret = "sk-test-5EcReT-0123456789";
        qputenv("GPUF_TEST_LLM_KEY", secret);
        OpenAiServer server;
        QVERIFY(server.listen());
        // Servers sometimes quote the key back; it must not survive into any result field.
        server.enqueue(contentAnswer(QStringLiteral("your key is ") + QString::fromLatin1(secret), true));
        server.enqueue(
            errorResponse(401, QStringLiteral("Incorrect API key provided: ") + QString::fromLatin1(secret)));
        EndpointProfile profile = fastProfile(server);
        profile.apiKeyEnv = QStringLiteral("GPUF_TEST_LLM_KEY");
        Session session(profile);
        const ChatResult ok = session.run(forecastRequest(1));
        const ChatResult failed = session.run(forecastRequest(2));
        qunsetenv("GPUF_TEST_LLM_KEY");
        QCOMPARE(ok.status, ChatStatus::Ok);
        QCOMPARE(failed.status, ChatStatus::HttpError);
        QCOMPARE(failed.error, QStringLiteral("HTTP 401: Incorrect API key provided: [API key]"));
        for (const RecordedRequest &sent : server.requests()) {
            QCOMPARE(sent.header("Authorization"), QByteArray("Bearer " + secret));
            QVERIFY(!sent.body.contains(secret));
        }
        QCOMPARE(fieldHolding(ok, QString::fromLatin1(secret)), QString());
        QCOMPARE(fieldHolding(failed, QString::fromLatin1(secret)), QString());
        QCOMPARE(ok.content, QStringLiteral("your key is [API key]"));
        QVERIFY(!session.deltas.isEmpty());
        for (const ChatDelta &d : std::as_const(session.deltas))
            QVERIFY(!d.text.contains(QString::fromLatin1(secret)));
    }

    void missingKeyAndForbiddenHeader()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        EndpointProfile profile = fastProfile(server);
        profile.apiKeyEnv = QStringLiteral("GPUF_TEST_LLM_KEY_THAT_IS_NOT_SET");
        Session missing(profile);
        const ChatResult r = missing.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::TransportError);
        QCOMPARE(r.error, QStringLiteral("API key: environment variable GPUF_TEST_LLM_KEY_THAT_IS_NOT_SET is not set"));
        QCOMPARE(r.attempts, 0);

        EndpointProfile withHeader = fastProfile(server);
        withHeader.extraHeaders = {{"authorization", "Bearer sneaky"}};
        Session refused(withHeader);
        const ChatResult h = refused.run(forecastRequest(2));
        QCOMPARE(h.status, ChatStatus::TransportError);
        QCOMPARE(h.error,
            QStringLiteral("extra headers may not set Authorization: the API key comes from an environment variable or "
                           "the keychain"));
        QCOMPARE(server.requestCount(), 0);
    }

    void keychainEntryThatCannotBeRead()
    {
        if (qEnvironmentVariableIsSet("DBUS_SESSION_BUS_ADDRESS"))
            QSKIP("a session bus is up: this would query the user's own keychain");
        OpenAiServer server;
        QVERIFY(server.listen());
        EndpointProfile profile = fastProfile(server);
        profile.keychainEntry = QStringLiteral("gpuf-test-missing-entry");
        Session session(profile);
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::TransportError);
        QVERIFY2(r.error.startsWith(QStringLiteral("API key: keychain entry \"gpuf-test-missing-entry\": ")),
            qPrintable(r.error));
        QCOMPARE(r.attempts, 0);
        QCOMPARE(server.requestCount(), 0);

        std::optional<Status> stored;
        storeApiKey(QStringLiteral("gpuf-test-missing-entry"), QStringLiteral("sk-x"), this,
            [&](const Status &s) { stored = s; });
        QVERIFY(waitUntil([&] { return stored.has_value(); }));
        QVERIFY2(stored->error().startsWith(QStringLiteral("keychain entry \"gpuf-test-missing-entry\": ")),
            qPrintable(stored->error()));
        std::optional<Status> empty;
        storeApiKey(QStringLiteral("e"), QString(), this, [&](const Status &s) { empty = s; });
        QVERIFY(waitUntil([&] { return empty.has_value(); }));
        QCOMPARE(empty->error(), QStringLiteral("a keychain entry needs a name and a key"));
    }

    void streamRequestAnsweredWhole()
    {
        // Servers that ignore stream=true answer with one JSON body: parsed as such, marked not streamed.
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(toolCallAnswer(forecastArguments(), false));
        Session session(fastProfile(server));
        const ChatResult r = session.run(forecastRequest(1));
        QCOMPARE(r.status, ChatStatus::Ok);
        QCOMPARE(r.streamed, false);
        QCOMPARE(r.toolCalls.value(0).arguments, argumentsText(forecastArguments()));
    }

    void clientOnItsOwnThread()
    {
        OpenAiServer server(OpenAiServer::Threading::OwnThread);
        QVERIFY(server.listen());
        server.setResponder([](const RecordedRequest &) { return toolCallAnswer(forecastArguments(), true); });
        QThread thread;
        auto *client = new ChatClient(fastProfile(server));
        client->moveToThread(&thread);
        connect(&thread, &QThread::finished, client, &QObject::deleteLater);
        thread.start();
        QList<ChatResult> results;
        QList<ChatDelta> deltas;
        connect(client, &ChatClient::finished, this, [&](const ChatResult &r) { results.append(r); });
        connect(client, &ChatClient::delta, this, [&](const ChatDelta &d) { deltas.append(d); });
        for (quint64 id = 1; id <= 4; ++id)
            QMetaObject::invokeMethod(
                client, "submit", Qt::QueuedConnection, Q_ARG(gpuf::llm::ChatRequest, forecastRequest(id)));
        QVERIFY(waitUntil([&] { return results.size() == 4; }));
        for (const ChatResult &r : std::as_const(results)) {
            QCOMPARE(r.status, ChatStatus::Ok);
            QCOMPARE(joined(deltas, DeltaKind::ToolArguments, r.requestId), r.toolCalls.value(0).arguments);
        }
        thread.quit();
        QVERIFY(thread.wait(kWaitMs));
    }
};

QTEST_GUILESS_MAIN(TestLlmClient)
#include "tst_llm_client.moc"
