// The fields of one streamed chat-completions chunk that the accumulator uses, read either from a parsed
// QJsonObject or by a single forward scan of the JSON text (no document built): the scan is the per-token hot
// path of streaming and gives up (nullopt) on anything but the plain shapes servers send, leaving those to Qt.
#pragma once

#include <QByteArrayView>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace gpuf::llm {

struct ToolCallDelta
{
    int index = -1; // -1: the server sent none
    QString id;
    QString name;
    QString arguments;

    bool operator==(const ToolCallDelta &) const = default;
};

// One assistant message or message delta.
struct MessageFields
{
    QString content; // text parts joined when the server sends parts
    QString reasoningContent;
    QString reasoning;
    QList<ToolCallDelta> toolCalls;

    bool operator==(const MessageFields &) const = default;
};

struct ChunkFields
{
    bool hasChoice = false;
    MessageFields delta; // of the first choice
    QString finishReason;
    bool hasUsage = false;
    qint64 promptTokens = -1;
    qint64 completionTokens = -1;
    bool hasError = false;
    QString errorMessage;

    bool operator==(const ChunkFields &) const = default;
};

MessageFields messageFields(const QJsonObject &message);
ChunkFields chunkFields(const QJsonObject &chunk);

// The same fields by one scan of `json`; nullopt for anything unusual (an error object, content parts, arguments
// that are not a string, numbers that are not plain integers, invalid UTF-8 or JSON): then parse with Qt.
std::optional<ChunkFields> scanChunk(QByteArrayView json);

} // namespace gpuf::llm
