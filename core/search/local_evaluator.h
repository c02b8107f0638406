// Measurements on this machine's GPU for a search: the measurement queue (MeasureEngine, its gpuf-measure workers)
// on the search's own thread; or, with a cluster profile, on a Slurm cluster's nodes through the same queue. A kernel
// that already has local measurements on the GPU (a run the search made before a crash, or one made outside it) is
// answered from them: the same code is never measured twice.
#pragma once

#include "core/search/evaluator.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <memory>

namespace gpuf {
class MeasureEngine;
class Store;
struct MeasureSnapshot;
struct MeasureEngineConfig;
} // namespace gpuf

namespace gpuf::search {

class LocalEvaluator : public Evaluator
{
public:
    // `store` is the search's connection (same thread); the queue opens its own to `storePath`.
    // `hardwareName`: this machine's GPU as the search recorded it; stored local runs on it answer without measuring.
    LocalEvaluator(Store &store, const QString &storePath, RowId referenceKernelId, const QString &hardwareName,
        const MeasureEngineConfig &config, const QString &cluster = {});
    ~LocalEvaluator() override;
    QString kind() const override { return m_cluster.isEmpty() ? QStringLiteral("local") : QStringLiteral("cluster"); }
    void request(const QList<EvaluationRequest> &requests, Done done) override;
    void cancel() override;

private:
    struct Pending
    {
        EvaluationRequest request;
        quint64 itemId = 0;
    };
    void onSnapshot(const MeasureSnapshot &snapshot);
    void enqueue(const QList<RowId> &kernels, QList<quint64> *itemIds);
    // The outcome of `kernelId` from its local rows on `hardwareId`; nullopt when they are not all there yet.
    std::optional<EvaluationResult> fromStore(const EvaluationRequest &request, RowId hardwareId);

    Store &m_store;
    QString m_cluster; // a Slurm cluster profile: the measurements run on its nodes (docs/cluster.md)
    RowId m_referenceId = 0;
    QString m_hardwareName;
    std::unique_ptr<MeasureEngine> m_engine;
    QObject m_context; // owns the signal connections
    QList<Pending> m_pending;
    quint64 m_referenceItem = 0; // the reference's own measurement, when one was needed
    QHash<RowId, RowId> m_referenceMeasuredOn; // hardware → 1 once the reference has local runs there
    Done m_done;
};

// Starts gpuf-measure once to learn whether this machine has a GPU it can measure on: the device's name, or why not
// ("no NVIDIA driver found (…)", "gpuf-measure was not built"). Waits in a local event loop. What the worker says on
// the way (that it refuses Python candidates for want of a sandbox, and why) goes to `notice`, when given.
Result<QString> probeLocalGpu(
    const MeasureEngineConfig &config, const std::function<void(const QString &)> &notice = {});

} // namespace gpuf::search
