// Canned OpenAI-compatible answers: chat.completion(.chunk) objects, SSE framing and awkward splits.
#include "tests/support/openai_answers.h"

#include <QJsonDocument>

namespace gpuf::test {

namespace {

QByteArray compact(const QJsonObject &object) { return QJsonDocument(object).toJson(QJsonDocument::Compact); }

QJsonObject toolCallDelta(const QString &id, const QString &name, const QString &arguments)
{
    QJsonObject function {{QStringLiteral("arguments"), arguments}};
    QJsonObject call {{QStringLiteral("index"), 0}};
    if (!id.isEmpty()) {
        call.insert(QStringLiteral("id"), id);
        call.insert(QStringLiteral("type"), QStringLiteral("function"));
    }
    if (!name.isEmpty())
        function.insert(QStringLiteral("name"), name);
    call.insert(QStringLiteral("function"), function);
    return QJsonObject {{QStringLiteral("tool_calls"), QJsonArray {call}}};
}

QJsonObject textDelta(const QString &field, const QString &text) { return QJsonObject {{field, text}}; }

// Cuts text into pieces of `size` UTF-16 units (callers only pass text without surrogate pairs here).
QStringList pieces(const QString &text, int size)
{
    QStringList out;
    for (qsizetype i = 0; i < text.size(); i += size)
        out.append(text.mid(i, size));
    return out;
}

} // namespace

QByteArray sseEvent(const QJsonObject &payload) { return "data: " + compact(payload) + "\n\n"; }

QByteArray sseBody(const QList<QJsonObject> &payloads, bool done)
{
    QByteArray body;
    for (const QJsonObject &payload : payloads)
        body += sseEvent(payload);
    if (done)
        body += "data: [DONE]\n\n";
    return body;
}

QList<HttpChunk> splitAt(const QByteArray &body, const QList<int> &offsets, int delayMs)
{
    QList<HttpChunk> chunks;
    int from = 0;
    for (int offset : offsets) {
        chunks.append({body.mid(from, offset - from), delayMs});
        from = offset;
    }
    chunks.append({body.mid(from), delayMs});
    return chunks;
}

QList<HttpChunk> oneChunk(const QByteArray &body) { return {{body, 0}}; }

ScriptedResponse sseResponse(QList<HttpChunk> chunks)
{
    ScriptedResponse r;
    r.headers = {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}};
    r.chunks = std::move(chunks);
    r.chunked = true;
    return r;
}

ScriptedResponse jsonResponse(const QJsonObject &body, int status)
{
    ScriptedResponse r;
    r.status = status;
    r.headers = {{"Content-Type", "application/json"}};
    r.chunks = oneChunk(compact(body));
    return r;
}

ScriptedResponse errorResponse(int status, const QString &message, const HeaderList &headers)
{
    const QJsonObject error {
        {QStringLiteral("message"), message}, {QStringLiteral("type"), QStringLiteral("server_error")}};
    ScriptedResponse r = jsonResponse(QJsonObject {{QStringLiteral("error"), error}}, status);
    r.headers += headers;
    return r;
}

