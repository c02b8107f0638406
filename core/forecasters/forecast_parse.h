// Reading a forecaster's answer exactly as paper-facts §2 says: the tool call (or, without tool calling, the JSON
// object in the reply), the field checks, and the renormalisation that keeps the raw sum. Pure: no I/O.
#pragma once

#include "core/bins/bins.h"
#include "core/common/result.h"
#include "core/llm/chat_types.h"

namespace gpuf::forecasters {

struct ParsedAnswer
{
    bins::Distribution probabilities {}; // renormalised by the raw sum
    int predictedBin = 0; // the model's own choice, 1..8 (not the argmax)
    double rawSum = 0.0; // the sum as the model gave it: a health signal
    QString reasoning;
};

// The rules on one arguments object (JSON text): predicted_bin an integer 1..8 (5.0 accepted, "5" not), each
// probability a number or a numeric string in [0, 1] (NaN and infinities refused, bare NaN literals included),
// reasoning a non-empty string, extra keys ignored; then renormalised (raw sum ≤ 0 ⇒ failure).
Result<ParsedAnswer> parseArguments(const QString &json);

// Tool-calling mode: the first call named submit_kernel_runtime_estimate; a different name or no call is a
// failure whose message keeps the finish reason and the first 200 characters of the content.
Result<ParsedAnswer> parseToolCalls(
    const QList<llm::ToolCall> &calls, const QString &finishReason, const QString &content);

// No-tool mode: the last JSON object in the reply text (fenced or not) that holds predicted_bin; a tool call with
// the right name is accepted too (some servers call tools even when none was offered).
Result<ParsedAnswer> parseContent(
    const QString &content, const QString &finishReason, const QList<llm::ToolCall> &calls = {});

// The mode's parser applied to a finished chat result.
Result<ParsedAnswer> parseChatAnswer(const llm::ChatResult &result, bool toolCalling);

// The first `n` characters of `text`, quoted for an error message (an ellipsis marks a cut).
QString excerpt(const QString &text, int n = 200);

} // namespace gpuf::forecasters
