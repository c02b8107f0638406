// Helpers shared by the core/llm suites that talk to the scripted loopback server: fast profiles, a forecast-shaped
// request, waiting in a real event loop, a client with its signals recorded, a port nothing listens on.
#pragma once

#include "core/llm/chat_client.h"
#include "tests/support/openai_answers.h"
#include "tests/support/openai_server.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTest>
#include <QTimer>

#include <functional>

namespace gpuf::llm::testing {

using namespace gpuf::test;

inline constexpr int kWaitMs = 5000;

inline EndpointProfile fastProfile(const OpenAiServer &server)
{
    EndpointProfile profile;
    profile.name = QStringLiteral("loopback");
    profile.baseUrl = server.baseUrl();
    profile.model = QStringLiteral("test-model");
    profile.idleTimeoutMs = 300;
    profile.totalTimeoutMs = 5000;
    profile.connectTimeoutMs = 1000;
    profile.maxRetries = 2;
    profile.backoffBaseMs = 20;
    return profile;
}

inline ChatRequest forecastRequest(quint64 id)
{
    ChatRequest request;
    request.id = id;
    request.messages = QJsonArray {
        QJsonObject {{QStringLiteral("role"), QStringLiteral("system")},
            {QStringLiteral("content"), QStringLiteral("You simulate GPUs.")}},
        QJsonObject {{QStringLiteral("role"), QStringLiteral("user")},
            {QStringLiteral("content"), QStringLiteral("request %1").arg(id)}},
    };
    const QJsonObject function {{QStringLiteral("name"), kForecastTool},
        {QStringLiteral("parameters"), QJsonObject {{QStringLiteral("type"), QStringLiteral("object")}}}};
    request.tools = QJsonArray {
        QJsonObject {{QStringLiteral("type"), QStringLiteral("function")}, {QStringLiteral("function"), function}}};
    request.toolChoice = QJsonObject {{QStringLiteral("type"), QStringLiteral("function")},
        {QStringLiteral("function"), QJsonObject {{QStringLiteral("name"), kForecastTool}}}};
    return request;
}

inline QString argumentsText(const QJsonObject &arguments)
{
    return QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact));
}

inline QString joined(const QList<ChatDelta> &deltas, DeltaKind kind, quint64 id = 1)
{
    QString text;
    for (const ChatDelta &d : deltas) {
        if (d.kind == kind && d.requestId == id)
            text += d.text;
    }
    return text;
}

// Runs a real event loop until `done` holds (checked every few milliseconds) or the time is up. QTest::qWait sleeps
// 10 ms between rounds of events, which would slow every streamed piece down.
inline bool waitUntil(const std::function<bool()> &done, int timeoutMs = kWaitMs)
{
    if (done())
        return true;
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    poll.start(2);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

// A client on the test's thread with its signals recorded.
struct Session
{
    explicit Session(const EndpointProfile &profile)
        : client(profile)
    {
        QObject::connect(&client, &ChatClient::delta, &client, [this](const ChatDelta &d) { deltas.append(d); });
        QObject::connect(&client, &ChatClient::finished, &client, [this](const ChatResult &r) { results.append(r); });
    }
    // Submits and waits for its finished(); the result, or a default one with an error when none came.
    ChatResult run(const ChatRequest &request)
    {
        const qsizetype before = results.size();
        client.submit(request);
        if (!waitUntil([&] { return results.size() > before; }))
            return ChatResult {request.id, ChatStatus::TransportError, QStringLiteral("test: no finished() signal")};
        return results.last();
    }

    ChatClient client;
    QList<ChatDelta> deltas;
    QList<ChatResult> results;
};

// A port nothing listens on.
inline quint16 closedPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

// Any text field of a result that holds `secret`; empty when none does.
inline QString fieldHolding(const ChatResult &r, const QString &secret)
{
    const QByteArray bytes = secret.toUtf8();
    if (r.error.contains(secret))
        return QStringLiteral("error");
    if (r.content.contains(secret))
        return QStringLiteral("content");
    if (r.reasoning.contains(secret))
        return QStringLiteral("reasoning");
    if (r.finishReason.contains(secret))
        return QStringLiteral("finishReason");
    if (r.requestBody.contains(bytes))
        return QStringLiteral("requestBody");
    if (r.rawResponse.contains(bytes))
        return QStringLiteral("rawResponse");
    for (const ToolCall &call : r.toolCalls) {
        if (call.id.contains(secret) || call.name.contains(secret) || call.arguments.contains(secret))
            return QStringLiteral("toolCalls");
    }
    return {};
}

// Answers like a server with the given abilities: tool calls and streaming honoured or ignored.
inline Responder capableServer(bool tools, bool streaming)
{
    return [tools, streaming](const RecordedRequest &request) {
        const QJsonObject body = request.json();
        const bool stream = streaming && body.value(QLatin1StringView("stream")).toBool();
        if (tools && body.contains(QLatin1StringView("tools"))) {
            const QString name = body.value(QLatin1StringView("tool_choice"))
                                     .toObject()
                                     .value(QLatin1StringView("function"))
                                     .toObject()
                                     .value(QLatin1StringView("name"))
                                     .toString();
            return toolCallAnswer(QJsonObject {{QStringLiteral("value"), 7}}, stream, name, QString());
        }
        return contentAnswer(QStringLiteral("OK"), stream);
    };
}

} // namespace gpuf::llm::testing
