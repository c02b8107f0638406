// The request side of a chat-completions exchange and the retry policy, as pure functions: the JSON body, profile
// checks, Retry-After parsing and the backoff schedule.
#pragma once

#include "core/common/result.h"
#include "core/llm/chat_types.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QDateTime>

#include <optional>

namespace gpuf::llm {

// {model, messages, temperature, max_tokens, [reasoning_effort], [tools, tool_choice], stream,
// [stream_options {include_usage: true}]}, compact.
QByteArray buildRequestBody(const EndpointProfile &profile, const ChatRequest &request, bool stream);

// What makes a profile unusable before anything is sent: no base URL or model, an extra header that sets
// Authorization (keys come from the environment or the keychain only) or that holds a line break.
Status checkProfile(const EndpointProfile &profile);

// Retry-After as milliseconds from `now`: delay-seconds ("120") or an HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT");
// nothing when unparsable. A date in the past gives 0.
std::optional<qint64> parseRetryAfterMs(QByteArrayView value, const QDateTime &now);

// The wait before attempt `attempt` + 1 (attempt ≥ 1 failed): base·2^(attempt−1), scaled by a jitter factor in
// [0.5, 1.5) drawn from `unitRandom` ∈ [0, 1), at most 60 s.
qint64 backoffDelayMs(int backoffBaseMs, int attempt, double unitRandom);

// 408, 429 and 5xx are worth another attempt; other statuses are final.
bool isRetryableHttpStatus(int status);

// "0.3 s", "2.0 s", "12.5 s": the seconds in error messages.
QString formatSeconds(double seconds);

} // namespace gpuf::llm
