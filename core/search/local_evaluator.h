// Measurements on this machine's GPU for a search: the measurement queue (MeasureEngine, its gpuf-measure workers)
// on the search's own thread; or, with a cluster profile, on a Slurm cluster's nodes through the same queue. A kernel
// that already has local measurements on the GPU (a run the search made before a crash, or one made outside it) is
// answered from them: the same code is never measured twice. On the local GPU each other kernel is compiled first;
// when a kernel whose binary has the same SHA-256 and whose spec runs it the same way (launches, buffers, cases) was
// measured on this GPU (or is being measured), its measurement is taken instead (the result names it:
// reusedFromKernel), so the same binary is never measured twice either.
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
    // Compiling: its binary's hash is on the way; Measuring: it runs on the GPU; Waiting: its binary is the same as
    // one being measured, whose measurement it will take.
    enum class Stage { Compiling, Measuring, Waiting };
    struct Pending
    {
        EvaluationRequest request;
        quint64 itemId = 0;
        Stage stage = Stage::Measuring;
        QString binarySha256; // once compiled
    };
    void onSnapshot(const MeasureSnapshot &snapshot);
    void enqueue(const QList<RowId> &kernels, QList<quint64> *itemIds, bool compileOnly = false);
    // The outcome of `kernelId` from its local rows on `hardwareId`; nullopt when they are not all there yet.
    std::optional<EvaluationResult> fromStore(const EvaluationRequest &request, RowId hardwareId);
    // The outcome of another kernel measured on this GPU whose binary is `p.binarySha256` and whose spec launches it
    // the same way on the same cases (runSpec); nullopt when there is none.
    std::optional<EvaluationResult> reused(const Pending &p);
    QJsonObject runSpec(RowId kernelId);
    // Waiting entries whose binary is no longer being measured: reused when they can be, else measured.
    void settleWaiting(QList<EvaluationResult> *results);
    void measure(QList<Pending> &entries);
    RowId hardwareId();

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
