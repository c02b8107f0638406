// Where things are in a JSON text, which QJsonDocument forgets: the children of one object or array in file order
// (with their byte offsets and, for objects, their names) and the line of any byte offset, so that readers of large
// documents (tuning_results.h) can name the line of an offending record.
#pragma once

#include <QByteArrayView>
#include <QList>
#include <QString>

#include <vector>

namespace gpuf::interop {

// One member of an object or element of an array.
struct JsonChild
{
    QString key; // the member's name, unescaped; empty for array elements
    qsizetype offset = 0; // where the member's key (objects) or the element (arrays) starts
    qsizetype valueOffset = 0; // where its value starts (the element itself in arrays)
};

// The children of the object or array whose '{' or '[' is at `open`, in file order, duplicates included (QJsonObject
// keeps the last of repeated names only). `json` must already be known to be valid JSON (QJsonDocument parsed it): the
// scanner checks nothing. One pass over the container, linear in its size.
QList<JsonChild> jsonChildren(QByteArrayView json, qsizetype open);

// The offset of the first byte that is not JSON whitespace at or after `from` (json.size() when there is none).
qsizetype skipJsonWhitespace(QByteArrayView json, qsizetype from);

// 1-based line numbers of byte offsets: the line breaks are found once (linear), each query is a binary search.
class LineIndex
{
public:
    LineIndex() = default;
    explicit LineIndex(QByteArrayView text);

    int lineAt(qsizetype offset) const;
    int lineCount() const { return int(m_breaks.size()) + 1; }

private:
    std::vector<qsizetype> m_breaks; // offsets of every '\n', ascending
};

} // namespace gpuf::interop
