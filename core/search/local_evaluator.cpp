// LocalEvaluator; see local_evaluator.h.
#include "core/search/local_evaluator.h"

#include "core/measure/measure_engine.h"
#include "core/search/replay_world.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/store.h"

#include <QEventLoop>
#include <QSet>

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
            if (m.source == MeasurementSource::Local)
                result.measurementIds.append(m.id);
        }
    }
    return result;
}

void LocalEvaluator::enqueue(const QList<RowId> &kernels, QList<quint64> *itemIds)
{
    QList<MeasureJob> jobs;
    for (RowId k : kernels) {
        jobs.append(MeasureJob {k, 0, MeasureMode::Local, {}, 0});
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

void LocalEvaluator::request(const QList<EvaluationRequest> &requests, Done done)
{
    m_done = std::move(done);
    QList<RowId> toMeasure;
    QList<EvaluationRequest> waiting;
    for (const EvaluationRequest &r : requests) {
        if (r.kernelId <= 0) {
            m_done(
                EvaluationResult {r.requestId, {}, QStringLiteral("the kernel is not stored: nothing to measure"), {}});
            continue;
        }
        // Local runs of this code already stored on this GPU (before a crash, or outside the search) answer at once.
        std::optional<EvaluationResult> known;
        if (auto hardware = HardwareRepo(m_store).findByName(m_hardwareName); hardware && hardware->has_value())
            known = fromStore(r, (*hardware)->id);
        if (known) {
            m_done(*known);
            continue;
        }
        toMeasure.append(r.kernelId);
        waiting.append(r);
    }
    if (toMeasure.isEmpty())
        return;
    QList<quint64> ids;
    enqueue(toMeasure, &ids);
    for (int i = 0; i < waiting.size() && i < ids.size(); ++i)
        m_pending.append({waiting.at(i), ids.at(i)});
}

void LocalEvaluator::onSnapshot(const MeasureSnapshot &snapshot)
{
    if (!m_done)
        return;
    QList<EvaluationResult> results;
    QList<Pending> still;
    bool needReference = false;
    const MeasureItem *reference = m_referenceItem ? snapshot.item(m_referenceItem) : nullptr;
    for (const Pending &p : std::as_const(m_pending)) {
        const MeasureItem *item = snapshot.item(p.itemId);
        if (!item || !isFinished(item->state)) {
            still.append(p);
            continue;
        }
        if (item->measurementIds.isEmpty()) {
            results.append({p.request.requestId, {},
                item->message.isEmpty() ? measureItemStateName(item->state) : item->message, {}});
            continue;
        }
        if (auto result = fromStore(p.request, item->hardwareId)) {
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
