// ClusterRepo: the Slurm submissions (cluster_jobs) and array tasks (cluster_tasks) the measurement queue made, so
// jobs still running when the program closed are watched and collected again when the store is reopened.
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gpuf {

class Store;

// One array task: the requests it carries (JSON objects with `id`, `kind`, `kernel`, `options`, `arch`) and how
// each ended (`results`, by request id), its latest job id, Slurm state and node.
struct ClusterTask
{
    RowId id = 0;
    QString profile;
    QString batchDir; // the batch's folder in the shared directory
    int arrayIndex = 0;
    QString jobId; // the array job of the latest attempt; empty until sbatch answered
    QString state; // Slurm's state name as last seen ("PENDING", "RUNNING", "NODE_FAIL"…), or "submitting",
                   // "collected", "failed"
    QString node;
    int attempts = 0; // submissions so far
    QJsonArray requests; // the requests not yet answered
    QJsonObject results; // request id → {"state", "outcome", "message", "measurement_ids", "node", …}
    QString message; // the latest problem, in words
    bool open = true; // still to be watched and collected
    QString createdAt;
    QString updatedAt;
};

struct ClusterJobRecord
{
    RowId id = 0;
    QString profile;
    QString jobId;
    QString batchDir;
    QString arraySpec; // "0-3" or "1,4"
    QString submittedAt;
};

class ClusterRepo
{
public:
    explicit ClusterRepo(Store &store)
        : m_store(store)
    { }
    Result<RowId> insertTask(ClusterTask &task); // sets id, createdAt, updatedAt
    Status updateTask(ClusterTask &task); // everything but profile, batch dir and index; sets updatedAt
    Result<ClusterTask> task(RowId id);
    Result<QList<ClusterTask>> openTasks(); // oldest first
    Result<QList<ClusterTask>> tasks(int limit = 500); // newest first
    Result<RowId> insertJob(ClusterJobRecord &job);
    Result<QList<ClusterJobRecord>> jobs(const QString &batchDir);

private:
    Result<QList<ClusterTask>> select(const QString &where, const QString &order, int limit);
    Store &m_store;
};

} // namespace gpuf
