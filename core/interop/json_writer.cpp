// JsonObjectWriter; see json_writer.h.
#include "core/interop/json_writer.h"

#include <QJsonDocument>
#include <QLocale>

#include <cmath>

namespace gpuf::interop {

QByteArray jsonString(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out.append('"');
    for (const char c : utf8) {
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static const char hex[] = "0123456789abcdef";
                out.append("\\u00");
                out.append(hex[(c >> 4) & 0xF]);
                out.append(hex[c & 0xF]);
            } else {
                out.append(c);
            }
        }
    }
    out.append('"');
    return out;
}

QByteArray jsonNumber(double value)
{
    if (!std::isfinite(value))
        return QByteArrayLiteral("null");
    constexpr double kExactIntegers = 9007199254740992.0; // 2^53
    if (std::trunc(value) == value && std::fabs(value) < kExactIntegers)
        return QByteArray::number(qint64(value));
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

JsonObjectWriter::JsonObjectWriter() { m_json.append('{'); }

void JsonObjectWriter::key(const char *key)
{
    if (!m_first)
        m_json.append(',');
    m_first = false;
    m_json.append('"');
    m_json.append(key);
    m_json.append("\":");
}

JsonObjectWriter &JsonObjectWriter::string(const char *k, const QString &value)
{
    key(k);
    m_json.append(jsonString(value));
    return *this;
}

JsonObjectWriter &JsonObjectWriter::integer(const char *k, qint64 value)
{
    key(k);
    m_json.append(QByteArray::number(value));
    return *this;
}

JsonObjectWriter &JsonObjectWriter::number(const char *k, double value)
{
    key(k);
    m_json.append(jsonNumber(value));
    return *this;
}

JsonObjectWriter &JsonObjectWriter::boolean(const char *k, bool value)
{
    key(k);
    m_json.append(value ? "true" : "false");
    return *this;
}

JsonObjectWriter &JsonObjectWriter::null(const char *k)
{
    key(k);
    m_json.append("null");
    return *this;
}

JsonObjectWriter &JsonObjectWriter::object(const char *k, const QJsonObject &value)
{
    key(k);
    m_json.append(QJsonDocument(value).toJson(QJsonDocument::Compact));
    return *this;
}

JsonObjectWriter &JsonObjectWriter::array(const char *k, const QJsonArray &value)
{
    key(k);
    m_json.append(QJsonDocument(value).toJson(QJsonDocument::Compact));
    return *this;
}

JsonObjectWriter &JsonObjectWriter::raw(const char *k, const QByteArray &json)
{
    key(k);
    m_json.append(json);
    return *this;
}

JsonObjectWriter &JsonObjectWriter::optionalString(const char *k, const std::optional<QString> &value)
{
    return value ? string(k, *value) : null(k);
}

JsonObjectWriter &JsonObjectWriter::optionalInteger(const char *k, const std::optional<qint64> &value)
{
    return value ? integer(k, *value) : null(k);
}

JsonObjectWriter &JsonObjectWriter::optionalNumber(const char *k, const std::optional<double> &value)
{
    return value ? number(k, *value) : null(k);
}

QByteArray JsonObjectWriter::finish()
{
    m_json.append('}');
    return std::move(m_json);
}

} // namespace gpuf::interop
