// The Slurm measurement backend: submitting batches, polling Slurm, cancelling and resuming; see cluster_backend.h.
// What each task's state and result files mean is in cluster_task_outcome.cpp.
#include "core/measure/cluster_backend.h"
#include "core/measure/worker_environment.h"

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

namespace {

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
    // sbatch passes its environment on to the job: the same allow-list as a local worker's.
    process->setProcessEnvironment(measure::workerEnvironment());
    return process;
}

QString ClusterBackend::makeBatchDir(QString *error) const
{
    const QString base = m_profile.sharedDirectory + QStringLiteral("/gpuf-batches");
    const QString name = QStringLiteral("%1-%2")
                             .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")))
                             .arg(QRandomGenerator::global()->generate() % 0x1000000, 6, 16, QLatin1Char('0'));
    QString dir = base + QLatin1Char('/') + name;
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
            lines += cluster::jsonLine(line);
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
        for (const QJsonValue r : std::as_const(task.requests))
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
        for (const QJsonValue value : task.requests) {
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
            u.message = task.message;
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
    for (const QJsonValue value : std::as_const(task->requests)) {
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
        scancel(*task);
        task->open = false;
        task->state = QStringLiteral("cancelled");
        m_watched.remove(task->id);
    }
    if (Status s = save(*task); !s)
        Q_EMIT notice(s.error());
}

void ClusterBackend::scancel(const ClusterTask &task)
{
    if (task.jobId.isEmpty())
        return;
    const QString program = programPath(m_commands.scancel);
    QProcess *process = startCommand(program.isEmpty() ? m_commands.scancel : program,
        {QStringLiteral("%1_%2").arg(task.jobId).arg(task.arrayIndex)});
    connect(process, &QProcess::finished, process, &QObject::deleteLater);
    process->start();
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

} // namespace gpuf
