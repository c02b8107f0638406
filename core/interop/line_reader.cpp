// LineReader and line parsing; see line_reader.h.
#include "core/interop/line_reader.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace gpuf::interop {

LineReader::LineReader(QString path)
    : m_path(std::move(path))
    , m_file(m_path)
{ }

Status LineReader::open()
{
    if (!m_file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: cannot open: %2").arg(m_path, m_file.errorString())};
    return {};
}

bool LineReader::next()
{
    while (!m_file.atEnd()) {
        m_offset = m_file.pos();
        m_line = m_file.readLine();
        if (m_line.isEmpty() && m_file.error() != QFileDevice::NoError) {
            m_readError = QStringLiteral("%1: read error: %2").arg(m_path, m_file.errorString());
            return false;
        }
        ++m_lineNumber;
        while (m_line.endsWith('\n') || m_line.endsWith('\r'))
            m_line.chop(1);
        if (m_lineNumber == 1 && m_line.startsWith("\xEF\xBB\xBF"))
            m_line.remove(0, 3); // a UTF-8 byte order mark
        if (!m_line.trimmed().isEmpty())
            return true;
    }
    m_line.clear();
    return false;
}

Status LineReader::seek(qint64 offset, qint64 lineNumber)
{
    if (!m_file.seek(offset))
        return Error {QStringLiteral("%1: cannot seek: %2").arg(m_path, m_file.errorString())};
    m_lineNumber = lineNumber - 1;
    return {};
}

QString LineReader::location() const { return m_path + QLatin1Char(':') + QString::number(m_lineNumber); }

Result<QJsonObject> parseJsonObject(const QByteArray &line)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError) {
        return Error {QStringLiteral("not valid JSON (%1 at column %2)")
                          .arg(error.errorString())
                          .arg(qMin<qint64>(error.offset, line.size()) + 1)};
    }
    if (!doc.isObject())
        return Error {QStringLiteral("a line must hold one JSON object")};
    return doc.object();
}

int replaceNonFiniteWords(QByteArray &line)
{
    static const QByteArray words[]
        = {QByteArrayLiteral("-Infinity"), QByteArrayLiteral("Infinity"), QByteArrayLiteral("NaN")};
    QByteArray out;
    out.reserve(line.size());
    int replaced = 0;
    bool inString = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char c = line.at(i);
        if (inString) {
            out.append(c);
            if (c == '\\' && i + 1 < line.size())
                out.append(line.at(++i));
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out.append(c);
            continue;
        }
        bool matched = false;
        for (const QByteArray &word : words) {
            if (QByteArrayView(line.constData() + i, line.size() - i).startsWith(word)) {
                out.append("null");
                i += word.size() - 1;
                ++replaced;
                matched = true;
                break;
            }
        }
        if (!matched)
            out.append(c);
    }
    if (replaced > 0)
        line = out;
    return replaced;
}

Result<QJsonObject> parseLenientJsonObject(QByteArray line, int *replaced)
{
    *replaced = 0;
    auto object = parseJsonObject(line);
    if (object.ok())
        return object;
    const int words = replaceNonFiniteWords(line);
    if (words == 0)
        return object;
    auto retried = parseJsonObject(line);
    if (!retried.ok())
        return object; // report the error of the line as written
    *replaced = words;
    return retried;
}

} // namespace gpuf::interop
