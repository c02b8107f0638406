// SseParser: line splitting over CR, LF and CR LF (even when the pair is cut between two feeds) and field handling.
#include "core/llm/sse_parser.h"

#include <utility>

namespace gpuf::llm {

void SseParser::feed(QByteArrayView bytes, QList<SseEvent> &events)
{
    const char *p = bytes.data();
    const char *const end = p + bytes.size();
    if (m_skipLineFeed && p != end) {
        if (*p == '\n')
            ++p;
        m_skipLineFeed = false;
    }
    while (p != end) {
        const char *eol = p;
        while (eol != end && *eol != '\n' && *eol != '\r')
            ++eol;
        if (eol == end) {
            m_line.append(p, end - p);
            return;
        }
        if (m_line.isEmpty()) {
            takeLine(QByteArrayView(p, eol - p), events);
        } else {
            m_line.append(p, eol - p);
            takeLine(m_line, events);
            m_line.clear();
        }
        p = eol + 1;
        if (*eol == '\r') {
            if (p == end)
                m_skipLineFeed = true;
            else if (*p == '\n')
                ++p;
        }
    }
}

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    QList<SseEvent> events;
    feed(bytes, events);
    return events;
}

bool SseParser::hasPartialEvent() const { return !m_line.isEmpty() || m_hasData || !m_event.isEmpty(); }

void SseParser::reset() { *this = SseParser(); }

void SseParser::takeLine(QByteArrayView line, QList<SseEvent> &events)
{
    if (m_firstLine) {
        m_firstLine = false;
        if (line.startsWith("\xEF\xBB\xBF"))
            line = line.sliced(3);
    }
    if (line.isEmpty()) { // dispatch
        if (m_hasData)
            events.append(SseEvent {std::exchange(m_event, {}), std::exchange(m_data, {})});
        m_event.clear();
        m_hasData = false;
        return;
    }
    if (line.front() == ':')
        return; // a comment, e.g. ": keep-alive"
    const qsizetype colon = line.indexOf(':');
    const QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);
    if (field == "data") {
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_event = value.toByteArray();
    }
    // "id" and "retry" matter only to reconnecting browsers; unknown fields are ignored by the format.
}

} // namespace gpuf::llm
