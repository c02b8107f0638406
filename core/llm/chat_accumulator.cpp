// ChatAccumulator and ThinkSplitter: the shapes servers actually send — reasoning in either field, content as text
// or parts, tool calls by index (or without one), repeated names, arguments as text or as an object.
#include "core/llm/chat_accumulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gpuf::llm {

namespace {

constexpr QStringView kOpenTag = u"<think>";
constexpr QStringView kCloseTag = u"</think>";

// How many characters at the end of `text` could begin `tag` (a proper prefix of it).
qsizetype partialTagLength(QStringView text, QStringView tag)
{
    for (qsizetype k = std::min(text.size(), tag.size() - 1); k > 0; --k) {
        if (text.endsWith(tag.first(k)))
            return k;
    }
    return 0;
}

QString errorObjectMessage(const QJsonValue &error)
{
    if (error.isString())
        return error.toString();
    const QJsonObject object = error.toObject();
    const QString message = object.value(QLatin1StringView("message")).toString();
    return message.isEmpty() ? QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)) : message;
}

QString bodyStart(QByteArrayView body, qsizetype characters)
{
    return QString::fromUtf8(body.first(std::min<qsizetype>(body.size(), characters * 4)))
        .left(characters)
        .simplified();
}

} // namespace

ThinkSplitter::Pieces ThinkSplitter::feed(QStringView text)
{
    Pieces out;
    QString joined;
    if (!m_held.isEmpty()) {
        joined = m_held + text;
        m_held.clear();
        text = joined;
    }
    while (!text.isEmpty()) {
        const QStringView tag = m_inside ? kCloseTag : kOpenTag;
        QString &target = m_inside ? out.reasoning : out.content;
        const qsizetype at = text.indexOf(tag);
        if (at >= 0) {
            target += text.first(at);
            text = text.sliced(at + tag.size());
            m_inside = !m_inside;
            continue;
        }
        const qsizetype held = partialTagLength(text, tag);
        target += text.first(text.size() - held);
        m_held = text.last(held).toString();
        break;
    }
    return out;
}

ThinkSplitter::Pieces ThinkSplitter::finish()
{
    Pieces out;
    (m_inside ? out.reasoning : out.content) = std::exchange(m_held, {});
    return out;
}

Status ChatAccumulator::addChunk(const QByteArray &json, QList<ChatDelta> &deltas)
{
    std::optional<ChunkFields> fields = scanChunk(json);
    if (!fields) { // unusual shapes, errors and broken text: let Qt parse (and word the problem)
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(json, &error);
        if (!document.isObject()) {
            return Error {QStringLiteral("stream event is not JSON (%1): %2")
                              .arg(error.error == QJsonParseError::NoError ? QStringLiteral("not an object")
                                                                           : error.errorString(),
                                  bodyStart(json, 100))};
        }
        fields = chunkFields(document.object());
    }
    if (fields->hasError)
        return Error {QStringLiteral("the server sent an error in the stream: ") + fields->errorMessage};
    if (fields->hasChoice) {
        addMessage(fields->delta, true, &deltas);
        if (!fields->finishReason.isEmpty())
            m_finishReason = fields->finishReason;
    }
    if (fields->hasUsage)
        addUsage(fields->promptTokens, fields->completionTokens);
    return {};
}

Status ChatAccumulator::addWhole(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (!document.isObject()) {
        const QString why = error.error == QJsonParseError::NoError
            ? QStringLiteral("not an object")
            : QStringLiteral("%1 at offset %2").arg(error.errorString()).arg(error.offset);
        return Error {QStringLiteral("response is not JSON: %1; it starts with \"%2\"").arg(why, bodyStart(json, 100))};
    }
    const QJsonObject answer = document.object();
    if (answer.contains(QLatin1StringView("error")))
        return Error {QStringLiteral("the server answered with an error: ")
            + errorObjectMessage(answer.value(QLatin1StringView("error")))};
    const QJsonArray choices = answer.value(QLatin1StringView("choices")).toArray();
    if (choices.isEmpty())
        return Error {QStringLiteral("response has no choices: ") + bodyStart(json, 200)};
    const QJsonObject choice = choices.first().toObject();
    addMessage(messageFields(choice.value(QLatin1StringView("message")).toObject()), false, nullptr);
    finish();
    m_finishReason = choice.value(QLatin1StringView("finish_reason")).toString();
    const QJsonValue usage = answer.value(QLatin1StringView("usage"));
    if (usage.isObject()) {
        addUsage(usage.toObject().value(QLatin1StringView("prompt_tokens")).toInteger(-1),
            usage.toObject().value(QLatin1StringView("completion_tokens")).toInteger(-1));
    }
    return {};
}

