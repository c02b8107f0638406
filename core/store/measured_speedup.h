// The speedup of a candidate over its baseline from their measurements on one hardware (DESIGN §4), one rule shared
// by the candidate table and the scored pairs of the calibration metrics.
#pragma once

#include "core/domain/measurement.h"

#include <QString>

#include <span>

namespace gpuf {

// The newest measurement of one kernel for one case on one hardware.
struct CaseTiming
{
    int caseId = 0; // any id that is equal for equal case names
    MeasurementStatus status = MeasurementStatus::Ok;
    double medianNs = 0.0;
    bool replayed = false; // copied from stored runtimes (source 'replay'), not run here
};

// A stored status as the speedup rule sees it: an unknown name, or an ok run without a positive runtime (which
// cannot be divided by), counts as an infrastructure failure.
MeasurementStatus caseStatus(const QString &statusName, double medianNs);

struct MeasuredSpeedup
{
    enum class State : quint8 {
        None, // the candidate has no measurement
        Failed, // a case of the candidate failed: a failure, not a bin
        NoBaseline, // measured ok, but the baseline has no ok measurement of the same cases
        Speedup, // geometric mean over the cases both kernels measured ok
    };
    State state = State::None;
    MeasurementStatus failure = MeasurementStatus::Ok; // the first failed case's status, when Failed
    int cases = 0; // cases in the geometric mean
    double speedup = 0.0;
    // A timing the state rests on was replayed: the failed case (Failed), a candidate case (NoBaseline), or a case of
    // either kernel in the geometric mean (Speedup). Such a truth is shown marked as a replay everywhere.
    bool replayed = false;
};

// Any failed case of the candidate ⇒ Failed; otherwise the geometric mean over the cases both measured ok of
// (baseline median / candidate median). Both spans hold one timing per case in ascending caseId.
MeasuredSpeedup measuredSpeedup(std::span<const CaseTiming> candidate, std::span<const CaseTiming> baseline);

} // namespace gpuf
