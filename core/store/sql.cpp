// SQL helpers; see sql.h.
#include "core/store/sql.h"

#include <QDateTime>
#include <QSqlError>

#include <cstdio>

namespace gpuf::sql {

QString lastErrorText(const QSqlQuery &query)
{
    const QSqlError error = query.lastError();
    QString text = error.databaseText();
    if (text.isEmpty())
        text = error.text();
    return text;
}

namespace {
QString describe(const QString &statement)
{
    QString head = statement.simplified();
    if (head.size() > 60)
        head = head.left(60) + QStringLiteral("…");
    return head;
}
} // namespace

Result<QSqlQuery> prepare(QSqlDatabase &db, const QString &statement, std::initializer_list<QVariant> values)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.prepare(statement))
        return Error {QStringLiteral("cannot prepare \"%1\": %2").arg(describe(statement), lastErrorText(query))};
    for (const QVariant &value : values)
        query.addBindValue(value);
    return query;
}

Status exec(QSqlQuery &query)
{
    if (!query.exec())
        return Error {QStringLiteral("\"%1\" failed: %2").arg(describe(query.lastQuery()), lastErrorText(query))};
    return {};
}

Result<QSqlQuery> run(QSqlDatabase &db, const QString &statement, std::initializer_list<QVariant> values)
{
    auto query = prepare(db, statement, values);
    if (!query)
        return query;
    if (Status s = exec(*query); !s)
        return Error {s.error()};
    return query;
}

Result<qint64> scalar(QSqlDatabase &db, const QString &statement, std::initializer_list<QVariant> values)
{
    auto query = run(db, statement, values);
    if (!query)
        return Error {query.error()};
    if (!query->next())
        return Error {QStringLiteral("\"%1\" returned no row").arg(describe(statement))};
    return query->value(0).toLongLong();
}

QVariant nullable(const std::optional<double> &value) { return value ? QVariant(*value) : QVariant(); }
QVariant nullable(const std::optional<int> &value) { return value ? QVariant(*value) : QVariant(); }
QVariant idOrNull(qint64 id) { return id > 0 ? QVariant(id) : QVariant(); }

std::optional<double> optionalDouble(const QVariant &value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toDouble();
}

std::optional<int> optionalInt(const QVariant &value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toInt();
}

QString nowUtc() { return toStoredTime(QDateTime::currentDateTimeUtc()); }

QString toStoredTime(const QDateTime &time)
{
    // Formatted by hand: QDateTime::toString was an eighth of the cost of a batched insert. Same text as
    // Qt::ISODateWithMs for UTC ("2026-11-21T07:56:45.365Z").
    const QDateTime utc = time.isValid() ? time.toUTC() : QDateTime::currentDateTimeUtc();
    const QDate d = utc.date();
    const QTime t = utc.time();
    char text[32];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", d.year(), d.month(), d.day(), t.hour(),
        t.minute(), t.second(), t.msec());
    return QString::fromLatin1(text);
}

QDateTime fromStoredTime(const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(text, Qt::ISODate);
    return time;
}

} // namespace gpuf::sql
