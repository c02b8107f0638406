// Pair reads; see pair_reads.h.
#include "core/store/pair_reads.h"

#include "core/store/problem_repo.h"

#include <QCoreApplication>

namespace gpuf {

Result<KernelPair> loadKernelPair(Store &store, RowId candidateId, RowId baselineId, const CancelToken &cancel)
{
    KernelRepo kernels(store);
    auto candidate = kernels.find(candidateId);
    if (!candidate)
        return candidate.failure();
    auto baseline = kernels.find(baselineId);
    if (!baseline)
        return baseline.failure();
    if (!candidate->has_value() || !baseline->has_value()) {
        return Error {QCoreApplication::translate("gpuf::KernelPair", "kernel %1 is not in the store")
                .arg(!candidate->has_value() ? candidateId : baselineId)};
    }
    if (cancel.isCancelled())
        return Error::cancelled();
    KernelPair pair;
    pair.candidate = std::move(**candidate);
    pair.baseline = std::move(**baseline);
    auto problem = ProblemRepo(store).find(pair.candidate.problemId);
    if (problem && problem->has_value() && (*problem)->referenceKernelId == pair.baseline.id)
        pair.role = KernelPair::BaselineRole::Reference;
    else if (pair.candidate.parentId == pair.baseline.id)
        pair.role = KernelPair::BaselineRole::Parent;
    return pair;
}

} // namespace gpuf
