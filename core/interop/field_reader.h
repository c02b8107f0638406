// FieldReader: typed, validated access to one JSON record's fields. The first problem found is kept as
// "FILE:LINE: field 'x': what is wrong", so a decoder reads every field and checks ok() once at the end.
#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>

namespace gpuf::interop {

class FieldReader
{
public:
    enum class Need { Optional, Required };

    FieldReader(QJsonObject object, QString location);

    bool ok() const { return m_error->isEmpty(); }
    const QString &error() const { return *m_error; }
    const QString &location() const { return m_location; }
    const QJsonObject &object() const { return m_object; }

    // Present and not null.
    bool has(const QString &key) const;
    // Records a problem with `key` (only the first problem is kept).
    void fail(const QString &key, const QString &what);

    // Missing or null ⇒ fallback (or a "missing" error when required); a required string must not be empty.
    QString string(const QString &key, Need need = Need::Optional, const QString &fallback = {});
    std::optional<QString> optionalString(const QString &key);
    // A string, or an integer written as a number (published ids come both ways).
    QString idText(const QString &key, Need need = Need::Required);
    qint64 integer(const QString &key, qint64 fallback, Need need = Need::Optional);
    std::optional<qint64> optionalInteger(const QString &key);
    double number(const QString &key, double fallback, Need need = Need::Optional);
    std::optional<double> optionalNumber(const QString &key);
    bool boolean(const QString &key, bool fallback, Need need = Need::Optional);
    QJsonObject object(const QString &key, Need need = Need::Optional);
    QJsonArray array(const QString &key, Need need = Need::Optional);
    // ISO-8601; a time without a zone is read as UTC. Missing or null ⇒ an invalid QDateTime.
    QDateTime time(const QString &key, Need need = Need::Optional);

    // A reader over the nested object `key` whose errors name "key.field" and land in this reader.
    // Missing or null (when optional) ⇒ nullopt.
    std::optional<FieldReader> child(const QString &key, Need need = Need::Required);
    // A reader over `value` (e.g. an array element) whose errors name "name.field".
    std::optional<FieldReader> nested(const QJsonValue &value, const QString &name);

    // Helpers for values already taken out of the record (e.g. array elements), with the name to report.
    std::optional<double> numberValue(const QJsonValue &value, const QString &name);
    std::optional<qint64> integerValue(const QJsonValue &value, const QString &name);

private:
    FieldReader(QJsonObject object, QString location, QString prefix, std::shared_ptr<QString> error);
    QJsonValue required(const QString &key, Need need);
    QString nameOf(const QString &key) const { return m_prefix + key; }

    QJsonObject m_object;
    QString m_location;
    QString m_prefix;
    std::shared_ptr<QString> m_error;
};

// "a string", "a number", … for messages.
QString jsonTypeName(const QJsonValue &value);
// Parses ISO-8601 text; a time without a zone is read as UTC; invalid ⇒ an invalid QDateTime.
QDateTime parseTime(const QString &text);
// ISO-8601 UTC with milliseconds and Z, the form the store and bundles use.
QString timeText(const QDateTime &time);

} // namespace gpuf::interop
