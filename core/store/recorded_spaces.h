// What a replay can answer from, each counted in one query: the kernel families and imported tuning spaces a store
// holds recorded outcomes of (recorded sweeps, imported Kernel Tuner or T4 results), and the problems' recorded pools
// (every kernel of a problem with an outcome on a GPU where its reference has one).
#pragma once

#include "core/common/result.h"

#include <QList>
#include <QString>

namespace gpuf {

class Store;

struct RecordedSpace
{
    QString family; // the kernels' parameters' "family"
    QString problem;
    QString hardware;
    int configurations = 0; // kernels of the family with at least one measurement on that GPU (failures included)
};

// Those whose problem's reference has a measurement on the GPU too (a replay measures against it); by family, then GPU
// name.
Result<QList<RecordedSpace>> recordedSpaces(Store &store);

struct RecordedPool
{
    QString problem;
    QString hardware;
    int kernels = 0; // besides the reference, with at least one measurement on that GPU (failures included)
};

// The problems whose reference and at least one other kernel have a measurement on a GPU; by problem, then GPU name.
Result<QList<RecordedPool>> recordedPools(Store &store);

} // namespace gpuf
