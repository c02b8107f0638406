// Reading a forecaster's answer; see forecast_parse.h.
#include "core/forecasters/forecast_parse.h"

#include "core/forecasters/prompt.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace gpuf::forecasters {
namespace {

// JSON has no NaN or infinity, yet models (and Python's json.dumps) write NaN, Infinity and -Infinity as bare
// words. They are turned into strings carrying this marker, so the field check can say "is NaN" instead of the
// whole object failing as invalid JSON.
const QString kBareMarker = QStringLiteral("\u0001bare:");

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); }

QString quoteBareNonFinite(const QString &json)
{
    static const QStringList words {QStringLiteral("NaN"), QStringLiteral("-NaN"), QStringLiteral("Infinity"),
        QStringLiteral("-Infinity"), QStringLiteral("nan"), QStringLiteral("-nan"), QStringLiteral("inf"),
        QStringLiteral("-inf")};
    QString out;
    out.reserve(json.size());
    bool inString = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const QChar c = json.at(i);
        if (inString) {
            out += c;
            if (c == QLatin1Char('\\') && i + 1 < json.size())
                out += json.at(++i);
            else if (c == QLatin1Char('"'))
                inString = false;
            continue;
        }
        if (c == QLatin1Char('"')) {
            inString = true;
            out += c;
            continue;
        }
        if ((c == QLatin1Char('-') || c.isLetter()) && (i == 0 || !isWordChar(json.at(i - 1)))) {
            qsizetype end = i + 1;
            while (end < json.size() && isWordChar(json.at(end)))
                ++end;
            const QString word = json.mid(i, end - i);
            if (words.contains(word)) {
                // Written as a \u0001 escape: a raw control character inside a JSON string is invalid.
                out += QStringLiteral("\"\\u0001bare:") + word + QLatin1Char('"');
                i = end - 1;
                continue;
            }
        }
        out += c;
    }
    return out;
}

QString describe(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String: {
        const QString s = value.toString();
        if (s.startsWith(kBareMarker))
            return s.mid(kBareMarker.size());
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    case QJsonValue::Double:
        return QString::number(value.toDouble());
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

Result<int> readBin(const QJsonValue &value)
{
    const QString field = QStringLiteral("predicted_bin");
    if (value.isString() && value.toString().startsWith(kBareMarker))
        return Error {QStringLiteral("%1 is %2, not an integer").arg(field, describe(value))};
    if (value.isString())
        return Error {QStringLiteral("%1 is the string %2; an integer is required").arg(field, describe(value))};
    if (!value.isDouble())
        return Error {QStringLiteral("%1 is %2; an integer is required").arg(field, describe(value))};
    const double v = value.toDouble();
    if (v != std::floor(v))
        return Error {QStringLiteral("%1 is %2, not an integer").arg(field, describe(value))};
    if (v < 1.0 || v > double(bins::kBinCount))
        return Error {QStringLiteral("%1 is %2, outside 1..8").arg(field, describe(value))};
    return int(v);
}

Result<double> readProbability(const QString &field, const QJsonValue &value)
{
    double p = 0.0;
    if (value.isDouble()) {
        p = value.toDouble();
    } else if (value.isString()) {
        const QString text = value.toString();
        if (text.startsWith(kBareMarker))
            return Error {QStringLiteral("%1 is %2").arg(field, describe(value))};
        bool ok = false;
        p = text.trimmed().toDouble(&ok);
        if (!ok)
            return Error {QStringLiteral("%1 is %2, not a number").arg(field, describe(value))};
    } else {
        return Error {QStringLiteral("%1 is %2, not a number").arg(field, describe(value))};
    }
    if (std::isnan(p))
        return Error {QStringLiteral("%1 is NaN").arg(field)};
    if (!(p >= 0.0 && p <= 1.0))
        return Error {QStringLiteral("%1 is %2, outside [0, 1]").arg(field, describe(value))};
    return p;
}

Result<ParsedAnswer> checkObject(const QJsonObject &args)
{
    ParsedAnswer answer;
    for (const QString &field : answerFields()) {
        if (!args.contains(field))
            return Error {QStringLiteral("%1 is missing").arg(field)};
    }
    auto bin = readBin(args.value(QStringLiteral("predicted_bin")));
    if (!bin)
        return Error {bin.error()};
    answer.predictedBin = *bin;
    bins::Distribution raw {};
    for (int b = 1; b <= bins::kBinCount; ++b) {
        const QString field = probabilityField(b);
        auto p = readProbability(field, args.value(field));
        if (!p)
            return Error {p.error()};
        raw[b - 1] = *p;
    }
    const QJsonValue reasoning = args.value(QStringLiteral("reasoning"));
    if (!reasoning.isString() || reasoning.toString().startsWith(kBareMarker))
        return Error {QStringLiteral("reasoning is %1, not a string").arg(describe(reasoning))};
    if (reasoning.toString().trimmed().isEmpty())
        return Error {QStringLiteral("reasoning is empty")};
    answer.reasoning = reasoning.toString();
    answer.rawSum = 0.0;
    for (double p : raw)
        answer.rawSum += p;
    const auto renormalised = bins::renormalised(raw);
    if (!renormalised)
        return Error {QStringLiteral("the probabilities sum to %1; nothing to renormalise").arg(answer.rawSum)};
    answer.probabilities = *renormalised;
    return answer;
}

// Where the object starting at `open` ends (one past its closing brace), string-aware; -1 when it does not close.
qsizetype objectEnd(const QString &text, qsizetype open)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = open; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (inString) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == QLatin1Char('"'))
                inString = false;
        } else if (c == QLatin1Char('"')) {
            inString = true;
        } else if (c == QLatin1Char('{')) {
            ++depth;
        } else if (c == QLatin1Char('}') && --depth == 0) {
            return i + 1;
        }
    }
    return -1;
}

