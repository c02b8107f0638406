// VerdictRepo; see verdict_repo.h.
#include "core/store/verdict_repo.h"

#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf {

namespace {

StoredVerdict verdictFromRow(const QSqlQuery &q)
{
    return {q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
        sql::fromStoredTime(q.value(3).toString())};
}

} // namespace

Status VerdictRepo::quarantine(RowId measurementId, const QString &note, const QDateTime &at)
{
    if (note.trimmed().isEmpty())
        return Error {QStringLiteral("a quarantine needs a note saying why")};
    auto exists = sql::scalar(
        m_store.database(), QStringLiteral("SELECT EXISTS (SELECT 1 FROM measurements WHERE id = ?)"), {measurementId});
    if (!exists)
        return exists.failure();
    if (*exists == 0)
        return Error {QStringLiteral("the store has no measurement %1").arg(measurementId)};
    auto q = sql::run(m_store.database(),
        QStringLiteral("INSERT INTO measurement_verdicts (measurement_id, verdict, note, created_at)"
                       " VALUES (?, 'quarantined', ?, ?) ON CONFLICT (measurement_id) DO UPDATE SET"
                       " verdict = excluded.verdict, note = excluded.note"),
        {measurementId, note.trimmed(), at.isValid() ? sql::toStoredTime(at) : sql::nowUtc()});
    if (!q)
        return Error {QStringLiteral("cannot quarantine measurement %1: %2").arg(measurementId).arg(q.error())};
    return {};
}

Result<bool> VerdictRepo::release(RowId measurementId)
{
    auto q = sql::run(m_store.database(), QStringLiteral("DELETE FROM measurement_verdicts WHERE measurement_id = ?"),
        {measurementId});
    if (!q)
        return q.failure();
    return q->numRowsAffected() > 0;
}

Result<std::optional<StoredVerdict>> VerdictRepo::find(RowId measurementId)
{
    auto q = sql::run(m_store.database(),
        QStringLiteral("SELECT measurement_id, verdict, note, created_at FROM measurement_verdicts"
                       " WHERE measurement_id = ?"),
        {measurementId});
    if (!q)
        return q.failure();
    if (!q->next())
        return std::optional<StoredVerdict> {};
    return std::optional<StoredVerdict> {verdictFromRow(*q)};
}

Result<RowId> VerdictRepo::kernelOfMeasurement(RowId measurementId)
{
    auto q = sql::run(
        m_store.database(), QStringLiteral("SELECT kernel_id FROM measurements WHERE id = ?"), {measurementId});
    if (!q)
        return q.failure();
    return q->next() ? q->value(0).toLongLong() : RowId(0);
}

Result<QHash<RowId, StoredVerdict>> VerdictRepo::all()
{
    auto q = sql::run(m_store.database(),
        QStringLiteral("SELECT measurement_id, verdict, note, created_at FROM measurement_verdicts ORDER BY"
                       " measurement_id"));
    if (!q)
        return q.failure();
    QHash<RowId, StoredVerdict> out;
    while (q->next()) {
        StoredVerdict v = verdictFromRow(*q);
        out.insert(v.measurementId, v);
    }
    return out;
}

} // namespace gpuf