QJsonObject chunkObject(const QJsonObject &delta, const QString &finishReason)
{
    const QJsonObject choice {{QStringLiteral("index"), 0}, {QStringLiteral("delta"), delta},
        {QStringLiteral("finish_reason"), finishReason.isEmpty() ? QJsonValue() : QJsonValue(finishReason)}};
    return QJsonObject {{QStringLiteral("id"), QStringLiteral("chatcmpl-test")},
        {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")}, {QStringLiteral("created"), 1767225600},
        {QStringLiteral("model"), QStringLiteral("test-model")}, {QStringLiteral("choices"), QJsonArray {choice}}};
}

QJsonObject usageChunk(int promptTokens, int completionTokens)
{
    const QJsonObject usage {{QStringLiteral("prompt_tokens"), promptTokens},
        {QStringLiteral("completion_tokens"), completionTokens},
        {QStringLiteral("total_tokens"), promptTokens + completionTokens}};
    return QJsonObject {{QStringLiteral("id"), QStringLiteral("chatcmpl-test")},
        {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")}, {QStringLiteral("choices"), QJsonArray {}},
        {QStringLiteral("usage"), usage}};
}

QJsonObject completionObject(
    const QJsonObject &message, const QString &finishReason, int promptTokens, int completionTokens)
{
    const QJsonObject choice {{QStringLiteral("index"), 0}, {QStringLiteral("message"), message},
        {QStringLiteral("finish_reason"), finishReason}};
    const QJsonObject usage {{QStringLiteral("prompt_tokens"), promptTokens},
        {QStringLiteral("completion_tokens"), completionTokens},
        {QStringLiteral("total_tokens"), promptTokens + completionTokens}};
    return QJsonObject {{QStringLiteral("id"), QStringLiteral("chatcmpl-test")},
        {QStringLiteral("object"), QStringLiteral("chat.completion")},
        {QStringLiteral("model"), QStringLiteral("test-model")}, {QStringLiteral("choices"), QJsonArray {choice}},
        {QStringLiteral("usage"), usage}};
}

QJsonObject forecastArguments(int predictedBin, const QList<double> &probabilities, const QString &reasoning)
{
    static const char *const names[] = {"p_severe_slowdown", "p_significant_slowdown", "p_moderate_slowdown",
        "p_minor_slowdown", "p_minor_speedup", "p_significant_speedup", "p_high_speedup", "p_extreme_speedup"};
    QJsonObject arguments {{QStringLiteral("predicted_bin"), predictedBin}};
    for (int i = 0; i < 8; ++i)
        arguments.insert(QLatin1StringView(names[i]), probabilities.value(i));
    arguments.insert(QStringLiteral("reasoning"), reasoning);
    return arguments;
}

QJsonObject forecastArguments()
{
    return forecastArguments(5, {0.0, 0.0, 0.05, 0.2, 0.5, 0.2, 0.05, 0.0},
        QStringLiteral("Fusing the two passes halves global memory traffic."));
}

ScriptedResponse toolCallAnswer(
    const QJsonObject &arguments, bool stream, const QString &toolName, const QString &reasoning)
{
    const QString argumentText = QString::fromUtf8(compact(arguments));
    if (!stream) {
        const QJsonObject function {{QStringLiteral("name"), toolName}, {QStringLiteral("arguments"), argumentText}};
        const QJsonObject call {{QStringLiteral("id"), QStringLiteral("call_1")},
            {QStringLiteral("type"), QStringLiteral("function")}, {QStringLiteral("function"), function}};
        QJsonObject message {{QStringLiteral("role"), QStringLiteral("assistant")},
            {QStringLiteral("content"), QJsonValue()}, {QStringLiteral("tool_calls"), QJsonArray {call}}};
        if (!reasoning.isEmpty())
            message.insert(QStringLiteral("reasoning_content"), reasoning);
        return jsonResponse(completionObject(message, QStringLiteral("tool_calls")));
    }
    QList<QJsonObject> events {chunkObject(QJsonObject {{QStringLiteral("role"), QStringLiteral("assistant")}})};
    for (const QString &piece : pieces(reasoning, 6))
        events.append(chunkObject(textDelta(QStringLiteral("reasoning_content"), piece)));
    events.append(chunkObject(toolCallDelta(QStringLiteral("call_1"), toolName, QString())));
    for (const QString &piece : pieces(argumentText, 7))
        events.append(chunkObject(toolCallDelta(QString(), QString(), piece)));
    events.append(chunkObject(QJsonObject {}, QStringLiteral("tool_calls")));
    events.append(usageChunk(100, 50));
    QList<HttpChunk> chunks;
    for (const QJsonObject &event : std::as_const(events))
        chunks.append({sseEvent(event), 0});
    chunks.append({"data: [DONE]\n\n", 0});
    return sseResponse(chunks);
}

AwkwardStream awkwardReasoningToolCallStream(const QJsonObject &arguments)
{
    const QString argumentText = QString::fromUtf8(compact(arguments));
    QList<QJsonObject> events {
        chunkObject(QJsonObject {
            {QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), QString()}}),
        chunkObject(textDelta(QStringLiteral("reasoning"), QStringLiteral("Größere Blöcke "))),
        chunkObject(textDelta(QStringLiteral("reasoning"), QStringLiteral("→ fewer launches. "))),
        chunkObject(textDelta(QStringLiteral("content"), QStringLiteral("<thi"))),
        chunkObject(textDelta(QStringLiteral("content"), QStringLiteral("nk>Coalesced loads… "))),
        chunkObject(textDelta(QStringLiteral("content"), QStringLiteral("still memory-bound.</th"))),
        chunkObject(textDelta(QStringLiteral("content"), QStringLiteral("ink>\nVerdict: faster."))),
        chunkObject(toolCallDelta(QStringLiteral("call_awk"), kForecastTool, QString())),
    };
    for (const QString &piece : pieces(argumentText, 5))
        events.append(chunkObject(toolCallDelta(QString(), QString(), piece)));
    events.append(chunkObject(QJsonObject {}, QStringLiteral("tool_calls")));
    events.append(usageChunk(321, 123));
    // CRLF line ends, a keep-alive comment, then cuts at the awkward places.
    QByteArray body;
    for (qsizetype i = 0; i < events.size(); ++i) {
        body += "data: " + compact(events[i]) + "\r\n\r\n";
        if (i == 2)
            body += ": keep-alive\r\n\r\n";
    }
    body += "data: [DONE]\r\n\r\n";
    QList<int> cuts;
    const auto cutInside = [&](const QByteArray &needle, int into) {
        const qsizetype at = body.indexOf(needle, cuts.isEmpty() ? 0 : cuts.last());
        if (at >= 0)
            cuts.append(int(at + into));
    };
    cutInside("data:", 2); // "da|ta:"
    cutInside("\r\n", 1); // "\r|\n"
    cutInside("ö", 1); // inside a 2-byte character
    cutInside("→", 2); // inside a 3-byte character
    cutInside(": keep", 3);
    cutInside("<thi", 2); // "<t|hi"
    cutInside("…", 1);
    cutInside("</th", 3); // "</t|h"
    cutInside("ink>", 2);
    cutInside("call_awk", 4);
    cutInside("[DONE]", 3);
    AwkwardStream out;
    out.response = sseResponse(splitAt(body, cuts, 2));
    out.reasoning = QStringLiteral("Größere Blöcke → fewer launches. Coalesced loads… still memory-bound.");
    out.content = QStringLiteral("\nVerdict: faster.");
    out.toolArguments = argumentText;
    return out;
}

ScriptedResponse contentAnswer(const QString &content, bool stream)
{
    if (!stream) {
        const QJsonObject message {
            {QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), content}};
        return jsonResponse(completionObject(message, QStringLiteral("stop")));
    }
    QList<QJsonObject> events {chunkObject(QJsonObject {{QStringLiteral("role"), QStringLiteral("assistant")}})};
    for (const QString &piece : pieces(content, 5))
        events.append(chunkObject(textDelta(QStringLiteral("content"), piece)));
    events.append(chunkObject(QJsonObject {}, QStringLiteral("stop")));
    events.append(usageChunk(100, 50));
    return sseResponse(oneChunk(sseBody(events)));
}

