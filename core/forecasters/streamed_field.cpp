// StreamedJsonField; see streamed_field.h. A resumable scan: a token cut by the end of the text so far is left
// where it starts and read again when the next piece arrives.
#include "core/forecasters/streamed_field.h"

namespace gpuf::forecasters {

StreamedJsonField::StreamedJsonField(QString field)
    : m_field(std::move(field))
{ }

QString StreamedJsonField::feed(const QString &piece)
{
    m_text += piece;
    QString out;
    while (m_mode != Mode::Done && m_pos < m_text.size() && scanToken(out)) { }
    return out;
}

bool StreamedJsonField::scanToken(QString &out)
{
    const QChar c = m_text.at(m_pos);
    switch (m_mode) {
    case Mode::Value:
        return valueStep(out);
    case Mode::AfterKey:
    case Mode::AfterColon:
        if (c.isSpace()) {
            ++m_pos;
        } else if (m_mode == Mode::AfterKey && c == QLatin1Char(':')) {
            m_mode = Mode::AfterColon;
            ++m_pos;
        } else if (m_mode == Mode::AfterColon && c == QLatin1Char('"')) {
            m_mode = Mode::Value;
            ++m_pos;
        } else {
            m_mode = Mode::Scan; // not the field's string value after all; read on
        }
        return true;
    case Mode::Scan:
        break;
    case Mode::Done:
        return false;
    }
    if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
        ++m_depth;
    } else if (c == QLatin1Char('}') || c == QLatin1Char(']')) {
        --m_depth;
    } else if (c == QLatin1Char('"')) {
        qsizetype end = m_pos + 1;
        while (end < m_text.size() && m_text.at(end) != QLatin1Char('"'))
            end += m_text.at(end) == QLatin1Char('\\') ? 2 : 1;
        if (end >= m_text.size())
            return false; // the string is not complete yet
        if (m_depth == 1 && QStringView(m_text).mid(m_pos + 1, end - m_pos - 1) == m_field)
            m_mode = Mode::AfterKey;
        m_pos = end + 1;
        return true;
    }
    ++m_pos;
    return true;
}

bool StreamedJsonField::valueStep(QString &out)
{
    const QChar c = m_text.at(m_pos);
    if (c == QLatin1Char('"')) {
        m_mode = Mode::Done;
        ++m_pos;
        return true;
    }
    if (c != QLatin1Char('\\')) {
        out += c;
        ++m_pos;
        return true;
    }
    if (m_pos + 1 >= m_text.size())
        return false;
    const QChar e = m_text.at(m_pos + 1);
    if (e == QLatin1Char('u')) {
        if (m_pos + 6 > m_text.size())
            return false;
        bool ok = false;
        const ushort code = m_text.mid(m_pos + 2, 4).toUShort(&ok, 16);
        if (ok)
            out += QChar(code);
        m_pos += 6;
        return true;
    }
    switch (e.unicode()) {
    case 'n':
        out += QLatin1Char('\n');
        break;
    case 't':
        out += QLatin1Char('\t');
        break;
    case 'r':
        out += QLatin1Char('\r');
        break;
    case 'b':
        out += QLatin1Char('\b');
        break;
    case 'f':
        out += QLatin1Char('\f');
        break;
    default: // \" \\ \/ and anything else: the character itself
        out += e;
    }
    m_pos += 2;
    return true;
}

} // namespace gpuf::forecasters
