// JSON columns: compact text in the store, QJsonObject/QJsonArray in the value types.
#pragma once

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gpuf::store {

inline QString jsonText(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}
inline QString jsonText(const QJsonArray &array)
{
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}
inline QJsonObject jsonObject(const QString &text) { return QJsonDocument::fromJson(text.toUtf8()).object(); }
inline QJsonArray jsonArray(const QString &text) { return QJsonDocument::fromJson(text.toUtf8()).array(); }

} // namespace gpuf::store
