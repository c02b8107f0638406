// The Slurm measurement backend; see cluster_backend.h.
#include "core/measure/cluster_backend.h"

#include "core/store/store.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QStandardPaths>

namespace gpuf {

using cluster::SlurmStateClass;

namespace {

QByteArray jsonLine(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n'; }

QByteArray readAll(const QString &path, bool *exists)
{
    QFile file(path);
    *exists = file.open(QIODevice::ReadOnly);
    return *exists ? file.readAll() : QByteArray();
}

// The last lines gpuf-measure wrote on stderr on the node, for a message.
QString errorTail(const QString &path)
{
    bool exists = false;
    const QByteArray text = readAll(path, &exists).trimmed();
    if (text.isEmpty())
        return {};
    const QList<QByteArray> lines = text.split('\n');
    QStringList tail;
    for (qsizetype i = std::max<qsizetype>(0, lines.size() - 3); i < lines.size(); ++i)
        tail << QString::fromUtf8(lines[i]).trimmed();
    return tail.join(QStringLiteral(" / "));
}

// The part files a task's runs left (results/task-I.jsonl.part-JOB), newest last.
QStringList partFiles(const QString &batchDir, int index)
{
    const QFileInfo final(cluster::resultFile(batchDir, index));
    QDir dir = final.dir();
    const QFileInfoList parts
        = dir.entryInfoList({final.fileName() + QStringLiteral(".part-*")}, QDir::Files, QDir::Time | QDir::Reversed);
    QStringList paths;
    for (const QFileInfo &info : parts)
        paths << info.filePath();
    return paths;
}

QString programPath(const QString &program)
{
    if (program.contains(QLatin1Char('/')))
        return QFileInfo(program).isExecutable() ? program : QString();
    return QStandardPaths::findExecutable(program);
}

QJsonObject requestLine(const ClusterRequest &r, qint64 id, const ClusterProfile &profile)
{
    switch (r.job.kind) {
    case MeasureKind::Hello:
        return {{QStringLiteral("id"), id}, {QStringLiteral("type"), QStringLiteral("hello")}};
    case MeasureKind::Compile:
        return {{QStringLiteral("id"), id}, {QStringLiteral("type"), QStringLiteral("compile")},
            {QStringLiteral("arch"), r.job.options.value(QStringLiteral("arch")).toString(profile.compileArch)},
            {QStringLiteral("spec"), r.plan.candidate}};
    case MeasureKind::Measure:
        break;
    }
    return measure::measureRequest(r.plan, id, r.job.options);
}

} // namespace

ClusterBackend::ClusterBackend(ClusterProfile profile, Store &store, ClusterCommands commands, QObject *parent)
    : QObject(parent)
    , m_profile(std::move(profile))
    , m_store(store)
    , m_repo(store)
    , m_commands(std::move(commands))
    , m_pollTimer(this)
{
    m_pollTimer.setInterval(std::max(100, m_profile.pollIntervalMs));
    connect(&m_pollTimer, &QTimer::timeout, this, &ClusterBackend::poll);
}

ClusterBackend::~ClusterBackend() = default;

QProcess *ClusterBackend::startCommand(const QString &program, const QStringList &args)
{
    auto *process = new QProcess(this);
    process->setProgram(program);
    process->setArguments(args);
    process->setStandardInputFile(QProcess::nullDevice());
    return process;
}

QString ClusterBackend::makeBatchDir(QString *error) const
{
    const QString base = m_profile.sharedDirectory + QStringLiteral("/gpuf-batches");
    const QString name = QStringLiteral("%1-%2")
                             .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")))
                             .arg(QRandomGenerator::global()->generate() % 0x1000000, 6, 16, QLatin1Char('0'));
    const QString dir = base + QLatin1Char('/') + name;
    for (const QString &sub : {QStringLiteral("requests"), QStringLiteral("results"), QStringLiteral("logs")}) {
        if (!QDir().mkpath(dir + QLatin1Char('/') + sub)) {
            *error = tr("the shared directory %1 is not writable (could not make %2)")
                         .arg(m_profile.sharedDirectory, dir + QLatin1Char('/') + sub);
            return {};
        }
    }
    QSaveFile script(dir + QStringLiteral("/run.sh"));
    if (!script.open(QIODevice::WriteOnly) || script.write(cluster::jobScript(m_profile, dir)) < 0
        || !script.commit()) {
        *error
            = tr("the shared directory %1 is not writable (%2)").arg(m_profile.sharedDirectory, script.errorString());
        return {};
    }
    QFile::setPermissions(dir + QStringLiteral("/run.sh"),
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup);
    return dir;
}

Result<QList<ClusterRequestRef>> ClusterBackend::submit(const QList<ClusterRequest> &requests)
{
    if (const QStringList problems = clusterProfileProblems(m_profile); !problems.isEmpty())
        return Error {tr("cluster profile '%1': %2").arg(m_profile.name, problems.join(QStringLiteral("; ")))};
    if (programPath(m_commands.sbatch).isEmpty())
        return Error {tr("%1 is not on PATH: this machine cannot submit to cluster '%2' (run gpuf on the cluster's "
                         "login node, or put Slurm's commands on PATH)")
                          .arg(m_commands.sbatch, m_profile.name)};
    QString error;
    const QString batchDir = makeBatchDir(&error);
    if (batchDir.isEmpty())
        return Error {error};

    QList<ClusterTask> tasks;
    QList<ClusterRequestRef> refs;
    for (qsizetype first = 0; first < requests.size(); first += m_profile.requestsPerTask) {
        ClusterTask task;
        task.profile = m_profile.name;
        task.batchDir = batchDir;
        task.arrayIndex = static_cast<int>(tasks.size());
        task.state = QStringLiteral("submitting");
        task.attempts = 1;
        QByteArray lines;
        for (qsizetype i = first; i < std::min(requests.size(), first + m_profile.requestsPerTask); ++i) {
            const qint64 id = i - first + 1;
            const QJsonObject line = requestLine(requests[i], id, m_profile);
            lines += jsonLine(line);
            task.requests.append(QJsonObject {{QStringLiteral("id"), id},
                {QStringLiteral("kind"), measureKindName(requests[i].job.kind)},
                {QStringLiteral("kernel"), requests[i].job.kernelId},
                {QStringLiteral("options"), requests[i].job.options}, {QStringLiteral("line"), line}});
        }
        QSaveFile file(cluster::requestFile(batchDir, task.arrayIndex));
        if (!file.open(QIODevice::WriteOnly) || file.write(lines) < 0 || !file.commit())
            return Error {
                tr("the shared directory %1 is not writable (%2)").arg(m_profile.sharedDirectory, file.errorString())};
        tasks.append(task);
    }

    Transaction tx(m_store);
    if (Status s = tx.begin(); !s)
        return Error {s.error()};
    QList<RowId> taskIds;
    for (ClusterTask &task : tasks) {
        auto id = m_repo.insertTask(task);
        if (!id)
            return Error {id.error()};
        taskIds.append(*id);
        for (const QJsonValue &r : std::as_const(task.requests))
            refs.append(ClusterRequestRef {*id, r.toObject().value(QStringLiteral("id")).toInteger()});
    }
    if (Status s = tx.commit(); !s)
        return Error {s.error()};
    for (RowId id : std::as_const(taskIds))
        m_watched.insert(id, Watched {});
    startSbatch(batchDir, taskIds);
    return refs;
}

void ClusterBackend::startSbatch(const QString &batchDir, const QList<RowId> &taskIds)
{
    QList<int> indices;
    for (RowId id : taskIds) {
        if (auto task = m_repo.task(id))
            indices.append(task->arrayIndex);
    }
    QProcess *process
        = startCommand(programPath(m_commands.sbatch).isEmpty() ? m_commands.sbatch : programPath(m_commands.sbatch),
            cluster::sbatchArguments(m_profile, batchDir, cluster::arraySpec(indices)));
    connect(process, &QProcess::finished, this,
        [this, process, batchDir, taskIds] { onSbatchFinished(process, batchDir, taskIds); });
    connect(process, &QProcess::errorOccurred, this, [this, process, batchDir, taskIds](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onSbatchFinished(process, batchDir, taskIds);
    });
    process->start();
}

void ClusterBackend::onSbatchFinished(QProcess *process, const QString &batchDir, const QList<RowId> &taskIds)
{
    process->deleteLater();
    const QByteArray out = process->readAllStandardOutput();
    const QString err = QString::fromUtf8(process->readAllStandardError()).trimmed();
    Result<QString> jobId = Error {};
    if (process->error() == QProcess::FailedToStart)
        jobId = Error {tr("%1 could not be started: %2").arg(m_commands.sbatch, process->errorString())};
    else if (process->exitStatus() != QProcess::NormalExit || process->exitCode() != 0)
        jobId = Error {err.isEmpty() ? tr("sbatch exited with code %1").arg(process->exitCode()) : err};
    else
        jobId = cluster::parseSbatchJobId(out);
    if (!jobId) {
        failTasks(taskIds, QStringLiteral("infrastructure_failure"),
            tr("the scheduler refused the job: %1").arg(jobId.error()));
        return;
    }
    QList<int> indices;
    Transaction tx(m_store);
    Status status = tx.begin();
    QList<ClusterTask> tasks;
    for (RowId id : taskIds) {
        auto task = m_repo.task(id);
        if (!task || !status)
            continue;
        task->jobId = *jobId;
        task->state = QStringLiteral("PENDING");
        indices.append(task->arrayIndex);
        status = m_repo.updateTask(*task);
        tasks.append(*task);
    }
    ClusterJobRecord record {0, m_profile.name, *jobId, batchDir, cluster::arraySpec(indices), {}};
    if (status) {
        if (auto inserted = m_repo.insertJob(record); !inserted)
            status = Error {inserted.error()};
    }
    if (status)
        status = tx.commit();
    if (!status) {
        // The job runs; its tasks stay recorded as submitting and are looked at again at the next start.
        Q_EMIT notice(
            tr("job %1 was submitted, but could not be recorded in the store: %2").arg(*jobId, status.error()));
        return;
    }
    for (const ClusterTask &task : std::as_const(tasks)) {
        if (m_watched.contains(task.id))
            m_watched[task.id] = Watched {task.jobId, 0};
        emitTask(task);
    }
    if (!m_pollTimer.isActive())
        m_pollTimer.start();
}

void ClusterBackend::failTasks(const QList<RowId> &taskIds, const QString &outcome, const QString &message)
{
    for (RowId id : taskIds) {
        auto task = m_repo.task(id);
        if (!task)
            continue;
        task->message = message;
        closeRemaining(*task, MeasureItemState::Failed, outcome, message);
    }
}

Result<QList<ClusterUpdate>> ClusterBackend::resume()
{
    auto open = m_repo.openTasks();
    if (!open)
        return Error {open.error()};
    QList<ClusterUpdate> updates;
    QHash<QString, QList<RowId>> unsubmitted;
    for (const ClusterTask &task : std::as_const(*open)) {
        if (task.profile != m_profile.name || m_watched.contains(task.id))
            continue;
        m_watched.insert(task.id, Watched {task.jobId, 0});
        if (task.jobId.isEmpty())
            unsubmitted[task.batchDir].append(task.id); // the program stopped before sbatch answered
        for (const QJsonValue &value : task.requests) {
            const QJsonObject r = value.toObject();
            ClusterUpdate u;
            u.ref = ClusterRequestRef {task.id, r.value(QStringLiteral("id")).toInteger()};
            u.job.mode = MeasureMode::Cluster;
            u.job.cluster = m_profile.name;
            u.job.kernelId = r.value(QStringLiteral("kernel")).toInteger();
            u.job.kind = measureKindFromName(r.value(QStringLiteral("kind")).toString());
            u.job.options = r.value(QStringLiteral("options")).toObject();
            u.jobId = task.jobId;
            u.arrayIndex = task.arrayIndex;
            u.slurmState = task.state;
            u.node = task.node;
            u.attempts = task.attempts;
            updates.append(u);
        }
    }
    for (auto it = unsubmitted.cbegin(); it != unsubmitted.cend(); ++it)
        startSbatch(it.key(), it.value());
    if (!m_watched.isEmpty()) {
        m_pollTimer.start();
        QTimer::singleShot(0, this, &ClusterBackend::poll);
    }
    return updates;
}

void ClusterBackend::cancel(const ClusterRequestRef &ref)
{
    auto task = m_repo.task(ref.taskId);
    if (!task || !task->open)
        return;
    QJsonArray remaining;
    for (const QJsonValue &value : std::as_const(task->requests)) {
        if (value.toObject().value(QStringLiteral("id")).toInteger() == ref.requestId) {
            task->results.insert(QString::number(ref.requestId),
                QJsonObject {{QStringLiteral("state"), measureItemStateName(MeasureItemState::Cancelled)}});
            ClusterUpdate u;
            u.ref = ref;
            u.finished = true;
            u.state = MeasureItemState::Cancelled;
            u.message = tr("cancelled; the rest of its array task runs on");
            u.jobId = task->jobId;
            u.node = task->node;
            Q_EMIT requestUpdated(u);
        } else {
            remaining.append(value);
        }
    }
    task->requests = remaining;
    if (remaining.isEmpty()) {
        if (!task->jobId.isEmpty())
            startCommand(
                programPath(m_commands.scancel).isEmpty() ? m_commands.scancel : programPath(m_commands.scancel),
                {QStringLiteral("%1_%2").arg(task->jobId).arg(task->arrayIndex)})
                ->start();
        task->open = false;
        task->state = QStringLiteral("cancelled");
        m_watched.remove(task->id);
    }
    if (Status s = save(*task); !s)
        Q_EMIT notice(s.error());
}

void ClusterBackend::pollNow() { poll(); }

void ClusterBackend::poll()
{
    if (m_polling)
        return;
    if (m_watched.isEmpty()) {
        m_pollTimer.stop();
        return;
    }
    QStringList jobIds;
    for (const Watched &w : std::as_const(m_watched)) {
        if (!w.jobId.isEmpty() && !jobIds.contains(w.jobId))
            jobIds.append(w.jobId);
    }
    if (jobIds.isEmpty())
        return;
    const QString squeue = programPath(m_commands.squeue);
    if (squeue.isEmpty()) {
        Q_EMIT notice(
            tr("%1 is not on PATH: the jobs on cluster '%2' cannot be watched").arg(m_commands.squeue, m_profile.name));
        return;
    }
    m_polling = true;
    QProcess *process = startCommand(squeue, cluster::squeueArguments(jobIds));
    connect(process, &QProcess::finished, this, [this, process, jobIds] { onSqueueFinished(process, jobIds); });
    connect(process, &QProcess::errorOccurred, this, [this, process, jobIds](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onSqueueFinished(process, jobIds);
    });
    process->start();
}

void ClusterBackend::onSqueueFinished(QProcess *process, const QStringList &jobIds)
{
    Q_UNUSED(jobIds);
    process->deleteLater();
    const QByteArray out = process->readAllStandardOutput();
    const QString err = QString::fromUtf8(process->readAllStandardError()).trimmed();
    const bool failed = process->error() == QProcess::FailedToStart || process->exitCode() != 0;
    // squeue refuses a list whose jobs it has all forgotten ("Invalid job id specified"); anything else is the
    // controller being unreachable, and nothing is decided on that.
    if (failed && !err.contains(QLatin1String("Invalid job id"), Qt::CaseInsensitive)) {
        m_polling = false;
        Q_EMIT notice(tr("squeue failed; trying again later: %1").arg(err.isEmpty() ? process->errorString() : err));
        return;
    }
    QHash<QString, cluster::SlurmTaskState> seen;
    for (const cluster::SlurmTaskState &s : cluster::parseSlurmStates(out))
        seen.insert(QStringLiteral("%1_%2").arg(s.jobId).arg(s.arrayIndex), s);
    QList<RowId> unknown;
    const QList<RowId> ids = m_watched.keys();
    for (RowId id : ids) {
        auto task = m_repo.task(id);
        if (!task) {
            Q_EMIT notice(task.error());
            continue;
        }
        if (task->jobId.isEmpty())
            continue; // sbatch has not answered yet
        const auto it = seen.constFind(QStringLiteral("%1_%2").arg(task->jobId).arg(task->arrayIndex));
        if (it != seen.cend())
            act(*task, it->state, it->node, true);
        else
            unknown.append(id);
    }
    const QString sacct = programPath(m_commands.sacct);
    if (unknown.isEmpty() || sacct.isEmpty()) {
        for (RowId id : std::as_const(unknown)) {
            if (auto task = m_repo.task(id))
                act(*task, {}, {}, false);
        }
        m_polling = false;
        return;
    }
    QStringList unknownJobs;
    for (RowId id : std::as_const(unknown))
        unknownJobs.append(m_watched.value(id).jobId);
    unknownJobs.removeDuplicates();
    QProcess *next = startCommand(sacct, cluster::sacctArguments(unknownJobs));
    connect(next, &QProcess::finished, this, [this, next, unknown] { onSacctFinished(next, unknown); });
    connect(next, &QProcess::errorOccurred, this, [this, next, unknown](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onSacctFinished(next, unknown);
    });
    next->start();
}

void ClusterBackend::onSacctFinished(QProcess *process, const QList<RowId> &taskIds)
{
    process->deleteLater();
    // Without accounting (sacct answers "accounting storage is disabled") nothing is known here: the tasks count as
    // gone, and their result files decide.
    QHash<QString, cluster::SlurmTaskState> seen;
    if (process->error() != QProcess::FailedToStart && process->exitCode() == 0) {
        for (const cluster::SlurmTaskState &s : cluster::parseSlurmStates(process->readAllStandardOutput()))
            seen.insert(QStringLiteral("%1_%2").arg(s.jobId).arg(s.arrayIndex), s);
    }
    for (RowId id : taskIds) {
        auto task = m_repo.task(id);
        if (!task || !m_watched.contains(id))
            continue;
        const auto it = seen.constFind(QStringLiteral("%1_%2").arg(task->jobId).arg(task->arrayIndex));
        if (it != seen.cend())
            act(*task, it->state, it->node, true);
        else
            act(*task, {}, {}, false);
    }
    m_polling = false;
}

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
    if (kind == SlurmStateClass::Waiting || kind == SlurmStateClass::Running)
        return;
    if (known && kind == SlurmStateClass::Unknown)
        return; // a state this version does not know: watched until it becomes one it does
    // A finished task whose file is not there yet, or a task squeue and sacct both forgot, waits a few polls for a
    // shared file system that shows new files late; then its result file (or the lack of one) decides.
    const bool haveFile = QFile::exists(cluster::resultFile(task.batchDir, task.arrayIndex))
        || !partFiles(task.batchDir, task.arrayIndex).isEmpty();
    if (!haveFile && ++watched.missingPolls <= 2)
        return;
    if (!known) {
        settle(task, SlurmStateClass::Unknown,
            tr("job %1_%2 disappeared from the scheduler").arg(task.jobId).arg(task.arrayIndex));
        return;
    }
    settle(task, kind, state);
}

void ClusterBackend::settle(ClusterTask &task, SlurmStateClass kind, const QString &why)
{
    bool exists = false;
    const QByteArray content = readAll(cluster::resultFile(task.batchDir, task.arrayIndex), &exists);
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
    const QStringList parts = partFiles(task.batchDir, task.arrayIndex);
    if (!parts.isEmpty()) {
        bool partExists = false;
        if (!collect(task, readAll(parts.last(), &partExists), false, &finished))
            return;
        for (const ClusterUpdate &u : std::as_const(finished))
            Q_EMIT requestUpdated(u);
    }
    if (!task.open)
        return;
    switch (kind) {
    case SlurmStateClass::TimeLimit:
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
        retry(task, parts.isEmpty() ? why : tr("%1; its result file was cut short").arg(why));
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
    const QString errTail = errorTail(cluster::errorLog(task.batchDir, task.arrayIndex));
    int line = 0;
    for (const QJsonValue &value : std::as_const(task.requests)) {
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
        for (const QJsonValue &d : response.value(QStringLiteral("devices")).toArray())
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
    measure::ResponseRows rows = measure::rowsFromResponse(
        response, *plan, result.device, options, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    if (!rows.store) {
        u.state = MeasureItemState::Failed;
        u.outcome = rows.status;
        u.message = tr("on node %1: %2").arg(task.node, rows.message);
        return u;
    }
    const QString toolkit
        = response.value(QStringLiteral("provenance")).toObject().value(QStringLiteral("toolkit_version")).toString();
    auto ids = measure::storeMeasuredRows(m_store, rows.rows, result.device, toolkit);
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
    for (const QJsonValue &value : std::as_const(task.requests))
        lines += jsonLine(value.toObject().value(QStringLiteral("line")).toObject());
    QSaveFile file(cluster::requestFile(task.batchDir, task.arrayIndex));
    if (!file.open(QIODevice::WriteOnly) || file.write(lines) < 0 || !file.commit()) {
        closeRemaining(task, MeasureItemState::Failed, QStringLiteral("infrastructure_failure"),
            tr("%1; it cannot be submitted again: the shared directory %2 is not writable (%3)")
                .arg(why, m_profile.sharedDirectory, file.errorString()));
        return;
    }
    QFile::remove(cluster::resultFile(task.batchDir, task.arrayIndex));
    for (const QString &part : partFiles(task.batchDir, task.arrayIndex))
        QFile::remove(part);
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
    for (const QJsonValue &value : std::as_const(task.requests)) {
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
    for (const QJsonValue &value : task.requests) {
        ClusterUpdate u;
        u.ref = ClusterRequestRef {task.id, value.toObject().value(QStringLiteral("id")).toInteger()};
        u.jobId = task.jobId;
        u.arrayIndex = task.arrayIndex;
        u.slurmState = task.state;
        u.node = task.node;
        u.attempts = task.attempts;
        Q_EMIT requestUpdated(u);
    }
}

} // namespace gpuf
