// The evidence behind a measured speedup (issue 28): for each measurement the speedup rests on, who measured it, on
// what GPU at which clocks, how it was timed, how it stopped sampling, how certain it is, whether its output was
// checked, where it stands against the roofline, and the verdict on it; for the pair, the speedup with its 95 %
// interval. Values only, read from the store by evidence_reads.h. A fact the store does not hold stays empty and is
// shown as "not recorded", never guessed.
#pragma once

#include "core/domain/problem.h"
#include "core/store/speedup_interval.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace gpuf::evidence {

struct Clocks
{
    bool recorded = false; // the run carries a reading (available or not)
    bool available = false;
    double smMhz = 0.0;
    double memMhz = 0.0;
    QString reason; // why the worker could not read them
};

struct StopRule
{
    bool recorded = false;
    bool reachedTarget = false; // stopped because the RSE fell to the target (else the sample or time budget ran out)
    std::optional<double> targetRelStdErr;
    std::optional<int> minSamples;
    std::optional<int> maxSamples;
    std::optional<double> timeBudgetMs;
    std::optional<int> warmup;
    QString reason; // the worker's own words for why it stopped (counters.timings' stop_reason), when given
};

struct Correctness
{
    bool recorded = false;
    bool checked = false;
    int runs = 0;
    qint64 elements = 0;
    qint64 mismatches = 0;
    std::optional<double> maxAbsError; // worst over the compared buffers
    std::optional<double> maxRelError;
    std::optional<double> rtol; // the problem's tolerance
    std::optional<double> atol;
    QString note;
};

struct Roofline
{
    std::optional<double> floorNs; // bytes ÷ peak bandwidth
    std::optional<double> fractionOfPeak; // of the roof at the kernel's intensity (of peak bandwidth without FLOPs)
    QString problem; // why there is no point, when there is none
};

// One rule of the verdict that fired.
struct RuleHit
{
    QString rule; // "below-floor" | "unstable-clocks" | "rse-over-bound" | "interval-straddles-edge"
    QString detail; // the figures that made it fire, for people
};

struct Verdict
{
    enum class State { Clean, Suspicious, Quarantined };
    State state = State::Clean;
    QList<RuleHit> hits; // the rules that fired (also kept under a quarantine)
    QString note; // the user's note, when quarantined
    QDateTime quarantinedAt;
};
QString verdictStateName(Verdict::State state); // "clean" | "suspicious" | "quarantined"

// A Python measurement's two figures (docs/python-problems.md, "Device time and call time"), each with the method it
// was timed by, and which of them the speedup uses. Not recorded for a measurement with one figure (CUDA kernels,
// an older harness, imports).
struct TwoTimes
{
    bool recorded = false;
    std::optional<double> deviceMedianNs;
    std::optional<double> deviceMeanNs;
    QString deviceMethod; // "cupti_kernel_sum", "cuda_events" (no kernel records), …
    std::optional<double> callMedianNs;
    std::optional<double> callMeanNs;
    QString callMethod; // "do_bench_loop", …
    QString speedupTime; // "device" | "call"
    std::optional<bool> launchBound;
    std::optional<double> hostOverheadNs; // call − device medians
};

struct MeasurementEvidence
{
    RowId measurementId = 0;
    RowId kernelId = 0;
    QString role; // "candidate" | "baseline"
    QString caseName;
    QString status; // as stored
    QString source; // "local" | "replay" | "import"
    QString measuredBy; // in words: this machine's worker, a cluster node, a replay, an import
    QDateTime measuredAt;
    QString gpu; // the device the worker named, else the hardware row's name
    Clocks clocksBefore;
    Clocks clocksAfter;
    QString timingMethod; // empty: not recorded
    std::optional<bool> l2Flush; // absent: not recorded (imports)
    std::optional<double> medianNs;
    std::optional<double> relStdErr;
    std::optional<int> samples;
    StopRule stopRule;
    TwoTimes times;
    Correctness correctness;
    Roofline roofline;
    QString binaryHash; // the compiled binary's hash; empty: not recorded
    Verdict verdict;
};

struct HardwareEvidence
{
    RowId hardwareId = 0;
    QString hardwareName;
    std::optional<double> speedup; // as the candidate table shows it (measured_speedup.h); absent without one
    int cases = 0;
    std::optional<SpeedupInterval> interval; // absent: no shared case, or a spread not recorded
    QString intervalMethod; // how the interval was computed, for people
    QString noSpeedupReason;
    QList<MeasurementEvidence> measurements; // candidate's cases first, then the baseline's, each by case name
};

struct CandidateEvidence
{
    RowId candidateId = 0;
    QString candidateName;
    RowId baselineId = 0; // 0: the problem has no reference
    QString baselineName;
    QString problemName;
    QList<HardwareEvidence> hardware; // one per GPU the candidate was measured on, by hardware id
};

} // namespace gpuf::evidence