void ChatAccumulator::finish(QList<ChatDelta> *deltas)
{
    const ThinkSplitter::Pieces rest = m_think.finish();
    m_content += rest.content;
    m_reasoning += rest.reasoning;
    if (deltas && !rest.content.isEmpty())
        deltas->append(ChatDelta {m_requestId, DeltaKind::Content, rest.content});
    if (deltas && !rest.reasoning.isEmpty())
        deltas->append(ChatDelta {m_requestId, DeltaKind::Reasoning, rest.reasoning});
}

void ChatAccumulator::addMessage(const MessageFields &message, bool streamed, QList<ChatDelta> *deltas)
{
    // vLLM sends the same text in both fields; the others send one of them.
    QString reasoning = message.reasoningContent.isEmpty() ? message.reasoning : message.reasoningContent;
    ThinkSplitter::Pieces pieces;
    if (!message.content.isEmpty())
        pieces = m_think.feed(message.content);
    reasoning += pieces.reasoning;
    QString arguments;
    addToolCalls(message.toolCalls, arguments);
    m_reasoning += reasoning;
    m_content += pieces.content;
    if (!streamed || !deltas)
        return;
    if (!reasoning.isEmpty())
        deltas->append(ChatDelta {m_requestId, DeltaKind::Reasoning, reasoning});
    if (!pieces.content.isEmpty())
        deltas->append(ChatDelta {m_requestId, DeltaKind::Content, pieces.content});
    if (!arguments.isEmpty())
        deltas->append(ChatDelta {m_requestId, DeltaKind::ToolArguments, arguments});
    m_delivered = m_delivered || !reasoning.isEmpty() || !pieces.content.isEmpty() || !arguments.isEmpty();
}

void ChatAccumulator::addToolCalls(const QList<ToolCallDelta> &calls, QString &argumentsDelta)
{
    for (const ToolCallDelta &call : calls) {
        qsizetype at = -1;
        if (call.index >= 0) {
            at = m_toolIndex.indexOf(call.index);
        } else if (!m_toolCalls.isEmpty() && (call.id.isEmpty() || m_toolCalls.last().id == call.id)) {
            at = m_toolCalls.size() - 1; // no index: a continuation of the last call unless a new id starts one
        }
        if (at < 0) {
            m_toolCalls.append(ToolCall {});
            m_toolIndex.append(call.index >= 0 ? call.index : int(m_toolCalls.size() - 1));
            at = m_toolCalls.size() - 1;
        }
        ToolCall &target = m_toolCalls[at];
        if (target.id.isEmpty())
            target.id = call.id;
        if (!call.name.isEmpty() && call.name != target.name)
            target.name += call.name; // names come once, or in pieces; a repeated whole name is not appended again
        target.arguments += call.arguments;
        argumentsDelta += call.arguments;
    }
}

void ChatAccumulator::addUsage(qint64 promptTokens, qint64 completionTokens)
{
    if (promptTokens >= 0)
        m_promptTokens = promptTokens;
    if (completionTokens >= 0)
        m_completionTokens = completionTokens;
}

void ChatAccumulator::fill(ChatResult &result) const
{
    result.content = m_content;
    result.reasoning = m_reasoning;
    result.toolCalls = m_toolCalls;
    result.finishReason = m_finishReason;
    result.promptTokens = m_promptTokens;
    result.completionTokens = m_completionTokens;
}

QString serverErrorMessage(QByteArrayView body)
{
    const QJsonDocument document = QJsonDocument::fromJson(body.toByteArray());
    if (document.isObject()) {
        const QJsonObject object = document.object();
        QString message;
        if (object.contains(QLatin1StringView("error")))
            message = errorObjectMessage(object.value(QLatin1StringView("error")));
        else if (object.value(QLatin1StringView("message")).isString())
            message = object.value(QLatin1StringView("message")).toString();
        else if (object.contains(QLatin1StringView("detail")))
            message = object.value(QLatin1StringView("detail")).isString()
                ? object.value(QLatin1StringView("detail")).toString()
                : QString::fromUtf8(
                    QJsonDocument(object.value(QLatin1StringView("detail")).toArray()).toJson(QJsonDocument::Compact));
        if (!message.isEmpty())
            return message.left(300).simplified();
    }
    return bodyStart(body, 300);
}

} // namespace gpuf::llm
