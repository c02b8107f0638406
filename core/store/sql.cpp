// SQL helpers; see sql.h.
#include "core/store/sql.h"

#include <QDateTime>
#include <QSqlError>

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

QString nowUtc() { return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs); }

QString toStoredTime(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : nowUtc();
}

QDateTime fromStoredTime(const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(text, Qt::ISODate);
    return time;
}

} // namespace gpuf::sql
