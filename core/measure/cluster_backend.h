// ClusterBackend: the measurement queue's way to one Slurm cluster (docs/cluster.md). A batch of requests becomes one
// job array (sbatch --array); each task runs gpuf-measure on its node over a request file in the shared directory.
// The backend watches the jobs with squeue (and sacct for jobs squeue no longer knows), collects each task's answers
// into the store as it finishes, submits again a task whose node failed (up to the profile's attempts) — Slurm's
// NODE_FAIL and the like, or a task whose heartbeat stopped while Slurm still calls it running (a node rebooted under
// it) — and reports a kernel's failure as that kernel's result. Every submission and task is recorded in the store, so
// a new backend over the same store picks up the jobs an earlier one left running. Slurm's commands run as QProcess,
// never waited for; the backend lives on the measurement engine's thread and uses its store connection.
#pragma once

#include "core/measure/cluster_batch.h"
#include "core/measure/cluster_profile.h"
#include "core/measure/measure_plan.h"
#include "core/measure/measure_types.h"
#include "core/store/cluster_repo.h"

#include <QHash>
#include <QObject>
#include <QProcess>
#include <QSet>
#include <QTimer>

namespace gpuf {

class Store;

// The Slurm commands (names looked up on PATH, or paths).
struct ClusterCommands
{
    QString sbatch = QStringLiteral("sbatch");
    QString squeue = QStringLiteral("squeue");
    QString sacct = QStringLiteral("sacct");
    QString scancel = QStringLiteral("scancel");
};

struct ClusterRequest
{
    quint64 itemId = 0; // the engine's item, handed back in the reference
    MeasureJob job;
    measure::MeasurePlan plan; // the kernel's specs (Measure and Compile)
};

struct ClusterRequestRef
{
    RowId taskId = 0;
    qint64 requestId = 0;
    friend bool operator==(const ClusterRequestRef &a, const ClusterRequestRef &b)
    {
        return a.taskId == b.taskId && a.requestId == b.requestId;
    }
};

// How one request stands: where it runs, and once finished how it ended (as a queue item says it).
struct ClusterUpdate
{
    ClusterRequestRef ref;
    MeasureJob job; // rebuilt from the store for requests picked up again
    QString jobId;
    int arrayIndex = 0;
    QString slurmState;
    QString node;
    int attempts = 0;
    bool finished = false;
    MeasureItemState state = MeasureItemState::Running;
    QString outcome;
    QString message;
    QList<RowId> measurementIds;
    RowId hardwareId = 0;
    int casesOk = 0;
    int casesTotal = 0;
    double medianNs = -1.0;
};

class ClusterBackend : public QObject
{
    Q_OBJECT

public:
    ClusterBackend(ClusterProfile profile, Store &store, ClusterCommands commands = {}, QObject *parent = nullptr);
    ~ClusterBackend() override;

    const ClusterProfile &profile() const { return m_profile; }

    // Writes the batch into the shared directory, records its tasks and starts sbatch. The references are in the
    // order of `requests`; an error (no sbatch, a shared directory that is not writable, a bad profile) means
    // nothing was recorded or submitted.
    Result<QList<ClusterRequestRef>> submit(const QList<ClusterRequest> &requests);
    // Watches the open tasks of this profile recorded in the store; returns each open request's state.
    Result<QList<ClusterUpdate>> resume();
    void cancel(const ClusterRequestRef &ref);
    void pollNow();
    bool isIdle() const { return m_watched.isEmpty(); } // nothing out on the cluster

Q_SIGNALS:
    void requestUpdated(const gpuf::ClusterUpdate &update);
    void notice(const QString &text);

private:
    struct Watched
    {
        QString jobId;
        int missingPolls = 0; // polls since squeue and sacct last knew the task and no result file was there
        QString heartbeat; // the task's heartbeat as last read ("JOBID EPOCH"; empty: none of this job yet)
        qint64 quietSinceMs = -1; // steady clock when the heartbeat last changed, or the task was first seen running
    };

    QString makeBatchDir(QString *error) const;
    void startSbatch(const QString &batchDir, const QList<RowId> &taskIds);
    void onSbatchFinished(QProcess *process, const QString &batchDir, const QList<RowId> &taskIds);
    void failTasks(const QList<RowId> &taskIds, const QString &outcome, const QString &message);
    void poll();
    void onSqueueFinished(QProcess *process, const QStringList &jobIds);
    void onSacctFinished(QProcess *process, const QList<RowId> &taskIds);
    void act(ClusterTask &task, const QString &state, const QString &node, bool known);
    // `sayCutShort`: whether the reason adds that the result file was cut short (a lost node's reason says more).
    void settle(ClusterTask &task, cluster::SlurmStateClass kind, const QString &why, bool sayCutShort = true);
    // How long a task Slurm calls RUNNING has not rewritten its heartbeat, in ms; -1 while it beats or writes none.
    qint64 silenceMs(const ClusterTask &task, Watched &watched) const;
    // Why a task counts as lost with its node, from what its result file holds so far.
    QString lostNodeReason(const ClusterTask &task, qint64 quietMs) const;
    void scancel(const ClusterTask &task);
    bool collect(ClusterTask &task, const QByteArray &content, bool complete, QList<ClusterUpdate> *out);
    ClusterUpdate finishRequest(ClusterTask &task, const QJsonObject &request, const QJsonObject &response,
        const cluster::TaskResult &result, QString *storeError);
    // A request the result file has no answer for: skipped by the job script (no answer) or never run (the worker
    // did not start on the node).
    ClusterUpdate unanswered(const cluster::TaskResult &result, bool noAnswer, const QString &errTail) const;
    static QJsonObject resultRecord(const ClusterUpdate &u, const ClusterTask &task); // stored per request
    void retry(ClusterTask &task, const QString &why);
    void closeRemaining(ClusterTask &task, MeasureItemState state, const QString &outcome, const QString &message);
    Status save(ClusterTask &task);
    void emitTask(const ClusterTask &task);
    QProcess *startCommand(const QString &program, const QStringList &args);

    ClusterProfile m_profile;
    Store &m_store;
    ClusterRepo m_repo;
    ClusterCommands m_commands;
    QHash<RowId, Watched> m_watched; // open tasks
    QHash<QString, QList<RowId>> m_resubmit; // batch dir → tasks waiting for a new sbatch
    mutable QSet<QString> m_beating; // batch dirs whose job script writes heartbeats
    QTimer m_pollTimer;
    bool m_polling = false;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::ClusterUpdate)
