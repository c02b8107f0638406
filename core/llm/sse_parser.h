// SseParser: an incremental parser of a server-sent-events stream (the WHATWG text/event-stream format) fed with
// bytes cut anywhere — inside a line, a field name, a CR LF pair or a multi-byte character. Pure, no I/O.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace gpuf::llm {

struct SseEvent
{
    QByteArray event; // the "event:" field; empty for the default "message"
    QByteArray data; // "data:" lines joined with '\n'; bytes, so UTF-8 decodes only once the event is whole

    bool operator==(const SseEvent &) const = default;
};

class SseParser
{
public:
    // Appends the events the new bytes complete (a blank line ends an event; comments and events without data are
    // dropped, as the format says).
    void feed(QByteArrayView bytes, QList<SseEvent> &events);
    QList<SseEvent> feed(QByteArrayView bytes);

    // True when bytes of an unfinished line or event are held: a stream that ends now was cut short.
    bool hasPartialEvent() const;
    void reset();

private:
    void takeLine(QByteArrayView line, QList<SseEvent> &events);

    QByteArray m_line; // an unfinished line
    QByteArray m_data;
    QByteArray m_event;
    bool m_hasData = false;
    bool m_skipLineFeed = false; // the last byte was CR: a LF right after it ends no further line
    bool m_firstLine = true; // a UTF-8 byte-order mark may open the stream
};

} // namespace gpuf::llm
