// Accumulating one chat-completions answer — streamed chunk objects one at a time, or a whole non-streamed answer —
// into content, reasoning (reasoning_content / reasoning fields and <think> blocks), tool calls, finish reason and
// usage. Pure, no I/O.
#pragma once

#include "core/common/result.h"
#include "core/llm/chat_types.h"
#include "core/llm/chunk_fields.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringView>

namespace gpuf::llm {

// Moves <think>…</think> blocks out of content text that arrives in pieces; a tag may be cut anywhere, so a piece
// that ends with the start of a tag is held back until the next one shows whether it is one.
class ThinkSplitter
{
public:
    struct Pieces
    {
        QString content;
        QString reasoning;
    };
    Pieces feed(QStringView text);
    Pieces finish(); // the end of the answer: text held back is what it looked like
    bool insideThink() const { return m_inside; }

private:
    bool m_inside = false;
    QString m_held;
};

class ChatAccumulator
{
public:
    explicit ChatAccumulator(quint64 requestId = 0)
        : m_requestId(requestId)
    { }

    // One streamed chunk: the JSON text of one SSE event's data. Appends at most one delta per kind it carries.
    // An error when it is not a JSON object or when it is an error object the server sent mid-stream.
    Status addChunk(const QByteArray &json, QList<ChatDelta> &deltas);
    // A whole non-streamed answer ({"choices":[{"message":…}], "usage":…}).
    Status addWhole(const QByteArray &json);
    // The answer ended: flushes what the think splitter held back (appended to deltas when given).
    void finish(QList<ChatDelta> *deltas = nullptr);

    bool sawFinishReason() const { return !m_finishReason.isEmpty(); }
    bool deliveredAnything() const { return m_delivered; }
    // Copies content, reasoning, tool calls, finish reason and token counts into `result`.
    void fill(ChatResult &result) const;

private:
    void addMessage(const MessageFields &message, bool streamed, QList<ChatDelta> *deltas);
    void addToolCalls(const QList<ToolCallDelta> &calls, QString &argumentsDelta);
    void addUsage(qint64 promptTokens, qint64 completionTokens);

    quint64 m_requestId;
    ThinkSplitter m_think;
    QString m_content;
    QString m_reasoning;
    QList<ToolCall> m_toolCalls;
    QList<int> m_toolIndex; // the server's "index" of each entry of m_toolCalls
    QString m_finishReason;
    qint64 m_promptTokens = -1;
    qint64 m_completionTokens = -1;
    bool m_delivered = false;
};

// The server's own words from an error body ({"error":{"message"}}, {"error":"…"}, {"message"}, {"detail"}), else
// the body's start; at most 300 characters.
QString serverErrorMessage(QByteArrayView body);

} // namespace gpuf::llm