QString context(const QString &finishReason, const QString &content)
{
    return QStringLiteral("finish reason: %1; content: %2")
        .arg(finishReason.isEmpty() ? QStringLiteral("none") : finishReason, excerpt(content));
}

} // namespace

QString excerpt(const QString &text, int n)
{
    if (text.size() <= n)
        return QLatin1Char('"') + text + QLatin1Char('"');
    return QLatin1Char('"') + text.left(n) + QStringLiteral("\"…");
}

Result<ParsedAnswer> parseArguments(const QString &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(quoteBareNonFinite(json).toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        return Error {
            QStringLiteral("the arguments are not valid JSON (%1): %2").arg(error.errorString(), excerpt(json))};
    if (!doc.isObject())
        return Error {QStringLiteral("the arguments are not a JSON object: %1").arg(excerpt(json))};
    return checkObject(doc.object());
}

Result<ParsedAnswer> parseToolCalls(
    const QList<llm::ToolCall> &calls, const QString &finishReason, const QString &content)
{
    for (const llm::ToolCall &call : calls) {
        if (call.name == kToolName)
            return parseArguments(call.arguments);
    }
    if (calls.isEmpty())
        return Error {QStringLiteral("no tool call in the answer (%1)").arg(context(finishReason, content))};
    return Error {QStringLiteral("the model called '%1' instead of %2 (%3)")
                      .arg(calls.first().name, kToolName, context(finishReason, content))};
}

Result<ParsedAnswer> parseContent(
    const QString &content, const QString &finishReason, const QList<llm::ToolCall> &calls)
{
    // The latest object that mentions predicted_bin is the answer; earlier braces belong to prose or code.
    std::optional<QString> lastError;
    for (qsizetype open = content.lastIndexOf(QLatin1Char('{')); open >= 0;
         open = open == 0 ? -1 : content.lastIndexOf(QLatin1Char('{'), open - 1)) {
        const qsizetype end = objectEnd(content, open);
        if (end < 0)
            continue;
        const QString candidate = content.mid(open, end - open);
        if (!candidate.contains(QLatin1StringView("\"predicted_bin\"")))
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(quoteBareNonFinite(candidate).toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            if (!lastError)
                lastError = QStringLiteral("the answer's JSON object is not valid JSON (%1): %2")
                                .arg(error.errorString(), excerpt(candidate));
            continue;
        }
        return checkObject(doc.object());
    }
    for (const llm::ToolCall &call : calls) {
        if (call.name == kToolName)
            return parseArguments(call.arguments);
    }
    if (lastError)
        return Error {*lastError};
    return Error {
        QStringLiteral("no JSON object with predicted_bin in the answer (%1)").arg(context(finishReason, content))};
}

Result<ParsedAnswer> parseChatAnswer(const llm::ChatResult &result, bool toolCalling)
{
    if (toolCalling)
        return parseToolCalls(result.toolCalls, result.finishReason, result.content);
    return parseContent(result.content, result.finishReason, result.toolCalls);
}

} // namespace gpuf::forecasters
