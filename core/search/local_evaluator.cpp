// LocalEvaluator; see local_evaluator.h.
#include "core/search/local_evaluator.h"

#include "core/measure/measure_engine.h"
#include "core/measure/measure_plan.h"
#include "core/search/replay_world.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/store.h"

#include <QEventLoop>
#include <QSet>

#include <algorithm>

namespace gpuf::search {

LocalEvaluator::LocalEvaluator(Store &store, const QString &storePath, RowId referenceKernelId,
    const QString &hardwareName, const MeasureEngineConfig &config, const QString &cluster)
    : m_store(store)
    , m_cluster(cluster)
    , m_referenceId(referenceKernelId)
    , m_hardwareName(hardwareName)
    , m_engine(std::make_unique<MeasureEngine>(config))
{
    m_engine->setStorePath(storePath);
    QObject::connect(m_engine.get(), &MeasureEngine::snapshotReady, &m_context,
        [this](const gpuf::MeasureSnapshot &snapshot) { onSnapshot(snapshot); });
}

LocalEvaluator::~LocalEvaluator()
{
    m_done = nullptr;
    m_engine->shutdown(); // asks the workers to exit; what is still running is ended with the engine
}

void LocalEvaluator::cancel()
{
    m_done = nullptr;
    m_pending.clear();
    m_engine->cancelAll();
}

RowId LocalEvaluator::hardwareId()
{
    auto hardware = HardwareRepo(m_store).findByName(m_hardwareName);
    return hardware && hardware->has_value() ? (*hardware)->id : 0;
}

std::optional<EvaluationResult> LocalEvaluator::fromStore(const EvaluationRequest &request, RowId hardwareId)
{
    auto feedback = storedFeedback(m_store, request.kernelId, m_referenceId, hardwareId, QStringLiteral("local"));
    if (!feedback || !feedback->has_value())
        return std::nullopt;
    EvaluationResult result;
    result.requestId = request.requestId;
    result.feedback = **feedback;
    if (auto rows = MeasurementRepo(m_store).forKernel(request.kernelId, hardwareId)) {
        for (const Measurement &m : std::as_const(*rows)) {
            if (m.source != MeasurementSource::Local)
                continue;
            result.measurementIds.append(m.id);
            if (const QString binary = m.provenance.value(QStringLiteral("binary_sha256")).toString();
                !binary.isEmpty())
                result.binarySha256 = binary;
        }
    }
    return result;
}

// What runs besides the binary: the launches (grid, block, shared memory), buffers, cases and options of the kernel's
// spec. The same cubin launched otherwise, or on other sizes, is another measurement; an empty object: no spec.
QJsonObject LocalEvaluator::runSpec(RowId kernelId)
{
    auto spec = measure::kernelSpec(m_store, kernelId);
    if (!spec)
        return {};
    spec->remove(QStringLiteral("source"));
    spec->remove(QStringLiteral("name"));
    return *spec;
}

std::optional<EvaluationResult> LocalEvaluator::reused(const Pending &p)
{
    const RowId hardware = hardwareId();
    if (p.binarySha256.isEmpty() || hardware == 0)
        return std::nullopt;
    const QJsonObject run = runSpec(p.request.kernelId);
    if (run.isEmpty())
        return std::nullopt;
    auto rows = MeasurementRepo(m_store).localRunsOfBinary(hardware, p.binarySha256);
    if (!rows)
        return std::nullopt;
    QList<RowId> kernels; // in the order they were first measured
    for (const Measurement &m : std::as_const(*rows)) {
        if (m.kernelId != p.request.kernelId && !kernels.contains(m.kernelId))
            kernels.append(m.kernelId);
    }
    for (RowId kernel : std::as_const(kernels)) {
        if (runSpec(kernel) != run)
            continue;
        auto feedback = storedFeedback(m_store, kernel, m_referenceId, hardware, QStringLiteral("local"));
        if (!feedback || !feedback->has_value())
            continue;
        EvaluationResult result;
        result.requestId = p.request.requestId;
        result.feedback = **feedback;
        result.binarySha256 = p.binarySha256;
        result.reusedFromKernel = kernel;
        for (const Measurement &m : std::as_const(*rows)) {
            if (m.kernelId == kernel)
                result.measurementIds.append(m.id);
        }
        return result;
    }
    return std::nullopt;
}

void LocalEvaluator::enqueue(const QList<RowId> &kernels, QList<quint64> *itemIds, bool compileOnly)
{
    QList<MeasureJob> jobs;
    for (RowId k : kernels) {
        jobs.append(MeasureJob {k, 0, MeasureMode::Local, {}, 0});
        if (compileOnly)
            jobs.last().kind = MeasureKind::Compile;
        if (!m_cluster.isEmpty()) {
            jobs.last().mode = MeasureMode::Cluster;
            jobs.last().cluster = m_cluster;
        }
    }
    m_engine->enqueue(jobs);
    // Items are numbered in queue order: the last ones are the ones just added.
    const QList<MeasureItem> items = m_engine->snapshot().items;
    for (qsizetype i = items.size() - jobs.size(); i < items.size(); ++i)
        itemIds->append(items.at(i).id);
}

// Sends `entries` to the GPU, in order; each becomes Measuring with its item.
void LocalEvaluator::measure(QList<Pending> &entries)
{
    if (entries.isEmpty())
        return;
    QList<RowId> kernels;
    for (const Pending &p : std::as_const(entries))
        kernels.append(p.request.kernelId);
    QList<quint64> ids;
    enqueue(kernels, &ids);
    for (int i = 0; i < entries.size() && i < ids.size(); ++i) {
        entries[i].stage = Stage::Measuring;
        entries[i].itemId = ids.at(i);
        m_pending.append(entries.at(i));
    }
}

void LocalEvaluator::request(const QList<EvaluationRequest> &requests, Done done)
{
    m_done = std::move(done);
    QList<Pending> toMeasure;
    QList<Pending> toCompile;
    const RowId hardware = hardwareId();
    for (const EvaluationRequest &r : requests) {
        if (r.kernelId <= 0) {
            m_done(
                EvaluationResult {r.requestId, {}, QStringLiteral("the kernel is not stored: nothing to measure"), {}});
            continue;
        }
        // Local runs of this code already stored on this GPU (before a crash, or outside the search) answer at once.
        if (auto known = hardware ? fromStore(r, hardware) : std::nullopt) {
            m_done(*known);
            continue;
        }
        // A cluster's nodes are other GPUs: only this machine's measurements are reused, so only here is it compiled.
        (m_cluster.isEmpty() ? toCompile : toMeasure).append(Pending {r, 0, Stage::Compiling, {}});
    }
    measure(toMeasure);
    if (toCompile.isEmpty())
        return;
    QList<RowId> kernels;
    for (const Pending &p : std::as_const(toCompile))
        kernels.append(p.request.kernelId);
    QList<quint64> ids;
    enqueue(kernels, &ids, true);
    for (int i = 0; i < toCompile.size() && i < ids.size(); ++i) {
        toCompile[i].itemId = ids.at(i);
        m_pending.append(toCompile.at(i));
    }
}

void LocalEvaluator::settleWaiting(QList<EvaluationResult> *results)
{
    QList<Pending> toMeasure;
    QList<Pending> still;
    auto beingMeasured = [&](const QString &binary) {
        auto same = [&](const Pending &o) { return o.stage == Stage::Measuring && o.binarySha256 == binary; };
        return std::any_of(m_pending.cbegin(), m_pending.cend(), same)
            || std::any_of(toMeasure.cbegin(), toMeasure.cend(), same);
    };
    for (const Pending &p : std::as_const(m_pending)) {
        if (p.stage != Stage::Waiting) {
            still.append(p);
            continue;
        }
        if (beingMeasured(p.binarySha256)) {
            still.append(p);
        } else if (auto result = reused(p)) {
            results->append(*result);
        } else {
            toMeasure.append(p);
            toMeasure.last().stage = Stage::Measuring; // an identical binary that follows waits for this one
        }
    }
    m_pending = still;
    measure(toMeasure);
}

void LocalEvaluator::onSnapshot(const MeasureSnapshot &snapshot)
{
    if (!m_done)
        return;
    QList<EvaluationResult> results;
    QList<Pending> still;
    QList<Pending> compiledFailed; // not compiled (NVRTC refused it, a Python candidate…): measured as before
    bool needReference = false;
    const MeasureItem *reference = m_referenceItem ? snapshot.item(m_referenceItem) : nullptr;
    for (Pending p : std::as_const(m_pending)) {
        const MeasureItem *item = p.stage == Stage::Waiting ? nullptr : snapshot.item(p.itemId);
        if (p.stage == Stage::Waiting || !item || !isFinished(item->state)) {
            still.append(p);
            continue;
        }
        if (p.stage == Stage::Compiling) {
            p.binarySha256 = item->binarySha256;
            if (p.binarySha256.isEmpty()) {
                compiledFailed.append(p);
            } else if (auto result = reused(p)) {
                results.append(*result);
            } else {
                p.stage = Stage::Waiting;
                p.itemId = 0;
                still.append(p);
            }
            continue;
        }
        if (item->measurementIds.isEmpty()) {
            results.append({p.request.requestId, {},
                item->message.isEmpty() ? measureItemStateName(item->state) : item->message, {}});
            continue;
        }
        if (auto result = fromStore(p.request, item->hardwareId)) {
            if (result->binarySha256.isEmpty())
                result->binarySha256 = p.binarySha256;
            results.append(*result);
            continue;
        }
        // Measured, but the reference has no local run on this GPU yet: measure it once, then answer.
        if (reference && isFinished(reference->state)) {
            results.append({p.request.requestId, {},
                QStringLiteral("the reference could not be measured on this GPU: %1")
                    .arg(reference->message.isEmpty() ? reference->outcome : reference->message),
                {}});
            continue;
        }
        needReference = true;
        still.append(p);
    }
    m_pending = still;
    measure(compiledFailed);
    settleWaiting(&results);
    if (needReference && !m_referenceItem) {
        QList<quint64> ids;
        enqueue({m_referenceId}, &ids);
        m_referenceItem = ids.value(0);
    }
    for (const EvaluationResult &r : std::as_const(results)) {
        if (m_done)
            m_done(r);
    }
}

Result<QString> probeLocalGpu(const MeasureEngineConfig &config, const std::function<void(const QString &)> &notice)
{
    MeasureEngine engine(config);
    if (notice)
        QObject::connect(&engine, &MeasureEngine::notice, &engine, notice);
    auto known = [](const MeasureSnapshot &s) {
        return s.device.availability == DeviceState::Availability::Available
            || s.device.availability == DeviceState::Availability::Unavailable;
    };
    engine.probeDevice();
    if (!known(engine.snapshot())) {
        QEventLoop loop;
        QObject::connect(&engine, &MeasureEngine::snapshotReady, &loop, [&](const gpuf::MeasureSnapshot &s) {
            if (known(s))
                loop.quit();
        });
        loop.exec();
    }
    const DeviceState device = engine.snapshot().device;
    QEventLoop down;
    QObject::connect(&engine, &MeasureEngine::shutDown, &down, &QEventLoop::quit, Qt::QueuedConnection);
    engine.shutdown();
    down.exec();
    if (!device.isAvailable())
        return Error {QStringLiteral("--gpu local: no GPU to measure on: %1").arg(device.reason)};
    return device.devices.isEmpty() ? QStringLiteral("local GPU") : device.devices.first().name;
}

} // namespace gpuf::search
