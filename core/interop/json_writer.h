// JsonObjectWriter: writes one JSON object with its keys in the order given and numbers in one fixed form, so
// the same record always gives the same bytes (bundle → store → bundle is byte-identical).
#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace gpuf::interop {

class JsonObjectWriter
{
public:
    JsonObjectWriter();

    JsonObjectWriter &string(const char *key, const QString &value);
    JsonObjectWriter &integer(const char *key, qint64 value);
    JsonObjectWriter &number(const char *key, double value); // non-finite ⇒ null
    JsonObjectWriter &boolean(const char *key, bool value);
    JsonObjectWriter &null(const char *key);
    JsonObjectWriter &object(const char *key, const QJsonObject &value);
    JsonObjectWriter &array(const char *key, const QJsonArray &value);
    JsonObjectWriter &raw(const char *key, const QByteArray &json); // already-serialised JSON

    JsonObjectWriter &optionalString(const char *key, const std::optional<QString> &value);
    JsonObjectWriter &optionalInteger(const char *key, const std::optional<qint64> &value);
    JsonObjectWriter &optionalNumber(const char *key, const std::optional<double> &value);

    // The finished object, "{…}" without a line break.
    QByteArray finish();

private:
    void key(const char *key);

    QByteArray m_json;
    bool m_first = true;
};

// A JSON string literal with the escapes JSON requires (UTF-8, quotes included).
QByteArray jsonString(const QString &text);
// Integral values below 2^53 as integers, others as the shortest form that reads back to the same double.
QByteArray jsonNumber(double value);

} // namespace gpuf::interop
