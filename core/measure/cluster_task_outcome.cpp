// ClusterBackend, the other half: what a task's Slurm state and result files mean — answers collected into measurements
// as they arrive, a task settled when Slurm says it ended, tasks of a failed node submitted again, what is left closed
// with its reason. Submitting and polling are in cluster_backend.cpp.
#include "core/measure/cluster_backend.h"

#include "core/store/store.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <chrono>

namespace gpuf {

using cluster::SlurmStateClass;

namespace {

qint64 clusterSteadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

void ClusterBackend::act(ClusterTask &task, const QString &state, const QString &node, bool known)
{
    Watched &watched = m_watched[task.id];
    if (known) {
        watched.missingPolls = 0;
        if (task.state != state || (!node.isEmpty() && task.node != node)) {
            task.state = state;
            if (!node.isEmpty())
                task.node = node;
            if (Status s = save(task); !s)
                Q_EMIT notice(s.error());
            emitTask(task);
        }
    }
    const SlurmStateClass kind = known ? cluster::classifySlurmState(state) : SlurmStateClass::Unknown;
    if (kind == SlurmStateClass::Running && state.startsWith(QLatin1String("RUNNING"))) {
        // A node that rebooted under the task (slurmd and the job's processes gone, slurmd started again) leaves the
        // job RUNNING until its time limit; the task's heartbeat says it is gone.
        if (const qint64 quiet = silenceMs(task, watched); quiet >= 0) {
            const QString why = lostNodeReason(task, quiet);
            scancel(task);
            settle(task, SlurmStateClass::NodeFailed, why, false);
        }
        return;
    }
    if (kind == SlurmStateClass::Waiting || kind == SlurmStateClass::Running)
        return;
    if (known && kind == SlurmStateClass::Unknown)
        return; // a state this version does not know: watched until it becomes one it does
    // A finished task whose file is not there yet, or a task squeue and sacct both forgot, waits a few polls for a
    // shared file system that shows new files late; then its result file (or the lack of one) decides.
    const bool haveFile = QFile::exists(cluster::resultFile(task.batchDir, task.arrayIndex))
        || !cluster::partFiles(task.batchDir, task.arrayIndex).isEmpty();
    if (!haveFile && ++watched.missingPolls <= 2)
        return;
    if (!known) {
        settle(task, SlurmStateClass::Unknown,
            tr("job %1_%2 disappeared from the scheduler").arg(task.jobId).arg(task.arrayIndex));
        return;
    }
    settle(task, kind, state);
}

qint64 ClusterBackend::silenceMs(const ClusterTask &task, Watched &watched) const
{
    if (!m_beating.contains(task.batchDir)) {
        if (!cluster::scriptWritesHeartbeat(task.batchDir))
            return -1; // a batch of an older gpuf: only Slurm's state and the time limit tell
        m_beating.insert(task.batchDir);
    }
    bool exists = false;
    const QByteArray content = cluster::readFile(cluster::heartbeatFile(task.batchDir, task.arrayIndex), &exists);
    const cluster::Heartbeat beat = cluster::parseHeartbeat(content);
    // Only this job's heartbeat counts: an earlier attempt's file says nothing about this one.
    const QString seen = beat.jobId == task.jobId ? QString::fromLatin1(content.trimmed()) : QString();
    const qint64 now = clusterSteadyMs();
    if (watched.quietSinceMs < 0 || seen != watched.heartbeat) {
        watched.heartbeat = seen;
        watched.quietSinceMs = now;
        return -1;
    }
    const qint64 quiet = now - watched.quietSinceMs;
    return quiet > cluster::lostAfterMs(m_profile) ? quiet : -1;
}

QString ClusterBackend::lostNodeReason(const ClusterTask &task, qint64 quietMs) const
{
    const QStringList parts = cluster::partFiles(task.batchDir, task.arrayIndex);
    bool exists = false;
    const cluster::TaskResult result
        = cluster::parseTaskResult(parts.isEmpty() ? QByteArray() : cluster::readFile(parts.last(), &exists));
    const QString node = task.node.isEmpty() ? result.node : task.node;
    const QString worker = result.hello.isEmpty() ? tr("gpuf-measure never said hello")
                                                  : tr("gpuf-measure had answered %1 of %2 request(s) and stopped")
                                                        .arg(result.responses.size())
                                                        .arg(task.requests.size());
    return tr("node %1 was lost: its task gave no sign of life for %2 s while Slurm still called it RUNNING (%3)")
        .arg(node.isEmpty() ? tr("(unknown)") : node)
        .arg(quietMs / 1000)
        .arg(worker);
}

void ClusterBackend::settle(ClusterTask &task, SlurmStateClass kind, const QString &why, bool sayCutShort)
{
    bool exists = false;
    const QByteArray content = cluster::readFile(cluster::resultFile(task.batchDir, task.arrayIndex), &exists);
    QList<ClusterUpdate> finished;
    if (exists) {
        if (!collect(task, content, true, &finished))
            return; // the store refused: the file stays, and the next poll tries again
        for (const ClusterUpdate &u : std::as_const(finished))
            Q_EMIT requestUpdated(u);
        if (task.open)
            retry(task, tr("its result file was incomplete"));
        return;
    }
    // No complete file: take what a cut-short one holds, then decide about the rest.
    const QStringList parts = cluster::partFiles(task.batchDir, task.arrayIndex);
    if (!parts.isEmpty()) {
        bool partExists = false;
        if (!collect(task, cluster::readFile(parts.last(), &partExists), false, &finished))
            return;
        for (const ClusterUpdate &u : std::as_const(finished))
            Q_EMIT requestUpdated(u);
    }
    if (!task.open)
        return;
    switch (kind) {
    case SlurmStateClass::TimeLimit:
        if (parts.isEmpty() || cluster::parseTaskResult(cluster::readFile(parts.last(), &exists)).hello.isEmpty()) {
            // Not a slow kernel: gpuf-measure never answered its hello in the whole time limit, so no kernel ran (the
            // node lost the task, or the worker hung while starting there).
            retry(task,
                tr("the task reached its time limit (%1) on node %2 and gpuf-measure never said hello there: no kernel "
                   "ran, so none timed out")
                    .arg(m_profile.timeLimit, task.node.isEmpty() ? tr("(unknown)") : task.node));
            return;
        }
        closeRemaining(task, MeasureItemState::TimedOut, QStringLiteral("timeout"),
            tr("the task reached its time limit (%1) on node %2 before gpuf-measure answered")
                .arg(m_profile.timeLimit, task.node));
        return;
    case SlurmStateClass::OutOfMemory:
        closeRemaining(task, MeasureItemState::Failed, QStringLiteral("infrastructure_failure"),
            tr("the task ran out of memory on node %1").arg(task.node));
        return;
    case SlurmStateClass::Finished:
        retry(task,
            parts.isEmpty() ? tr("it ended (%1) without a result file in %2").arg(why, task.batchDir)
                            : tr("its result file was cut short (%1)").arg(why));
        return;
    default:
        retry(task, parts.isEmpty() || !sayCutShort ? why : tr("%1; its result file was cut short").arg(why));
        return;
    }
}

bool ClusterBackend::collect(ClusterTask &task, const QByteArray &content, bool complete, QList<ClusterUpdate> *out)
{
    const cluster::TaskResult result = cluster::parseTaskResult(content);
    if (!result.node.isEmpty())
        task.node = result.node;
    QList<ClusterUpdate> finished;
    QString storeError;
    Transaction tx(m_store);
    if (Status s = tx.begin(); !s) {
        Q_EMIT notice(tr("the cluster's results cannot be stored yet: %1").arg(s.error()));
        return false;
    }
    QJsonArray remaining;
    const QString errTail = cluster::errorTail(cluster::errorLog(task.batchDir, task.arrayIndex));
    int line = 0;
    for (const QJsonValue value : std::as_const(task.requests)) {
        ++line;
        const QJsonObject request = value.toObject();
        const qint64 id = request.value(QStringLiteral("id")).toInteger();
        ClusterUpdate u;
        if (result.responses.contains(id)) {
            u = finishRequest(task, request, result.responses.value(id), result, &storeError);
        } else if (result.noAnswerLines.contains(line) || result.workerFailed) {
            u = unanswered(result, result.noAnswerLines.contains(line), errTail);
        } else {
            remaining.append(value);
            continue;
        }
        if (!storeError.isEmpty()) {
            // Nothing of this collection is kept (the transaction rolls back); the files stay for the next poll.
            Q_EMIT notice(
                tr("the cluster's results could not be stored; they stay in %1: %2").arg(task.batchDir, storeError));
            return false;
        }
        u.ref = ClusterRequestRef {task.id, id};
        u.finished = true;
        u.job.kind = measureKindFromName(request.value(QStringLiteral("kind")).toString());
        u.job.kernelId = request.value(QStringLiteral("kernel")).toInteger();
        task.results.insert(QString::number(id), resultRecord(u, task));
        finished.append(u);
    }
    task.requests = remaining;
    if (remaining.isEmpty()) {
        task.open = false;
        task.state = QStringLiteral("collected");
    } else if (complete && result.ended) {
        task.message = tr("%n request(s) had no answer in the result file", nullptr, int(remaining.size()));
    }
    if (result.unreadableLines > 0)
        task.message = tr("%n line(s) of the result file could not be read", nullptr, result.unreadableLines);
    Status s = m_repo.updateTask(task);
    if (s)
        s = tx.commit();
    if (!s) {
        Q_EMIT notice(
            tr("the cluster's results could not be stored; they stay in %1: %2").arg(task.batchDir, s.error()));
        return false;
    }
    if (!task.open)
        m_watched.remove(task.id);
    for (ClusterUpdate &u : finished) {
        u.jobId = task.jobId;
        u.arrayIndex = task.arrayIndex;
        u.slurmState = task.state;
        u.node = task.node;
        u.attempts = task.attempts;
    }
    *out = finished;
    return true;
}

ClusterUpdate ClusterBackend::unanswered(const cluster::TaskResult &result, bool noAnswer, const QString &errTail) const
{
    ClusterUpdate u;
    const QString tail = errTail.isEmpty() ? QString() : QStringLiteral(": ") + errTail;
    if (noAnswer) {
        u.state = MeasureItemState::TimedOut; // no answer at all counts as a timeout (docs/measure-protocol.md)
        u.outcome = QStringLiteral("timeout");
        u.message = tr("gpuf-measure on node %1 gave no answer (exit code %2)%3")
                        .arg(result.node)
                        .arg(result.exitCode)
                        .arg(tail);
    } else {
        u.state = MeasureItemState::Failed;
        u.outcome = QStringLiteral("infrastructure_failure");
        u.message = tr("gpuf-measure (%1) did not start on node %2 (exit code %3)%4")
                        .arg(m_profile.workerPath, result.node)
                        .arg(result.exitCode)
                        .arg(tail);
    }
    return u;
}

QJsonObject ClusterBackend::resultRecord(const ClusterUpdate &u, const ClusterTask &task)
{
    QJsonArray ids;
    for (RowId id : u.measurementIds)
        ids.append(id);
    return {{QStringLiteral("state"), measureItemStateName(u.state)}, {QStringLiteral("outcome"), u.outcome},
        {QStringLiteral("message"), u.message}, {QStringLiteral("node"), task.node},
        {QStringLiteral("job"), task.jobId}, {QStringLiteral("measurements"), ids}};
}

ClusterUpdate ClusterBackend::finishRequest(ClusterTask &task, const QJsonObject &request, const QJsonObject &response,
    const cluster::TaskResult &result, QString *storeError)
{
    ClusterUpdate u;
    const QString status = response.value(QStringLiteral("status")).toString();
    const QString message = response.value(QStringLiteral("message")).toString();
    const MeasureKind kind = measureKindFromName(request.value(QStringLiteral("kind")).toString());
    u.outcome = status;
    if (kind == MeasureKind::Hello) {
        QStringList gpus;
        for (const QJsonValue d : response.value(QStringLiteral("devices")).toArray())
            gpus << QStringLiteral("%1 (%2)").arg(d.toObject().value(QStringLiteral("name")).toString(),
                d.toObject().value(QStringLiteral("arch")).toString());
        u.state = status == QLatin1String("ok") ? MeasureItemState::Done : MeasureItemState::Failed;
        u.message
            = tr("node %1: gpuf-measure %2, %3")
                  .arg(task.node, response.value(QStringLiteral("worker_version")).toString(),
                      gpus.isEmpty()
                          ? tr("no GPU: %1").arg(response.value(QStringLiteral("gpu_unavailable_reason")).toString())
                          : gpus.join(QStringLiteral(", ")));
        return u;
    }
    if (kind == MeasureKind::Compile) {
        // A compile that NVRTC refused is the kernel's result; only a request that could not be served fails.
        const bool served = status == QLatin1String("ok") || status == QLatin1String("compile_failed");
        u.state = served ? MeasureItemState::Done : MeasureItemState::Failed;
        const QJsonObject compile = response.value(QStringLiteral("compile")).toObject();
        u.message = status == QLatin1String("ok")
            ? tr("compiled for %1 on node %2 in %3 ms")
                  .arg(compile.value(QStringLiteral("arch")).toString(), task.node)
                  .arg(compile.value(QStringLiteral("compile_ms")).toDouble(), 0, 'f', 1)
            : (message.isEmpty() ? compile.value(QStringLiteral("log")).toString().left(2000) : message);
        return u;
    }
    auto plan = measure::planMeasurement(m_store, request.value(QStringLiteral("kernel")).toInteger());
    if (!plan) {
        u.state = MeasureItemState::Failed;
        u.message = tr("measured on node %1, but not stored: %2").arg(task.node, plan.error());
        return u;
    }
    const QJsonObject options = request.value(QStringLiteral("options")).toObject();
    measure::ResponseRows rows = measure::rowsFromResponse(response, *plan, result.device, options,
        QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs), task.node);
    if (!rows.store) {
        u.state = MeasureItemState::Failed;
        u.outcome = rows.status;
        u.message = tr("on node %1: %2").arg(task.node, rows.message);
        return u;
    }
    const QString toolkit
        = response.value(QStringLiteral("provenance")).toObject().value(QStringLiteral("toolkit_version")).toString();
    auto ids = measure::storeMeasuredRows(m_store, rows.rows, result.device, toolkit, &rows.referenceRows);
    if (!ids) {
        *storeError = ids.error();
        return u;
    }
    u.state = MeasureItemState::Done;
    u.outcome = rows.status;
    u.message = rows.message;
    u.measurementIds = *ids;
    u.hardwareId = rows.rows.isEmpty() ? 0 : rows.rows.first().hardwareId;
    u.casesTotal = static_cast<int>(rows.rows.size());
    for (const Measurement &m : std::as_const(rows.rows)) {
        if (m.status != MeasurementStatus::Ok)
            continue;
        ++u.casesOk;
        if (u.medianNs < 0 && m.runtime)
            u.medianNs = m.runtime->medianNs;
    }
    return u;
}

void ClusterBackend::retry(ClusterTask &task, const QString &why)
{
    if (task.attempts >= m_profile.maxAttempts) {
        closeRemaining(task, MeasureItemState::Failed, QStringLiteral("infrastructure_failure"),
            tr("gave up after %n attempt(s); the last: %1", nullptr, task.attempts).arg(why));
        return;
    }
    // The request file keeps only the requests still to answer; the old result files go, so the next attempt's
    // answers are never mixed with an earlier one's.
    QByteArray lines;
    for (const QJsonValue value : std::as_const(task.requests))
        lines += cluster::jsonLine(value.toObject().value(QStringLiteral("line")).toObject());
    QSaveFile file(cluster::requestFile(task.batchDir, task.arrayIndex));
    if (!file.open(QIODevice::WriteOnly) || file.write(lines) < 0 || !file.commit()) {
        closeRemaining(task, MeasureItemState::Failed, QStringLiteral("infrastructure_failure"),
            tr("%1; it cannot be submitted again: the shared directory %2 is not writable (%3)")
                .arg(why, m_profile.sharedDirectory, file.errorString()));
        return;
    }
    QFile::remove(cluster::resultFile(task.batchDir, task.arrayIndex));
    for (const QString &part : cluster::partFiles(task.batchDir, task.arrayIndex))
        QFile::remove(part);
    QFile::remove(cluster::heartbeatFile(task.batchDir, task.arrayIndex));
    ++task.attempts;
    task.state = QStringLiteral("submitting");
    task.message = tr("attempt %1 of %2: %3").arg(task.attempts).arg(m_profile.maxAttempts).arg(why);
    task.jobId.clear();
    if (Status s = save(task); !s)
        Q_EMIT notice(s.error());
    m_watched[task.id] = Watched {};
    Q_EMIT notice(tr("cluster '%1': task %2 of %3 submitted again (%4)")
                      .arg(m_profile.name)
                      .arg(task.arrayIndex)
                      .arg(task.batchDir, why));
    emitTask(task);
    // One sbatch for every task of the batch that is retried in this poll.
    const bool first = !m_resubmit.contains(task.batchDir);
    m_resubmit[task.batchDir].append(task.id);
    if (first) {
        const QString batchDir = task.batchDir;
        QTimer::singleShot(0, this, [this, batchDir] { startSbatch(batchDir, m_resubmit.take(batchDir)); });
    }
}

void ClusterBackend::closeRemaining(
    ClusterTask &task, MeasureItemState state, const QString &outcome, const QString &message)
{
    QList<ClusterUpdate> updates;
    for (const QJsonValue value : std::as_const(task.requests)) {
        const QJsonObject request = value.toObject();
        ClusterUpdate u;
        u.ref = ClusterRequestRef {task.id, request.value(QStringLiteral("id")).toInteger()};
        u.finished = true;
        u.state = state;
        u.outcome = outcome;
        u.message = message;
        u.jobId = task.jobId;
        u.arrayIndex = task.arrayIndex;
        u.node = task.node;
        u.attempts = task.attempts;
        task.results.insert(QString::number(u.ref.requestId),
            QJsonObject {{QStringLiteral("state"), measureItemStateName(state)}, {QStringLiteral("outcome"), outcome},
                {QStringLiteral("message"), message}, {QStringLiteral("node"), task.node}});
        updates.append(u);
    }
    task.requests = QJsonArray();
    task.open = false;
    task.state = QStringLiteral("failed");
    task.message = message;
    if (Status s = save(task); !s)
        Q_EMIT notice(s.error());
    m_watched.remove(task.id);
    for (ClusterUpdate &u : updates) {
        u.slurmState = task.state;
        Q_EMIT requestUpdated(u);
    }
}

Status ClusterBackend::save(ClusterTask &task) { return m_repo.updateTask(task); }

void ClusterBackend::emitTask(const ClusterTask &task)
{
    for (const QJsonValue value : task.requests) {
        ClusterUpdate u;
        u.ref = ClusterRequestRef {task.id, value.toObject().value(QStringLiteral("id")).toInteger()};
        u.jobId = task.jobId;
        u.arrayIndex = task.arrayIndex;
        u.slurmState = task.state;
        u.node = task.node;
        u.attempts = task.attempts;
        u.message = task.message; // why an attempt after the first was needed
        Q_EMIT requestUpdated(u);
    }
}

} // namespace gpuf
