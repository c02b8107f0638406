// The forecaster prompt (paper-facts §2, in our own words): a system message (role, speedup, bins table,
// probability rules, ten analysis factors, answer format) and a user message (operation, both kernels, hardware),
// the tool schema the answer must be submitted through, and a variant for servers without tool calling.
#pragma once

#include "core/forecasters/backend.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>

namespace gpuf::forecasters {

// Bumped whenever the text or the schema changes: it is part of every LLM forecast's cache key.
inline constexpr QLatin1StringView kPromptVersion {"gpuf-1"};
inline constexpr QLatin1StringView kToolName {"submit_kernel_runtime_estimate"};

// Default: the bins table shows the ground-truth geometry (core/bins). Paper: the authors' table (upper-inclusive
// edges 0.25 … 4.0), for comparisons with their published runs.
enum class PromptProfile { Default, Paper };

QString promptProfileName(PromptProfile profile); // "default" | "paper"
std::optional<PromptProfile> promptProfileFromName(const QString &name);

struct PromptOptions
{
    PromptProfile profile = PromptProfile::Default;
    bool toolCalling = true; // false: the answer is one JSON object in the reply text
};

// One row of the bins table as the prompt shows it.
struct BinRow
{
    int bin = 0;
    QString name;
    QString range; // e.g. "0.5 ≤ S < 0.7071" or "0.71 < S ≤ 1.0"
    QString description;
};
QList<BinRow> binTable(PromptProfile profile);

// The answer's fields: predicted_bin, p_<bin key> for bins 1..8 in order, reasoning.
QString probabilityField(int bin); // "p_severe_slowdown" … "p_extreme_speedup"
QStringList answerFields();

QString systemMessage(const PromptOptions &options);
QString userMessage(const ForecastRequest &request, const PromptOptions &options);
// [{"role":"system",…}, {"role":"user",…}]: exactly what is sent and stored.
QJsonArray promptMessages(const ForecastRequest &request, const PromptOptions &options);

// The 8-row table; empty for no hardware.
QString hardwareTable(const std::optional<Hardware> &hardware);
// The info string of a fenced block for a kernel language ("cuda", "python", …; "" when unknown).
QString fenceLanguage(const QString &language);
// `source` in a fenced block whose fence is longer than any backtick run inside it.
QString fencedBlock(const QString &source, const QString &language);

// {"type":"function","function":{name, description, parameters}}: a flat JSON Schema, every field required.
QJsonObject toolDefinition();
// {"type":"function","function":{"name":"submit_kernel_runtime_estimate"}}
QJsonObject toolChoice();

} // namespace gpuf::forecasters
