// FieldReader; see field_reader.h.
#include "core/interop/field_reader.h"

#include <QTimeZone>

#include <cmath>

namespace gpuf::interop {

QString jsonTypeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

QDateTime parseTime(const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(text, Qt::ISODate);
    if (!time.isValid())
        return {};
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeZone(QTimeZone::utc()); // no zone written: the formats we read are all UTC
    return time.toUTC();
}

QString timeText(const QDateTime &time) { return time.toUTC().toString(Qt::ISODateWithMs); }

FieldReader::FieldReader(QJsonObject object, QString location)
    : FieldReader(std::move(object), std::move(location), {}, std::make_shared<QString>())
{ }

FieldReader::FieldReader(QJsonObject object, QString location, QString prefix, std::shared_ptr<QString> error)
    : m_object(std::move(object))
    , m_location(std::move(location))
    , m_prefix(std::move(prefix))
    , m_error(std::move(error))
{ }

bool FieldReader::has(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    return !value.isUndefined() && !value.isNull();
}

void FieldReader::fail(const QString &key, const QString &what)
{
    if (m_error->isEmpty())
        *m_error = QStringLiteral("%1: field '%2': %3").arg(m_location, nameOf(key), what);
}

QJsonValue FieldReader::required(const QString &key, Need need)
{
    QJsonValue value = m_object.value(key);
    if ((value.isUndefined() || value.isNull()) && need == Need::Required)
        fail(key, value.isNull() ? QStringLiteral("must not be null") : QStringLiteral("missing"));
    return value;
}

QString FieldReader::string(const QString &key, Need need, const QString &fallback)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isString()) {
        fail(key, QStringLiteral("expected a string, got %1").arg(jsonTypeName(value)));
        return fallback;
    }
    if (need == Need::Required && value.toString().isEmpty())
        fail(key, QStringLiteral("must not be empty"));
    return value.toString();
}

std::optional<QString> FieldReader::optionalString(const QString &key)
{
    if (!has(key)) {
        required(key, Need::Optional);
        return std::nullopt;
    }
    return string(key);
}

QString FieldReader::idText(const QString &key, Need need)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return {};
    if (value.isDouble()) {
        if (auto id = integerValue(value, key))
            return QString::number(*id);
        return {};
    }
    return string(key, need);
}

std::optional<qint64> FieldReader::integerValue(const QJsonValue &value, const QString &name)
{
    if (!value.isDouble()) {
        fail(name, QStringLiteral("expected an integer, got %1").arg(jsonTypeName(value)));
        return std::nullopt;
    }
    const double d = value.toDouble();
    if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) > 9.007199254740992e15) {
        fail(name, QStringLiteral("expected an integer, got %1").arg(d));
        return std::nullopt;
    }
    return value.toInteger(qint64(d));
}

std::optional<double> FieldReader::numberValue(const QJsonValue &value, const QString &name)
{
    if (!value.isDouble()) {
        fail(name, QStringLiteral("expected a number, got %1").arg(jsonTypeName(value)));
        return std::nullopt;
    }
    return value.toDouble();
}

qint64 FieldReader::integer(const QString &key, qint64 fallback, Need need)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return fallback;
    return integerValue(value, key).value_or(fallback);
}

std::optional<qint64> FieldReader::optionalInteger(const QString &key)
{
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    return integerValue(value, key);
}

double FieldReader::number(const QString &key, double fallback, Need need)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return fallback;
    return numberValue(value, key).value_or(fallback);
}

std::optional<double> FieldReader::optionalNumber(const QString &key)
{
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    return numberValue(value, key);
}

bool FieldReader::boolean(const QString &key, bool fallback, Need need)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isBool()) {
        fail(key, QStringLiteral("expected true or false, got %1").arg(jsonTypeName(value)));
        return fallback;
    }
    return value.toBool();
}

QJsonObject FieldReader::object(const QString &key, Need need)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return {};
    if (!value.isObject()) {
        fail(key, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
        return {};
    }
    return value.toObject();
}

QJsonArray FieldReader::array(const QString &key, Need need)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return {};
    if (!value.isArray()) {
        fail(key, QStringLiteral("expected an array, got %1").arg(jsonTypeName(value)));
        return {};
    }
    return value.toArray();
}

QDateTime FieldReader::time(const QString &key, Need need)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return {};
    if (!value.isString()) {
        fail(key, QStringLiteral("expected an ISO-8601 time string, got %1").arg(jsonTypeName(value)));
        return {};
    }
    QDateTime time = parseTime(value.toString());
    if (!time.isValid())
        fail(key, QStringLiteral("'%1' is not an ISO-8601 time").arg(value.toString()));
    return time;
}

std::optional<FieldReader> FieldReader::child(const QString &key, Need need)
{
    const QJsonValue value = required(key, need);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    return nested(value, key);
}

std::optional<FieldReader> FieldReader::nested(const QJsonValue &value, const QString &name)
{
    if (!value.isObject()) {
        fail(name, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
        return std::nullopt;
    }
    return FieldReader(value.toObject(), m_location, nameOf(name) + QLatin1Char('.'), m_error);
}

} // namespace gpuf::interop
