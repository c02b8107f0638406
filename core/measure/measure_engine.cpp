// The measurement queue's engine; see measure_engine.h.
#include "core/measure/measure_engine.h"

#include "core/measure/worker_locator.h"
#include "core/measure/worker_process.h"
#include "core/store/cluster_repo.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <algorithm>
#include <utility>

namespace gpuf {

using measure::WorkerProcess;

MeasureEngine::MeasureEngine(MeasureEngineConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_snapshotTimer(this) // a child, so moveToThread() takes it along to the engine's thread
{
    m_snapshotTimer.setSingleShot(true);
    m_snapshotTimer.setInterval(m_config.snapshotIntervalMs);
    connect(&m_snapshotTimer, &QTimer::timeout, this, &MeasureEngine::emitSnapshot);
}

MeasureEngine::~MeasureEngine()
{
    qDeleteAll(m_clusters); // before the store connection they use
}

void MeasureEngine::setStorePath(const QString &path)
{
    // The backends use the store's connection: they go first (the jobs run on; a new backend picks them up).
    qDeleteAll(m_clusters);
    m_clusters.clear();
    m_store.reset();
    if (path.isEmpty())
        return;
    // The session opened and fully checked the file already; this connection only needs the header check.
    auto opened = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!opened) {
        Q_EMIT notice(tr("Measurements cannot be stored: %1").arg(opened.error()));
        return;
    }
    m_store = std::move(opened.value());
    resumeClusterJobs();
}

void MeasureEngine::probeDevice()
{
    ensurePool();
    markDirty();
}

bool MeasureEngine::ensurePool()
{
    if (!m_slots.isEmpty()) {
        // Workers given up on (they would not start) get another chance with new work.
        for (int i = 0; i < m_slots.size(); ++i) {
            if (m_slots[i].gaveUp && m_slots[i].process->state() == WorkerProcess::State::Stopped) {
                m_slots[i].gaveUp = false;
                m_slots[i].failedStarts = 0;
                m_device.availability = DeviceState::Availability::Probing;
                startSlot(i);
            }
        }
        return true;
    }
    if (!m_poolError.isEmpty())
        return false;
    QString program = m_config.workerPath;
    if (program.isEmpty()) {
        auto located = measure::locateMeasureWorker();
        if (!located) {
            m_poolError = located.error();
            m_device.availability = DeviceState::Availability::Unavailable;
            m_device.reason = m_poolError;
            markDirty();
            return false;
        }
        program = *located;
    }
    m_device.workerPath = program;
    m_device.availability = DeviceState::Availability::Probing;
    for (int i = 0; i < std::max(1, m_config.workers); ++i) {
        Slot slot;
        slot.process = new WorkerProcess(
            program, measure::withPythonInterpreter(m_config.workerArguments), m_config.startBudgetMs, this);
        connect(slot.process, &WorkerProcess::ready, this, [this, i] { onWorkerReady(i); });
        connect(slot.process, &WorkerProcess::responseReceived, this,
            [this, i](const QJsonObject &response) { onWorkerResponse(i, response); });
        connect(slot.process, &WorkerProcess::stopped, this,
            [this, i](const QString &reason) { onWorkerStopped(i, reason); });
        m_slots.append(slot);
        startSlot(i);
    }
    return true;
}

void MeasureEngine::startSlot(int index)
{
    m_slots[index].staleArguments = false; // it starts with the arguments it holds now
    m_slots[index].process->start();
    markDirty();
}

void MeasureEngine::updateDevice(const WorkerProcess &worker)
{
    const QJsonObject &hello = worker.hello();
    m_device.workerVersion = hello.value(QStringLiteral("worker_version")).toString();
    m_device.nvrtcVersion = hello.value(QStringLiteral("nvrtc_version")).toString();
    if (!hello.value(QStringLiteral("gpu_available")).toBool()) {
        m_device.availability = DeviceState::Availability::Unavailable;
        m_device.reason = hello.value(QStringLiteral("gpu_unavailable_reason")).toString();
        m_device.devices.clear();
        return;
    }
    m_device.availability = DeviceState::Availability::Available;
    m_device.reason.clear();
    m_device.devices.clear();
    const QJsonObject &info = worker.deviceInfo();
    for (const QJsonValue value : hello.value(QStringLiteral("devices")).toArray()) {
        const QJsonObject d = value.toObject();
        DeviceDescription dev;
        dev.ordinal = d.value(QStringLiteral("ordinal")).toInt();
        dev.name = d.value(QStringLiteral("name")).toString();
        dev.uuid = d.value(QStringLiteral("uuid")).toString();
        dev.computeCapability = d.value(QStringLiteral("compute_capability")).toString();
        dev.arch = d.value(QStringLiteral("arch")).toString();
        if (info.value(QStringLiteral("uuid")).toString() == dev.uuid) {
            dev.multiprocessors = info.value(QStringLiteral("sm_count")).toInt();
            dev.totalMemoryBytes = info.value(QStringLiteral("total_memory_bytes")).toInteger();
            dev.l2Bytes = info.value(QStringLiteral("l2_bytes")).toInteger();
            dev.memoryBusWidthBits = info.value(QStringLiteral("memory_bus_width_bits")).toInt();
            dev.maxSmClockMhz = info.value(QStringLiteral("sm_clock_khz")).toInt() / 1000;
            dev.maxMemoryClockMhz = info.value(QStringLiteral("memory_clock_khz")).toInt() / 1000;
            dev.peakBandwidthGBs = info.value(QStringLiteral("peak_bandwidth_gbs")).toDouble();
            dev.driverVersion = info.value(QStringLiteral("driver_version")).toString();
            const QJsonObject clocks = info.value(QStringLiteral("clocks")).toObject();
            dev.clocksAvailable = clocks.value(QStringLiteral("available")).toBool();
            dev.smClockMhz = clocks.value(QStringLiteral("sm_mhz")).toInt();
            dev.memoryClockMhz = clocks.value(QStringLiteral("mem_mhz")).toInt();
            dev.clocksReason = clocks.value(QStringLiteral("reason")).toString();
            dev.deviceInfo = info;
        }
        m_device.devices.append(dev);
    }
}

void MeasureEngine::onWorkerReady(int index)
{
    m_slots[index].failedStarts = 0;
    updateDevice(*m_slots[index].process);
    // Said once per engine: each refused Python candidate carries the same sentence as its own message.
    const QString refusal = m_slots[index]
                                .process->hello()
                                .value(QStringLiteral("python"))
                                .toObject()
                                .value(QStringLiteral("sandbox"))
                                .toObject()
                                .value(QStringLiteral("refusal"))
                                .toString();
    if (!refusal.isEmpty() && !m_sandboxRefusalSaid) {
        m_sandboxRefusalSaid = true;
        Q_EMIT notice(tr("Python candidates will not be measured: %1").arg(refusal));
    }
    markDirty();
    dispatch();
}

MeasureEngine::Entry *MeasureEngine::entry(quint64 id)
{
    for (Entry &e : m_entries) {
        if (e.item.id == id)
            return &e;
    }
    return nullptr;
}

MeasureEngine::Entry &MeasureEngine::addEntry(const MeasureJob &job)
{
    Entry e;
    e.item.id = m_nextItemId++;
    e.item.job = job;
    e.item.kernelLabel = tr("kernel %1").arg(job.kernelId);
    e.item.queuedAt = QDateTime::currentDateTimeUtc();
    m_entries.append(e);
    return m_entries.last();
}

void MeasureEngine::enqueue(const QList<MeasureJob> &jobs)
{
    QHash<QString, QList<quint64>> clusterItems; // profile → items, one batch each
    for (const MeasureJob &job : jobs) {
        Entry &e = addEntry(job);
        if (!m_store) {
            finish(e, MeasureItemState::Failed, {}, tr("no store is open"));
            continue;
        }
        if (job.mode == MeasureMode::Cluster && job.kind == MeasureKind::Hello) {
            e.item.kernelLabel = tr("hello");
            e.item.cluster = job.cluster;
            clusterItems[job.cluster].append(e.item.id);
            continue;
        }
        auto plan = measure::planMeasurement(*m_store, job.kernelId);
        if (plan) {
            e.plan = *plan;
            e.item.kernelLabel = plan->label;
            e.item.problemName = plan->problemName;
            e.item.casesTotal = static_cast<int>(plan->cases.size());
        } else if (auto k = KernelRepo(*m_store).find(job.kernelId); k && k->has_value() && !(*k)->name.isEmpty()) {
            e.item.kernelLabel = (*k)->name;
        }
        if (job.mode == MeasureMode::Replay)
            continue; // replay needs no spec: it copies stored runtimes
        if (!plan) {
            finish(e, MeasureItemState::Failed, {}, plan.error());
        } else if (job.kind == MeasureKind::Compile && job.mode == MeasureMode::Local
            && !plan->pythonProblem.isEmpty()) {
            finish(e, MeasureItemState::Failed, {}, tr("a Python candidate has no cubin to compile"));
        } else if (job.mode == MeasureMode::Cluster) {
            e.item.cluster = job.cluster;
            clusterItems[job.cluster].append(e.item.id);
        } else if (!ensurePool()) {
            finish(e, MeasureItemState::Failed, QStringLiteral("infrastructure_failure"), m_poolError);
        }
    }
    for (auto it = clusterItems.cbegin(); it != clusterItems.cend(); ++it)
        submitCluster(it.key(), it.value());
    markDirty();
    dispatch();
}

ClusterBackend *MeasureEngine::clusterBackend(const QString &name, QString *error)
{
    if (ClusterBackend *backend = m_clusters.value(name))
        return backend;
    Result<ClusterProfile> profile = Error {};
    if (m_config.clusterProfiles.isEmpty()) {
        profile = usableClusterProfile(name);
    } else {
        profile = Error {tr("no cluster profile named '%1'").arg(name)};
        for (const ClusterProfile &p : std::as_const(m_config.clusterProfiles)) {
            if (p.name == name)
                profile = p;
        }
    }
    if (!profile) {
        *error = profile.error();
        return nullptr;
    }
    auto *backend = new ClusterBackend(*profile, *m_store, m_config.clusterCommands, this);
    connect(backend, &ClusterBackend::requestUpdated, this, &MeasureEngine::onClusterUpdate);
    connect(backend, &ClusterBackend::notice, this, &MeasureEngine::notice);
    m_clusters.insert(name, backend);
    return backend;
}

void MeasureEngine::submitCluster(const QString &profile, const QList<quint64> &itemIds)
{
    QString error;
    ClusterBackend *backend = clusterBackend(profile, &error);
    QList<ClusterRequest> requests;
    for (quint64 id : itemIds) {
        if (Entry *e = entry(id))
            requests.append(ClusterRequest {id, e->item.job, e->plan});
    }
    Result<QList<ClusterRequestRef>> refs
        = backend ? backend->submit(requests) : Result<QList<ClusterRequestRef>>(Error {error});
    for (qsizetype i = 0; i < itemIds.size(); ++i) {
        Entry *e = entry(itemIds[i]);
        if (!e)
            continue;
        if (!refs) {
            finish(*e, MeasureItemState::Failed, QStringLiteral("infrastructure_failure"),
                tr("not submitted to cluster '%1': %2").arg(profile, refs.error()));
            continue;
        }
        e->clusterRef = refs->value(i);
        e->item.state = MeasureItemState::Running;
        e->item.startedAt = QDateTime::currentDateTimeUtc();
        e->item.clusterState = QStringLiteral("submitting");
        e->item.clusterAttempts = 1;
    }
}

void MeasureEngine::resumeClusterJobs()
{
    auto open = ClusterRepo(*m_store).openTasks();
    if (!open) {
        Q_EMIT notice(tr("The cluster jobs recorded in the store cannot be read: %1").arg(open.error()));
        return;
    }
    QStringList profiles;
    for (const ClusterTask &task : std::as_const(*open)) {
        if (!profiles.contains(task.profile))
            profiles.append(task.profile);
    }
    for (const QString &name : std::as_const(profiles)) {
        QString error;
        ClusterBackend *backend = clusterBackend(name, &error);
        if (!backend) {
            Q_EMIT notice(tr("Jobs on cluster '%1' are not watched: %2").arg(name, error));
            continue;
        }
        auto updates = backend->resume();
        if (!updates) {
            Q_EMIT notice(updates.error());
            continue;
        }
        for (const ClusterUpdate &u : std::as_const(*updates))
            onClusterUpdate(u);
    }
}

void MeasureEngine::onClusterUpdate(const ClusterUpdate &update)
{
    Entry *e = nullptr;
    for (Entry &candidate : m_entries) {
        if (candidate.item.job.mode == MeasureMode::Cluster && candidate.clusterRef == update.ref)
            e = &candidate;
    }
    if (!e) {
        if (update.finished)
            return; // an item cleared from the queue
        // A request submitted before this engine started (picked up from the store).
        MeasureJob job = update.job;
        job.mode = MeasureMode::Cluster;
        e = &addEntry(job);
        e->clusterRef = update.ref;
        e->item.cluster = job.cluster;
        e->item.state = MeasureItemState::Running;
        e->item.startedAt = QDateTime::currentDateTimeUtc();
        if (job.kind == MeasureKind::Hello) {
            e->item.kernelLabel = tr("hello");
        } else if (auto plan = measure::planMeasurement(*m_store, job.kernelId)) {
            e->item.kernelLabel = plan->label;
            e->item.problemName = plan->problemName;
        }
    }
    if (!update.jobId.isEmpty())
        e->item.clusterJobId = QStringLiteral("%1_%2").arg(update.jobId).arg(update.arrayIndex);
    if (!update.slurmState.isEmpty())
        e->item.clusterState = update.slurmState;
    if (!update.node.isEmpty())
        e->item.clusterNode = update.node;
    if (update.attempts > 0)
        e->item.clusterAttempts = update.attempts;
    if (!update.finished && !update.message.isEmpty() && !isFinished(e->item.state))
        e->item.message = update.message; // "attempt 2 of 3: node … was lost: …"
    if (update.finished && !isFinished(e->item.state)) {
        e->item.measurementIds = update.measurementIds;
        e->item.hardwareId = update.hardwareId;
        e->item.casesOk = update.casesOk;
        if (update.casesTotal > 0)
            e->item.casesTotal = update.casesTotal;
        e->item.medianNs = update.medianNs;
        finish(*e, update.state, update.outcome, update.message);
        if (!update.measurementIds.isEmpty())
            Q_EMIT measurementsStored(update.measurementIds, {e->item.job.kernelId});
    }
    markDirty();
}

void MeasureEngine::enqueueLowConfidence(double threshold, RowId forecasterId, int priority, const QString &cluster)
{
    if (!m_store) {
        Q_EMIT notice(tr("No store is open."));
        return;
    }
    auto forecasts = ForecastRepo(*m_store).list();
    if (!forecasts) {
        Q_EMIT notice(forecasts.error());
        return;
    }
    const QList<RowId> candidates = measure::lowConfidenceCandidates(*forecasts, threshold, forecasterId);
    MeasurementRepo measurements(*m_store);
    QList<MeasureJob> jobs;
    int measured = 0;
    int noSpec = 0;
    for (RowId id : candidates) {
        auto rows = measurements.forKernel(id);
        if (rows && std::any_of(rows->cbegin(), rows->cend(), [](const Measurement &m) {
                return m.source == MeasurementSource::Local;
            })) {
            ++measured;
            continue;
        }
        if (!measure::planMeasurement(*m_store, id)) {
            ++noSpec;
            continue;
        }
        jobs.append(MeasureJob {id, priority, MeasureMode::Local, {}, 0});
        if (!cluster.isEmpty()) {
            jobs.last().mode = MeasureMode::Cluster;
            jobs.last().cluster = cluster;
        }
    }
    Q_EMIT notice(tr("%n candidate(s) with forecast confidence below %1 queued", nullptr, int(jobs.size()))
                      .arg(threshold, 0, 'f', 2)
        + tr("; skipped: %1 already measured here, %2 without a kernel spec").arg(measured).arg(noSpec));
    if (!jobs.isEmpty())
        enqueue(jobs);
}

void MeasureEngine::cancel(const QList<quint64> &ids)
{
    for (quint64 id : ids) {
        Entry *e = entry(id);
        if (!e)
            continue;
        if (e->item.state == MeasureItemState::Queued) {
            finish(*e, MeasureItemState::Cancelled, {}, tr("cancelled before it ran"));
        } else if (e->item.state == MeasureItemState::Running && e->item.job.mode == MeasureMode::Cluster) {
            if (ClusterBackend *backend = m_clusters.value(e->item.cluster))
                backend->cancel(e->clusterRef);
        } else if (e->item.state == MeasureItemState::Running && e->item.worker >= 0) {
            // A kernel cannot be stopped inside the worker: the process goes, and a new one takes its place.
            e->cancelRequested = true;
            m_slots[e->item.worker].process->kill(tr("cancelled while running; gpuf-measure was killed"));
        }
    }
    markDirty();
}

void MeasureEngine::cancelAll()
{
    QList<quint64> ids;
    for (const Entry &e : std::as_const(m_entries)) {
        if (!isFinished(e.item.state))
            ids.append(e.item.id);
    }
    cancel(ids);
}

void MeasureEngine::remeasure(const QList<quint64> &ids)
{
    QList<MeasureJob> jobs;
    for (quint64 id : ids) {
        if (const Entry *e = entry(id); e && isFinished(e->item.state))
            jobs.append(e->item.job);
    }
    if (!jobs.isEmpty())
        enqueue(jobs);
}

void MeasureEngine::clearFinished()
{
    m_entries.removeIf([](const Entry &e) { return isFinished(e.item.state); });
    markDirty();
}

void MeasureEngine::shutdown()
{
    m_shuttingDown = true;
    for (Entry &e : m_entries) {
        if (e.item.state == MeasureItemState::Queued)
            finish(e, MeasureItemState::Cancelled, {}, tr("the queue was shut down"));
        else if (e.item.state == MeasureItemState::Running && e.item.job.mode != MeasureMode::Cluster)
            e.cancelRequested = true; // cluster jobs run on, and the next start collects them
    }
    bool anyRunning = false;
    for (Slot &slot : m_slots) {
        if (slot.process->state() == WorkerProcess::State::Stopped)
            continue;
        anyRunning = true;
        // A worker busy with a kernel cannot read the shutdown request until it is done: it goes at once.
        if (slot.itemId != 0)
            slot.process->kill(tr("the queue was shut down"));
        else
            slot.process->stop();
    }
    emitSnapshot();
    if (!anyRunning)
        Q_EMIT shutDown();
}

void MeasureEngine::reloadWorkerArguments()
{
    const QStringList arguments = measure::withPythonInterpreter(m_config.workerArguments);
    bool changed = false;
    for (Slot &slot : m_slots) {
        if (slot.process->arguments() == arguments)
            continue;
        slot.process->setArguments(arguments);
        slot.staleArguments = slot.process->state() != WorkerProcess::State::Stopped;
        changed = true;
    }
    if (!changed)
        return;
    m_sandboxRefusalSaid = false; // the restarted workers' hello says anew whether Python candidates are refused
    dispatch();
}

void MeasureEngine::dispatch()
{
    if (m_shuttingDown)
        return;
    for (Entry &e : m_entries) {
        if (e.item.state == MeasureItemState::Queued && e.item.job.mode == MeasureMode::Replay)
            runReplay(e);
    }
    for (int i = 0; i < m_slots.size(); ++i) {
        Slot &slot = m_slots[i];
        if (slot.staleArguments && slot.itemId == 0 && slot.process->state() == WorkerProcess::State::Idle) {
            slot.staleArguments = false;
            slot.restarting = true; // onWorkerStopped starts it again with its new arguments
            slot.process->stop();
        }
        if (slot.restarting || slot.process->state() != WorkerProcess::State::Idle || slot.itemId != 0)
            continue;
        Entry *next = nullptr;
        for (Entry &e : m_entries) {
            if (e.item.state != MeasureItemState::Queued)
                continue;
            if (!next || e.item.job.priority > next->item.job.priority)
                next = &e; // entries are in id order, so ties keep the earliest
        }
        if (!next)
            return;
        next->requestId = m_nextRequestId++;
        next->budgetMs = m_config.requestBudgetMs > 0 ? m_config.requestBudgetMs
                                                      : measure::requestBudgetMs(next->plan, next->item.job.options);
        next->item.state = MeasureItemState::Running;
        next->item.worker = i;
        next->item.dispatchIndex = ++m_dispatched;
        next->item.startedAt = QDateTime::currentDateTimeUtc();
        slot.itemId = next->item.id;
        slot.process->send(next->item.job.kind == MeasureKind::Compile
                ? measure::compileRequest(next->plan, next->requestId)
                : measure::measureRequest(next->plan, next->requestId, next->item.job.options),
            next->budgetMs);
        markDirty();
    }
}

void MeasureEngine::runReplay(Entry &e)
{
    e.item.replayed = true;
    e.item.startedAt = QDateTime::currentDateTimeUtc();
    if (!m_store) {
        finish(e, MeasureItemState::Failed, {}, tr("no store is open"));
        return;
    }
    auto rows = measure::replayRows(*m_store, e.item.job.kernelId, e.item.job.replayHardwareId);
    if (!rows) {
        finish(e, MeasureItemState::Failed, {}, rows.error());
        return;
    }
    Transaction tx(*m_store);
    MeasurementRepo repo(*m_store);
    QList<RowId> ids;
    Status status = tx.begin();
    for (Measurement &m : *rows) {
        if (!status)
            break;
        auto id = repo.insert(m);
        if (!id)
            status = Error {id.error()};
        else
            ids.append(*id);
    }
    if (status)
        status = tx.commit();
    if (!status) {
        finish(e, MeasureItemState::Failed, {}, tr("replay could not be stored: %1").arg(status.error()));
        return;
    }
    e.item.measurementIds = ids;
    e.item.hardwareId = rows->isEmpty() ? 0 : rows->first().hardwareId;
    MeasurementStatus worst = MeasurementStatus::Ok;
    e.item.casesTotal = static_cast<int>(rows->size());
    for (const Measurement &m : std::as_const(*rows)) {
        if (m.status == MeasurementStatus::Ok) {
            ++e.item.casesOk;
            if (e.item.medianNs < 0 && m.runtime)
                e.item.medianNs = m.runtime->medianNs;
        } else if (worst == MeasurementStatus::Ok) {
            worst = m.status;
        }
    }
    finish(e, MeasureItemState::Done, measurementStatusName(worst),
        tr("replayed from %n stored measurement(s)", nullptr, int(ids.size())));
    Q_EMIT measurementsStored(ids, {e.item.job.kernelId});
}

Result<QList<RowId>> MeasureEngine::storeRows(
    QList<Measurement> &rows, const QJsonObject &device, const QString &toolkit, QList<Measurement> *referenceRows)
{
    if (!m_store)
        return Error {tr("no store is open")};
    Transaction tx(*m_store);
    if (Status s = tx.begin(); !s)
        return Error {s.error()};
    auto ids = measure::storeMeasuredRows(*m_store, rows, device, toolkit, referenceRows);
    if (!ids)
        return Error {ids.error()};
    if (Status s = tx.commit(); !s)
        return Error {s.error()};
    return *ids;
}

void MeasureEngine::onWorkerResponse(int index, const QJsonObject &response)
{
    Slot &slot = m_slots[index];
    Entry *e = entry(slot.itemId);
    slot.itemId = 0;
    if (!e || response.value(QStringLiteral("id")).toInteger() != e->requestId) {
        dispatch();
        return;
    }
    if (e->item.job.kind == MeasureKind::Compile) {
        finishCompile(*e, response);
        dispatch();
        return;
    }
    const QJsonObject device = slot.process->deviceInfo();
    const QString measuredAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    measure::ResponseRows rows = measure::rowsFromResponse(response, e->plan, device, e->item.job.options, measuredAt);
    if (!rows.store) {
        finish(*e, MeasureItemState::Failed, rows.status, rows.message);
        dispatch();
        return;
    }
    const QString toolkit
        = response.value(QStringLiteral("provenance")).toObject().value(QStringLiteral("toolkit_version")).toString();
    auto ids = storeRows(rows.rows, device, toolkit, &rows.referenceRows);
    if (!ids) {
        finish(*e, MeasureItemState::Failed, rows.status, tr("measured, but not stored: %1").arg(ids.error()));
        dispatch();
        return;
    }
    e->item.measurementIds = *ids;
    e->item.hardwareId = rows.rows.first().hardwareId;
    e->item.casesTotal = static_cast<int>(rows.rows.size());
    for (const Measurement &m : std::as_const(rows.rows)) {
        if (m.status != MeasurementStatus::Ok)
            continue;
        ++e->item.casesOk;
        if (e->item.medianNs < 0 && m.runtime)
            e->item.medianNs = m.runtime->medianNs;
    }
    finish(*e, MeasureItemState::Done, rows.status, rows.message);
    QList<RowId> kernels {e->item.job.kernelId};
    if (!rows.referenceRows.isEmpty())
        kernels.append(rows.referenceRows.first().kernelId); // the Python reference, timed beside the candidate
    Q_EMIT measurementsStored(*ids, kernels);
    dispatch();
}

// A compile-only answer stores nothing: the item keeps the binary's hash, or how the compile went.
void MeasureEngine::finishCompile(Entry &e, const QJsonObject &response)
{
    const measure::CompileAnswer answer = measure::compileAnswer(response);
    e.item.binarySha256 = answer.binarySha256;
    if (answer.compiled)
        finish(e, MeasureItemState::Done, answer.status, tr("compiled (binary %1)").arg(answer.binarySha256.left(12)));
    else
        finish(e, answer.refused ? MeasureItemState::Done : MeasureItemState::Failed, answer.status, answer.message);
}

void MeasureEngine::onWorkerStopped(int index, const QString &reason)
{
    Slot &slot = m_slots[index];
    const bool wasReady = slot.process->reachedReady();
    if (Entry *e = entry(slot.itemId)) {
        if (e->cancelRequested)
            finish(*e, MeasureItemState::Cancelled, {}, reason);
        else
            // No answer at all is a timeout (docs/measure-protocol.md, restart rule); no row is stored, since nothing
            // says the kernel itself was at fault.
            finish(*e, MeasureItemState::TimedOut, QStringLiteral("timeout"), reason);
    }
    slot.itemId = 0;
    markDirty();
    if (m_shuttingDown) {
        const bool allStopped = std::all_of(m_slots.cbegin(), m_slots.cend(),
            [](const Slot &s) { return s.process->state() == WorkerProcess::State::Stopped; });
        if (allStopped)
            Q_EMIT shutDown();
        return;
    }
    if (!wasReady) {
        if (++slot.failedStarts >= m_config.maxFailedStarts) {
            slot.gaveUp = true; // probeDevice() or a new job tries again
            m_device.availability = DeviceState::Availability::Unavailable;
            m_device.reason = tr("gpuf-measure does not start: %1").arg(reason);
            const bool anyAlive
                = std::any_of(m_slots.cbegin(), m_slots.cend(), [](const Slot &s) { return !s.gaveUp; });
            if (!anyAlive)
                failQueuedLocal(m_device.reason);
            return;
        }
    }
    if (!std::exchange(slot.restarting, false))
        ++slot.restarts; // a restart for new arguments is no failure
    startSlot(index);
}

void MeasureEngine::failQueuedLocal(const QString &reason)
{
    for (Entry &e : m_entries) {
        if (e.item.state == MeasureItemState::Queued && e.item.job.mode == MeasureMode::Local)
            finish(e, MeasureItemState::Failed, QStringLiteral("infrastructure_failure"), reason);
    }
}

void MeasureEngine::finish(Entry &e, MeasureItemState state, const QString &outcome, const QString &message)
{
    e.item.state = state;
    e.item.outcome = outcome;
    e.item.message = message;
    e.item.finishedAt = QDateTime::currentDateTimeUtc();
    markDirty();
}

void MeasureEngine::markDirty()
{
    if (!m_snapshotTimer.isActive())
        m_snapshotTimer.start();
}

MeasureSnapshot MeasureEngine::snapshot() const
{
    MeasureSnapshot s;
    s.sequence = m_sequence;
    s.device = m_device;
    for (const Entry &e : m_entries) {
        s.items.append(e.item);
        if (e.item.state == MeasureItemState::Queued)
            ++s.queued;
        else if (e.item.state == MeasureItemState::Running)
            ++s.running;
        else
            ++s.finished;
    }
    for (const Slot &slot : m_slots)
        s.workers.append(WorkerStatus {slot.process->pid(), slot.process->stateName(), slot.itemId, slot.restarts});
    return s;
}

void MeasureEngine::emitSnapshot()
{
    m_snapshotTimer.stop();
    ++m_sequence;
    Q_EMIT snapshotReady(snapshot());
}

} // namespace gpuf
