// Small helpers over QSqlQuery: prepared statements with bound values and error messages that say what failed.
#pragma once

#include "core/common/result.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <initializer_list>
#include <optional>

namespace gpuf::sql {

// Prepares `statement` and binds `values` positionally; the query is ready to exec().
Result<QSqlQuery> prepare(QSqlDatabase &db, const QString &statement, std::initializer_list<QVariant> values = {});
// Executes a prepared query; the error names the statement's first words and SQLite's message.
Status exec(QSqlQuery &query);
// Prepare + exec in one step.
Result<QSqlQuery> run(QSqlDatabase &db, const QString &statement, std::initializer_list<QVariant> values = {});
// First column of the first row as an integer (e.g. COUNT(*), a PRAGMA).
Result<qint64> scalar(QSqlDatabase &db, const QString &statement, std::initializer_list<QVariant> values = {});

QString lastErrorText(const QSqlQuery &query);
// An SQLite error in words for people: "the store is busy …" for a lock that outlasted the busy timeout, SQLite's own
// message otherwise; never the statement.
QString describeError(const QSqlError &error);

// How long a connection waits for another writer's lock before giving up (QSQLITE_BUSY_TIMEOUT).
inline constexpr int kBusyTimeoutMs = 10000;

// NULL-aware conversions between optional values and QVariant.
QVariant nullable(const std::optional<double> &value);
QVariant nullable(const std::optional<int> &value);
QVariant idOrNull(qint64 id); // 0 ⇒ NULL
std::optional<double> optionalDouble(const QVariant &value);
std::optional<int> optionalInt(const QVariant &value);

QString nowUtc(); // ISO-8601 with milliseconds and Z
QString toStoredTime(const QDateTime &time); // same format; invalid ⇒ now
QDateTime fromStoredTime(const QString &text);

} // namespace gpuf::sql
