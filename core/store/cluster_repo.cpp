// ClusterRepo; see cluster_repo.h.
#include "core/store/cluster_repo.h"

#include "core/store/json_text.h"
#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf {
namespace {

const QString kTaskColumns = QStringLiteral(
    "id, profile, batch_dir, array_index, job_id, state, node, attempts, requests_json, results_json, message, open,"
    " created_at, updated_at");

// A null QString binds as SQL NULL; the text columns are NOT NULL with '' for "none".
QString text(const QString &value) { return value.isNull() ? QStringLiteral("") : value; }

ClusterTask taskFrom(const QSqlQuery &q)
{
    ClusterTask t;
    t.id = q.value(0).toLongLong();
    t.profile = q.value(1).toString();
    t.batchDir = q.value(2).toString();
    t.arrayIndex = q.value(3).toInt();
    t.jobId = q.value(4).toString();
    t.state = q.value(5).toString();
    t.node = q.value(6).toString();
    t.attempts = q.value(7).toInt();
    t.requests = store::jsonArray(q.value(8).toString());
    t.results = store::jsonObject(q.value(9).toString());
    t.message = q.value(10).toString();
    t.open = q.value(11).toInt() != 0;
    t.createdAt = q.value(12).toString();
    t.updatedAt = q.value(13).toString();
    return t;
}

} // namespace

Result<RowId> ClusterRepo::insertTask(ClusterTask &task)
{
    task.createdAt = sql::nowUtc();
    task.updatedAt = task.createdAt;
    auto q = sql::run(m_store.database(),
        QStringLiteral("INSERT INTO cluster_tasks (") + kTaskColumns.mid(4)
            + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {task.profile, task.batchDir, task.arrayIndex, text(task.jobId), text(task.state), text(task.node),
            task.attempts, store::jsonText(task.requests), store::jsonText(task.results), text(task.message),
            task.open ? 1 : 0, task.createdAt, task.updatedAt});
    if (!q)
        return Error {QStringLiteral("cannot record the cluster task: %1").arg(q.error())};
    task.id = q->lastInsertId().toLongLong();
    return task.id;
}

Status ClusterRepo::updateTask(ClusterTask &task)
{
    task.updatedAt = sql::nowUtc();
    auto q = sql::run(m_store.database(),
        QStringLiteral("UPDATE cluster_tasks SET job_id = ?, state = ?, node = ?, attempts = ?, requests_json = ?,"
                       " results_json = ?, message = ?, open = ?, updated_at = ? WHERE id = ?"),
        {text(task.jobId), text(task.state), text(task.node), task.attempts, store::jsonText(task.requests),
            store::jsonText(task.results), text(task.message), task.open ? 1 : 0, task.updatedAt, task.id});
    if (!q)
        return Error {QStringLiteral("cannot update cluster task %1: %2").arg(task.id).arg(q.error())};
    return {};
}

Result<QList<ClusterTask>> ClusterRepo::select(const QString &where, const QString &order, int limit)
{
    QString statement = QStringLiteral("SELECT ") + kTaskColumns + QStringLiteral(" FROM cluster_tasks");
    if (!where.isEmpty())
        statement += QStringLiteral(" WHERE ") + where;
    statement += QStringLiteral(" ORDER BY ") + order;
    if (limit > 0)
        statement += QStringLiteral(" LIMIT %1").arg(limit);
    auto q = sql::run(m_store.database(), statement);
    if (!q)
        return Error {QStringLiteral("cannot read the cluster tasks: %1").arg(q.error())};
    QList<ClusterTask> tasks;
    while (q->next())
        tasks.append(taskFrom(*q));
    return tasks;
}

Result<ClusterTask> ClusterRepo::task(RowId id)
{
    auto rows = select(QStringLiteral("id = %1").arg(id), QStringLiteral("id"), 1);
    if (!rows)
        return Error {rows.error()};
    if (rows->isEmpty())
        return Error {QStringLiteral("no cluster task %1").arg(id)};
    return rows->first();
}

Result<QList<ClusterTask>> ClusterRepo::openTasks()
{
    return select(QStringLiteral("open = 1"), QStringLiteral("id"), 0);
}

Result<QList<ClusterTask>> ClusterRepo::tasks(int limit) { return select({}, QStringLiteral("id DESC"), limit); }

Result<RowId> ClusterRepo::insertJob(ClusterJobRecord &job)
{
    job.submittedAt = sql::nowUtc();
    auto q = sql::run(m_store.database(),
        QStringLiteral(
            "INSERT INTO cluster_jobs (profile, job_id, batch_dir, array_spec, submitted_at) VALUES (?, ?, ?, ?, ?)"),
        {job.profile, job.jobId, job.batchDir, job.arraySpec, job.submittedAt});
    if (!q)
        return Error {QStringLiteral("cannot record cluster job %1: %2").arg(job.jobId, q.error())};
    job.id = q->lastInsertId().toLongLong();
    return job.id;
}

Result<QList<ClusterJobRecord>> ClusterRepo::jobs(const QString &batchDir)
{
    auto q = sql::run(m_store.database(),
        QStringLiteral("SELECT id, profile, job_id, batch_dir, array_spec, submitted_at FROM cluster_jobs"
                       " WHERE batch_dir = ? ORDER BY id"),
        {batchDir});
    if (!q)
        return Error {QStringLiteral("cannot read the cluster jobs: %1").arg(q.error())};
    QList<ClusterJobRecord> jobs;
    while (q->next())
        jobs.append(ClusterJobRecord {q->value(0).toLongLong(), q->value(1).toString(), q->value(2).toString(),
            q->value(3).toString(), q->value(4).toString(), q->value(5).toString()});
    return jobs;
}

} // namespace gpuf
