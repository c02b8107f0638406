// Canned OpenAI-compatible answers for OpenAiServer: SSE bodies and how to split them, forced tool calls of the
// forecast tool (streamed or not), reasoning split at awkward byte boundaries, plain-content answers, errors.
#pragma once

#include "tests/support/openai_server.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLatin1StringView>
#include <QList>
#include <QString>

namespace gpuf::test {

inline constexpr QLatin1StringView kForecastTool {"submit_kernel_runtime_estimate"};

// --- building blocks ----------------------------------------------------------------------------------------------
QByteArray sseEvent(const QJsonObject &payload); // "data: {…}\n\n"
QByteArray sseBody(const QList<QJsonObject> &payloads, bool done = true); // events, then "data: [DONE]\n\n"
// The body cut before each offset (ascending, 0 < offset < size), every piece written after `delayMs`.
QList<HttpChunk> splitAt(const QByteArray &body, const QList<int> &offsets, int delayMs = 0);
QList<HttpChunk> oneChunk(const QByteArray &body);

ScriptedResponse sseResponse(QList<HttpChunk> chunks); // 200, text/event-stream, chunked transfer
ScriptedResponse jsonResponse(const QJsonObject &body, int status = 200);
// An error the way OpenAI shapes it: {"error":{"message":…,"type":…}}.
ScriptedResponse errorResponse(int status, const QString &message, const HeaderList &headers = {});

// A streamed chunk object: {"id","object":"chat.completion.chunk","choices":[{"index":0,"delta":delta,
// "finish_reason":…}]}; a null finishReason is sent as JSON null.
QJsonObject chunkObject(const QJsonObject &delta, const QString &finishReason = {});
QJsonObject usageChunk(int promptTokens, int completionTokens); // "choices": [] and "usage"
// A whole non-streamed answer around `message` ({"role":"assistant", …}).
QJsonObject completionObject(
    const QJsonObject &message, const QString &finishReason, int promptTokens = 100, int completionTokens = 50);

// --- forecasts -----------------------------------------------------------------------------------------------------
// Arguments of submit_kernel_runtime_estimate: the 8 probabilities p_* in bin order, predicted_bin, reasoning.
QJsonObject forecastArguments(int predictedBin, const QList<double> &probabilities, const QString &reasoning);
QJsonObject forecastArguments(); // bin 5, mass on 4–6, a one-sentence reasoning

// A forced tool call (finish_reason "tool_calls", usage 100/50). Streamed: reasoning_content pieces, then the call's
// id and name, then its arguments in pieces of 7 bytes, then the usage chunk and [DONE]; one chunk per event.
ScriptedResponse toolCallAnswer(const QJsonObject &arguments, bool stream, const QString &toolName = kForecastTool,
    const QString &reasoning = QStringLiteral("The candidate fuses two passes."));

// The streaming scenario with awkward cuts: reasoning through "reasoning" deltas and a <think> block inside content
// (its tags split across events), non-ASCII text, tool-call arguments in pieces; then the body is cut inside
// "data:", between \r and \n (CRLF lines), inside a multi-byte UTF-8 character and inside "<think>"/"</think>".
struct AwkwardStream
{
    ScriptedResponse response;
    QString reasoning; // what the client must report as reasoning
    QString content; // … as content (the <think> block removed)
    QString toolArguments; // … as the call's arguments
};
AwkwardStream awkwardReasoningToolCallStream(const QJsonObject &arguments);

// A plain assistant message (no tool call; finish_reason "stop"), streamed in pieces of 5 characters or whole.
ScriptedResponse contentAnswer(const QString &content, bool stream);
// The tool-less fallback: the arguments as a JSON object in the content.
ScriptedResponse jsonContentAnswer(const QJsonObject &arguments, bool stream);
ScriptedResponse noToolCallAnswer(bool stream); // prose only
ScriptedResponse wrongToolNameAnswer(const QJsonObject &arguments, bool stream); // calls "estimate_speedup"

// Realistic speed for benches: `reasoningTokens` reasoning events then the tool call's arguments in tokens of ~4
// bytes, one SSE event per token, each written `tokenDelayMs` after the previous one.
ScriptedResponse pacedForecastStream(int reasoningTokens, int tokenDelayMs, const QJsonObject &arguments);

// GET /models: {"object":"list","data":[{"id":…,"object":"model"},…]}.
ScriptedResponse modelsAnswer(const QStringList &ids);

} // namespace gpuf::test
