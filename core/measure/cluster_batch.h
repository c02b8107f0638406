// The files and commands of a Slurm batch (docs/cluster.md): the job script each array task runs (gpuf-measure over
// the task's request file, answers written under a temporary name and renamed when complete), the sbatch arguments,
// the reading of sbatch, squeue and sacct output and of a task's result file — pure functions — and the few reads of
// what a task left in the batch folder.
#pragma once

#include "core/common/result.h"
#include "core/measure/cluster_profile.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gpuf::cluster {

// A batch folder in the shared directory: run.sh, requests/task-I.jsonl, results/task-I.jsonl, logs/.
QString requestFile(const QString &batchDir, int index);
QString resultFile(const QString &batchDir, int index); // complete answers; `.part-JOB` while being written
QString errorLog(const QString &batchDir, int index);
// The heartbeat a running task rewrites every heartbeatSeconds() ("JOBID EPOCH", both from the node): a task whose
// node went away (rebooted, slurmd and the job's processes killed) stops rewriting it while Slurm may go on calling
// the job RUNNING until its time limit, whereas a slow kernel's task keeps it fresh.
QString heartbeatFile(const QString &batchDir, int index);
int heartbeatSeconds(const ClusterProfile &profile); // the poll interval, 1 s to 60 s
// How long a running task's heartbeat may stay unchanged before its node counts as lost: six heartbeats, so a shared
// file system that shows a new file late is not taken for a lost node.
qint64 lostAfterMs(const ClusterProfile &profile);
struct Heartbeat
{
    QString jobId; // empty: no heartbeat, or not one of a gpuf task
    qint64 epoch = 0; // the node's clock, seconds
};
Heartbeat parseHeartbeat(const QByteArray &content);
// Whether the batch's job script writes heartbeats (batches submitted by an older gpuf do not).
bool scriptWritesHeartbeat(const QString &batchDir);

// One request or result line: compact JSON and a newline.
QByteArray jsonLine(const QJsonObject &object);
// The whole file at `path`; `*exists` says whether it could be opened.
QByteArray readFile(const QString &path, bool *exists);
// The last lines gpuf-measure wrote on stderr on the node (the task's error log), joined for a message.
QString errorTail(const QString &path);
// The part files a task's runs left (results/task-I.jsonl.part-JOB), newest last.
QStringList partFiles(const QString &batchDir, int index);

// The script every task of the batch runs: it needs only a POSIX shell and gpuf-measure on the node.
QByteArray jobScript(const ClusterProfile &profile, const QString &batchDir);

// "0-3", "1,4-5": Slurm's --array syntax for these indices.
QString arraySpec(QList<int> indices);

QStringList sbatchArguments(const ClusterProfile &profile, const QString &batchDir, const QString &arraySpec);

// The job id `sbatch --parsable` printed ("1234" or "1234;cluster"), or why there is none.
Result<QString> parseSbatchJobId(const QByteArray &output);

struct SlurmTaskState
{
    QString jobId; // the array job's id
    int arrayIndex = -1; // -1: not an array task
    QString state; // "RUNNING", "NODE_FAIL"… (sacct's "CANCELLED by 0" becomes "CANCELLED")
    QString node;
    QString reason;
};

// Arguments and format of the two queries (the last field is squeue's reason, empty for sacct).
QStringList squeueArguments(const QStringList &jobIds);
QStringList sacctArguments(const QStringList &jobIds);
// Lines "JOBID|STATE|NODES|REASON" (squeue) or "JOBID|STATE|NODES" (sacct); a pending array's "1234_[0-3]" expands.
QList<SlurmTaskState> parseSlurmStates(const QByteArray &output);

enum class SlurmStateClass {
    Waiting, // pending, configuring, requeued, suspended
    Running, // running, completing
    Finished, // completed, or failed with the script's exit code: the result file tells the rest
    NodeFailed, // node failure, preemption, boot failure, cancelled, deadline: submitted again
    TimeLimit, // ran past the profile's time limit: unanswered requests are marked timeout, not retried
    OutOfMemory,
    Unknown,
};
SlurmStateClass classifySlurmState(const QString &state);

// What a task's result file holds. `ended` is false for a file cut short (no end line): answers in it still count.
struct TaskResult
{
    bool ended = false;
    int exitCode = 0; // the last gpuf-measure run's exit code, from the end line
    QString node; // from the start line
    QJsonObject hello; // the first ok hello of the node's gpuf-measure
    QJsonObject device; // device_info's `device`; empty without a GPU
    QHash<qint64, QJsonObject> responses; // by request id
    QList<int> noAnswerLines; // 1-based lines of the request file whose request got no answer
    bool workerFailed = false; // gpuf-measure did not answer its hello: it is missing or broken on the node
    int unreadableLines = 0; // lines that are not JSON (a line cut short when the node died)
};
TaskResult parseTaskResult(const QByteArray &content);

} // namespace gpuf::cluster
