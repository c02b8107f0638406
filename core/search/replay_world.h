// A replay world: one problem, its reference and the kernels with recorded runtimes on one GPU, each with the
// evaluation it would get. Searches over it run offline: the recorded pool proposes its kernels, the replay evaluator
// answers with their recorded outcome (marked as replayed everywhere).
#pragma once

#include "core/common/result.h"
#include "core/domain/hardware.h"
#include "core/domain/kernel.h"
#include "core/search/evaluator.h"

#include <QHash>

namespace gpuf {
class Store;
}

namespace gpuf::search {

struct RecordedKernel
{
    Kernel kernel; // as stored (source, parameters, origin)
    EvaluationFeedback feedback; // replayed = true
};

struct ReplayWorld
{
    Problem problem;
    Kernel reference;
    Hardware hardware;
    QList<RecordedKernel> kernels; // every kernel of the problem but the reference with a recorded outcome, by id
    QHash<QString, int> byHash; // content hash → position in kernels

    const RecordedKernel *find(const QString &contentHash) const;
};

// The world of `problemName` on `hardwareName` (empty: the hardware with most measurements of the problem). Errors
// name what is missing: the problem, its reference, the hardware, the reference's runtimes there.
Result<ReplayWorld> loadReplayWorld(Store &store, const QString &problemName, const QString &hardwareName = {});

// The outcome stored measurements of `kernelId` give against the reference's on `hardwareId` (newest per case):
// nullopt when either kernel has no usable measurement there. `source` limits the candidate's rows ("local": only
// runs on this machine); empty takes any.
Result<std::optional<EvaluationFeedback>> storedFeedback(
    Store &store, RowId kernelId, RowId referenceId, RowId hardwareId, const QString &source = {});

// Answers from the world's recorded outcomes; the reference itself is a speedup of 1. A kernel the world has no
// record of fails with a clear error (recorded as evaluation_failed).
class ReplayEvaluator : public Evaluator
{
public:
    explicit ReplayEvaluator(std::shared_ptr<const ReplayWorld> world)
        : m_world(std::move(world))
    { }
    QString kind() const override { return QStringLiteral("replay"); }
    void request(const QList<EvaluationRequest> &requests, Done done) override;
    void cancel() override { }

private:
    std::shared_ptr<const ReplayWorld> m_world;
};

} // namespace gpuf::search
