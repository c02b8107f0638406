// The kernel families and imported tuning spaces a store holds recorded outcomes of (recorded sweeps, imported Kernel
// Tuner or T4 results): what a replay of a family search can answer from, counted in one query.
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

// By family, then GPU name.
Result<QList<RecordedSpace>> recordedSpaces(Store &store);

} // namespace gpuf
