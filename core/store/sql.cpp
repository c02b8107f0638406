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
// Messages name what went wrong, never the statement: SQL text means nothing to the person reading them.
QString describeFailure(const QSqlQuery &query) { return describeError(query.lastError()); }
} // namespace

QString describeError(const QSqlError &error)
{
    const QString code = error.nativeErrorCode();
    QString text = error.databaseText();
    if (text.isEmpty())
        text = error.text();
    // SQLITE_BUSY (5) and SQLITE_LOCKED (6), with their extended codes (5 + 256·n, 6 + 256·n).
    bool ok = false;
    const int native = code.toInt(&ok);
    const int primary = ok ? (native & 0xFF) : -1;
    if (primary == 5 || primary == 6 || text.contains(QLatin1StringView("database is locked"))
        || text.contains(QLatin1StringView("database table is locked")))
        return QStringLiteral("the store is busy: another program kept it locked for more than %1 s; try again when it"
                              " is done")
            .arg(kBusyTimeoutMs / 1000);
    // SQLITE_FULL (13) and SQLITE_READONLY (8): what is wrong is the place the store is on, not the store.
    if (primary == 13 || text.contains(QLatin1StringView("database or disk is full")))
        return QStringLiteral("the disk holding the store is full; free some space and try again");
    if (primary == 8 || text.contains(QLatin1StringView("readonly database")))
        return QStringLiteral("the store is read-only (a read-only file system, no write permission, or opened for"
                              " reading only)");
    return text;
}

Result<QSqlQuery> prepare(QSqlDatabase &db, const QString &statement, std::initializer_list<QVariant> values)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.prepare(statement))
        return Error {QStringLiteral("the store cannot run a query: %1").arg(describeFailure(query))};
    for (const QVariant &value : values)
        query.addBindValue(value);
    return query;
}

Status exec(QSqlQuery &query)
{
    if (!query.exec())
        return Error {describeFailure(query)};
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
        return Error {QStringLiteral("the store answered a count with no row")};
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
