// Reads of one (candidate, baseline) pair for the views that show it: both kernels and how the baseline relates to the
// candidate. Run on any thread with that thread's own Store connection.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/problem.h"

namespace gpuf {

class Store;

struct KernelPair
{
    // What the baseline is to the candidate: its problem's reference, its parent, or another kernel chosen.
    enum class BaselineRole { Reference, Parent, Other };

    Kernel candidate;
    Kernel baseline;
    BaselineRole role = BaselineRole::Other;
};

// Both kernels of the pair; fails with a message naming the kernel that is not in the store.
Result<KernelPair> loadKernelPair(Store &store, RowId candidateId, RowId baselineId, const CancelToken &cancel = {});

} // namespace gpuf
