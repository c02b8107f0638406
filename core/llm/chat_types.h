// Value types of one chat-completions exchange with an OpenAI-compatible endpoint (DESIGN §5): the endpoint
// profile, the request the forecaster builds, the streamed deltas and the finished result. They cross threads.
#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>

namespace gpuf::llm {

// Where and how to talk to one endpoint. Never holds the API key itself: `apiKeyEnv` names an environment
// variable and `keychainEntry` a QtKeychain entry; the key is looked up when a request is sent.
struct EndpointProfile
{
    QString name; // e.g. "local-vllm"
    QString baseUrl; // e.g. "http://127.0.0.1:8000/v1"; "/chat/completions" is appended
    QString model;
    double temperature = 1.0;
    int maxTokens = 16384;
    QString reasoningEffort; // "low" | "medium" | "high"; empty: not sent
    QList<QPair<QByteArray, QByteArray>> extraHeaders; // never an Authorization header (refused)
    int concurrency = 8; // requests in flight on this endpoint at most
    int totalTimeoutMs = 600000; // whole request, all attempts
    int idleTimeoutMs = 120000; // no byte received for this long: the attempt fails
    int connectTimeoutMs = 10000;
    int maxRetries = 3; // transport retries (connection errors, 429, 5xx); parse failures are not retried here
    int backoffBaseMs = 500; // exponential backoff with jitter; Retry-After wins when the server sends it
    bool stream = true;
    bool toolCalling = true; // false: the answer is a JSON object in the content (same validation)
    QString apiKeyEnv; // environment variable holding the key; empty: none
    QString keychainEntry; // QtKeychain entry holding the key; empty: none
};

struct ToolCall
{
    QString id;
    QString name;
    QString arguments; // JSON text as the server sent it (concatenated deltas)
};

struct ChatRequest
{
    quint64 id = 0; // chosen by the caller; unique among its open requests
    QJsonArray messages; // [{role, content}, …] exactly as sent
    QJsonArray tools; // OpenAI function-calling shape; empty: none
    QJsonObject toolChoice; // e.g. {"type":"function","function":{"name":…}}; empty: not sent
};

// An incremental piece of a streamed answer.
enum class DeltaKind { Content, Reasoning, ToolArguments };

struct ChatDelta
{
    quint64 requestId = 0;
    DeltaKind kind = DeltaKind::Content;
    QString text;
};

enum class ChatStatus {
    Ok, // a complete answer arrived (it may still fail to parse: that is the forecaster's business)
    Cancelled,
    TimedOut, // total or idle timeout after the last attempt
    HttpError, // a final non-retryable status, or retries exhausted on 429/5xx
    TransportError, // connection refused/reset, TLS, DNS… after the last attempt
    ProtocolError, // the body was not a chat-completions answer (broken JSON, broken SSE)
};

struct ChatResult
{
    quint64 requestId = 0;
    ChatStatus status = ChatStatus::Ok;
    QString error; // specific, human-readable; never contains the API key
    int httpStatus = 0;
    QString content; // assistant text, <think> blocks removed
    QString reasoning; // reasoning_content / reasoning fields and <think> blocks
    QList<ToolCall> toolCalls;
    QString finishReason;
    qint64 promptTokens = -1;
    qint64 completionTokens = -1;
    double latencySeconds = 0.0; // request start to the last byte, all attempts
    int attempts = 0;
    QByteArray requestBody; // the JSON body sent on the last attempt (holds no key: keys travel in headers)
    QByteArray rawResponse; // the body received (SSE text when streamed)
    bool streamed = false; // the answer came as server-sent events (a server may ignore stream=true)
};

// "ok", "cancelled", "timed_out", "http_error", "transport_error", "protocol_error": stable, for logs and the store.
QString chatStatusName(ChatStatus status);

// Registers the value types above for queued connections; idempotent and thread-safe.
void registerChatMetaTypes();

} // namespace gpuf::llm

Q_DECLARE_METATYPE(gpuf::llm::EndpointProfile)
Q_DECLARE_METATYPE(gpuf::llm::ChatRequest)
Q_DECLARE_METATYPE(gpuf::llm::ChatDelta)
Q_DECLARE_METATYPE(gpuf::llm::ChatResult)