ScriptedResponse jsonContentAnswer(const QJsonObject &arguments, bool stream)
{
    return contentAnswer(QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Indented)), stream);
}

ScriptedResponse noToolCallAnswer(bool stream)
{
    return contentAnswer(QStringLiteral("The candidate looks faster, probably by about a third."), stream);
}

ScriptedResponse wrongToolNameAnswer(const QJsonObject &arguments, bool stream)
{
    return toolCallAnswer(arguments, stream, QStringLiteral("estimate_speedup"));
}

ScriptedResponse pacedForecastStream(int reasoningTokens, int tokenDelayMs, const QJsonObject &arguments)
{
    QList<HttpChunk> chunks {
        {sseEvent(chunkObject(QJsonObject {{QStringLiteral("role"), QStringLiteral("assistant")}})), 0}};
    for (int i = 0; i < reasoningTokens; ++i) {
        const QString token = QStringLiteral(" tok%1").arg(i % 97);
        chunks.append({sseEvent(chunkObject(textDelta(QStringLiteral("reasoning_content"), token))), tokenDelayMs});
    }
    chunks.append(
        {sseEvent(chunkObject(toolCallDelta(QStringLiteral("call_1"), kForecastTool, QString()))), tokenDelayMs});
    for (const QString &piece : pieces(QString::fromUtf8(compact(arguments)), 4))
        chunks.append({sseEvent(chunkObject(toolCallDelta(QString(), QString(), piece))), tokenDelayMs});
    chunks.append({sseEvent(chunkObject(QJsonObject {}, QStringLiteral("tool_calls"))), tokenDelayMs});
    chunks.append({sseEvent(usageChunk(1200, reasoningTokens + 60)) + "data: [DONE]\n\n", 0});
    return sseResponse(chunks);
}

ScriptedResponse modelsAnswer(const QStringList &ids)
{
    QJsonArray data;
    for (const QString &id : ids)
        data.append(QJsonObject {{QStringLiteral("id"), id}, {QStringLiteral("object"), QStringLiteral("model")}});
    return jsonResponse(
        QJsonObject {{QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), data}});
}

} // namespace gpuf::test
