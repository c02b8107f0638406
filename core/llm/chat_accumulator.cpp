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

QString contentText(const QJsonValue &content)
{
    if (content.isString())
        return content.toString();
    QString text; // content parts: [{"type":"text","text":…}, …]
    const QJsonArray parts = content.toArray();
    for (const QJsonValue &part : parts)
        text += part.toObject().value(QLatin1StringView("text")).toString();
    return text;
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
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (!document.isObject()) {
        return Error {
            QStringLiteral("stream event is not JSON (%1): %2")
                .arg(error.error == QJsonParseError::NoError ? QStringLiteral("not an object") : error.errorString(),
                    bodyStart(json, 100))};
    }
    const QJsonObject chunk = document.object();
    if (chunk.contains(QLatin1StringView("error")))
        return Error {QStringLiteral("the server sent an error in the stream: ")
            + errorObjectMessage(chunk.value(QLatin1StringView("error")))};
    const QJsonArray choices = chunk.value(QLatin1StringView("choices")).toArray();
    if (!choices.isEmpty()) {
        const QJsonObject choice = choices.first().toObject();
        addMessage(choice.value(QLatin1StringView("delta")).toObject(), true, &deltas);
        const QString finish = choice.value(QLatin1StringView("finish_reason")).toString();
        if (!finish.isEmpty())
            m_finishReason = finish;
    }
    addUsage(chunk.value(QLatin1StringView("usage")));
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
    addMessage(choice.value(QLatin1StringView("message")).toObject(), false, nullptr);
    finish();
    m_finishReason = choice.value(QLatin1StringView("finish_reason")).toString();
    addUsage(answer.value(QLatin1StringView("usage")));
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

void ChatAccumulator::addMessage(const QJsonObject &message, bool streamed, QList<ChatDelta> *deltas)
{
    // vLLM sends the same text in both fields; the others send one of them.
    QString reasoning = message.value(QLatin1StringView("reasoning_content")).toString();
    if (reasoning.isEmpty())
        reasoning = message.value(QLatin1StringView("reasoning")).toString();
    const QString content = contentText(message.value(QLatin1StringView("content")));
    ThinkSplitter::Pieces pieces;
    if (!content.isEmpty())
        pieces = m_think.feed(content);
    reasoning += pieces.reasoning;
    QString arguments;
    addToolCalls(message.value(QLatin1StringView("tool_calls")).toArray(), arguments);
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

void ChatAccumulator::addToolCalls(const QJsonArray &calls, QString &argumentsDelta)
{
    for (const QJsonValue &value : calls) {
        const QJsonObject call = value.toObject();
        const int index = call.value(QLatin1StringView("index")).toInt(-1);
        const QString id = call.value(QLatin1StringView("id")).toString();
        qsizetype at = -1;
        if (index >= 0) {
            at = m_toolIndex.indexOf(index);
        } else if (!m_toolCalls.isEmpty() && (id.isEmpty() || m_toolCalls.last().id == id)) {
            at = m_toolCalls.size() - 1; // no index: a continuation of the last call unless a new id starts one
        }
        if (at < 0) {
            m_toolCalls.append(ToolCall {});
            m_toolIndex.append(index >= 0 ? index : int(m_toolCalls.size() - 1));
            at = m_toolCalls.size() - 1;
        }
        ToolCall &target = m_toolCalls[at];
        if (target.id.isEmpty())
            target.id = id;
        const QJsonObject function = call.value(QLatin1StringView("function")).toObject();
        const QString name = function.value(QLatin1StringView("name")).toString();
        if (!name.isEmpty() && name != target.name)
            target.name += name; // names come once, or in pieces; a repeated whole name is not appended again
        const QJsonValue arguments = function.value(QLatin1StringView("arguments"));
        const QString piece = arguments.isObject()
            ? QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact))
            : arguments.toString();
        target.arguments += piece;
        argumentsDelta += piece;
    }
}

void ChatAccumulator::addUsage(const QJsonValue &usage)
{
    if (!usage.isObject())
        return;
    const QJsonObject object = usage.toObject();
    m_promptTokens = object.value(QLatin1StringView("prompt_tokens")).toInteger(m_promptTokens);
    m_completionTokens = object.value(QLatin1StringView("completion_tokens")).toInteger(m_completionTokens);
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
