// Reads the evidence behind a candidate's measured speedups from a store (evidence.h): its newest run of each case on
// each GPU it was measured on, its problem's reference's runs on the same GPU, the roofline figures of both and the
// verdicts. Off the GUI thread (through StoreSession::read) or in the CLI; a plain value afterwards.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/evidence/evidence.h"

namespace gpuf {
class Store;
}

namespace gpuf::evidence {

// The evidence of the kernel `candidateId` against its problem's reference, on the GPU named `hardwareName` (every
// GPU it was measured on when empty). A kernel the store lacks or a GPU it was not measured on is an error.
Result<CandidateEvidence> readCandidateEvidence(
    Store &store, RowId candidateId, const QString &hardwareName = {}, const CancelToken &cancel = {});

// The candidate whose evidence a measurement belongs to, for opening the evidence of one measurement.
Result<RowId> kernelOfMeasurement(Store &store, RowId measurementId);

} // namespace gpuf::evidence
