// Offsets and lines in JSON text; see json_offsets.h.
#include "core/interop/json_offsets.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cstring>

namespace gpuf::interop {

namespace {

// The offset just past the string whose opening quote is at `open`. An escaped quote is preceded by an odd run of
// backslashes; each backslash is looked at once per quote that follows it directly, so this stays linear.
qsizetype skipString(QByteArrayView json, qsizetype open)
{
    const char *data = json.data();
    const qsizetype size = json.size();
    qsizetype from = open + 1;
    while (from < size) {
        const void *found = std::memchr(data + from, '"', size_t(size - from));
        if (!found)
            return size;
        const qsizetype quote = static_cast<const char *>(found) - data;
        qsizetype backslashes = 0;
        while (quote - backslashes - 1 > open && data[quote - backslashes - 1] == '\\')
            ++backslashes;
        if (backslashes % 2 == 0)
            return quote + 1;
        from = quote + 1;
    }
    return size;
}

QString stringAt(QByteArrayView json, qsizetype open, qsizetype end)
{
    const QByteArrayView raw = json.sliced(open + 1, end - open - 2);
    if (!raw.contains('\\'))
        return QString::fromUtf8(raw);
    // Escapes are rare in names; let the JSON parser undo them.
    const QByteArray wrapped = '[' + json.sliced(open, end - open).toByteArray() + ']';
    return QJsonDocument::fromJson(wrapped).array().at(0).toString();
}

} // namespace

qsizetype skipJsonWhitespace(QByteArrayView json, qsizetype from)
{
    while (from < json.size()) {
        const char c = json.at(from);
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            break;
        ++from;
    }
    return from;
}

QList<JsonChild> jsonChildren(QByteArrayView json, qsizetype open)
{
    QList<JsonChild> children;
    if (open < 0 || open >= json.size() || (json.at(open) != '{' && json.at(open) != '['))
        return children;
    const bool isObject = json.at(open) == '{';
    // At depth 1 (directly inside the container) the next token starts a child (a key in objects, an element in
    // arrays) or, in objects after ':', the current member's value.
    bool expectChild = true;
    bool expectValue = false;
    int depth = 0;
    const char *data = json.data();
    const qsizetype size = json.size();
    for (qsizetype i = open; i < size; ++i) {
        const char c = data[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (depth == 1 && c != ',' && c != ':' && c != '}' && c != ']') {
            if (expectChild) {
                expectChild = false;
                if (isObject) {
                    const qsizetype end = skipString(json, i);
                    children.append({stringAt(json, i, end), i, i});
                    i = end - 1;
                    continue;
                }
                children.append({QString(), i, i});
            } else if (expectValue) {
                expectValue = false;
                children.last().valueOffset = i;
            }
        }
        switch (c) {
        case '"':
            i = skipString(json, i) - 1;
            break;
        case '{':
        case '[':
            ++depth;
            break;
        case '}':
        case ']':
            if (--depth == 0)
                return children;
            break;
        case ',':
            if (depth == 1)
                expectChild = true;
            break;
        case ':':
            if (depth == 1)
                expectValue = true;
            break;
        default:
            break; // numbers and literals hold no structure
        }
    }
    return children;
}

LineIndex::LineIndex(QByteArrayView text)
{
    const char *data = text.data();
    const qsizetype size = text.size();
    qsizetype from = 0;
    while (from < size) {
        const void *found = std::memchr(data + from, '\n', size_t(size - from));
        if (!found)
            break;
        const qsizetype at = static_cast<const char *>(found) - data;
        m_breaks.push_back(at);
        from = at + 1;
    }
}

int LineIndex::lineAt(qsizetype offset) const
{
    // Line n starts after the (n-1)th break: count the breaks before the offset.
    return int(std::lower_bound(m_breaks.begin(), m_breaks.end(), offset) - m_breaks.begin()) + 1;
}

} // namespace gpuf::interop
