// LineReader: streams a JSON Lines file one line at a time, with line numbers and offsets for errors and re-reads.
#pragma once

#include "core/common/result.h"

#include <QByteArray>
#include <QFile>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace gpuf::interop {

class LineReader
{
public:
    explicit LineReader(QString path);

    Status open();
    // Advances to the next line that is not blank; false at the end of the file or on a read error.
    bool next();
    // Positions the reader so that the next call to next() reads the line starting at `offset`.
    Status seek(qint64 offset, qint64 lineNumber);

    const QByteArray &line() const { return m_line; } // without the line break
    qint64 lineNumber() const { return m_lineNumber; } // 1-based
    qint64 offset() const { return m_offset; } // byte offset of the current line
    qint64 position() const { return m_file.pos(); }
    qint64 size() const { return m_file.size(); }
    const QString &path() const { return m_path; }
    QString location() const; // "FILE:LINE"
    QString readError() const { return m_readError; }

private:
    QString m_path;
    QFile m_file;
    QByteArray m_line;
    qint64 m_lineNumber = 0;
    qint64 m_offset = 0;
    QString m_readError;
};

// Parses one line as a JSON object; the error says what is wrong and at which column.
Result<QJsonObject> parseJsonObject(const QByteArray &line);

// Python's json module writes NaN, Infinity and -Infinity as bare words, which are not JSON. Replaces each such
// word outside strings with null and returns how many were replaced (0: the line is left as it was).
int replaceNonFiniteWords(QByteArray &line);

// parseJsonObject, retried after replaceNonFiniteWords when the first attempt fails; `replaced` counts the words.
Result<QJsonObject> parseLenientJsonObject(QByteArray line, int *replaced);

} // namespace gpuf::interop
