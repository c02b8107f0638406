// The cost model's training data read from a store: every ordered (reference, candidate) pair of kernels of one
// problem that were both measured on the same hardware, with the measured speedup (the shared rule of
// core/store/measured_speedup: geometric mean over the cases both ran ok; a failed candidate is a failure, not a
// bin, and is left out) and its true bin.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/hardware.h"
#include "core/domain/kernel.h"

#include <QHash>
#include <QList>

namespace gpuf {
class Store;
}

namespace gpuf::costmodel {

struct MeasuredPair
{
    RowId referenceId = 0;
    RowId candidateId = 0;
    RowId hardwareId = 0;
    RowId problemId = 0;
    double speedup = 0.0;
    int trueBin = 0;
};

// Why both directions: a forecast may be asked with any kernel as the reference (the search compares against the
// seed, the diff view against a parent, a user against anything), so A→B and B→A are both real questions. Their
// labels are consistent by construction (speedup S and 1/S).
inline constexpr char kPairPolicy[]
    = "every ordered pair (A, B), A != B, of kernels of one problem measured on the same hardware: both directions, "
      "since any kernel can be the reference of a forecast; speedup = geometric mean over the cases both measured ok; "
      "pairs whose candidate failed a case are left out (a failure is not a bin)";

struct TrainingSet
{
    QHash<RowId, Kernel> kernels;
    QHash<RowId, Hardware> hardware;
    QHash<RowId, QString> problems; // id → name (the operation)
    QList<MeasuredPair> pairs; // ordered by problem, hardware, reference, candidate

    QList<RowId> problemIds() const; // of the pairs, ascending
    // SHA-256 over the pairs as content (both kernels' content hashes, the hardware name, the speedup to 6
    // significant digits), so the same measurements give the same hash in any store.
    QString hash() const;
};

Result<TrainingSet> loadTrainingSet(Store &store, const CancelToken &cancel = {});

} // namespace gpuf::costmodel
