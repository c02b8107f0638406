// Where a measured kernel stands against the hardware: the work of a case (bytes it must move, FLOPs it does, from the
// kernel spec's `bytes_moved` and `flops` expressions or from what gpuf-measure reported), its arithmetic intensity,
// the rates it achieved, the roofline at that intensity, and the bandwidth floor a plausible time cannot beat. Pure
// functions over values: nothing here reads a store.
#pragma once

#include "core/common/result.h"
#include "core/domain/hardware.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace gpuf {

// What one case of a kernel must do. Absent: the spec (or the measurement) does not say.
struct CaseWork
{
    std::optional<double> bytes; // bytes it must move through device memory at least
    std::optional<double> flops; // floating-point operations
    QString source; // "spec" or "measurement": where the figures come from
    // The bytes the kernel was measured moving through DRAM (a profiler's counter), when a measurement gives them: a
    // naive kernel moves many times its ideal `bytes`, so its true intensity is far left of the algorithmic one.
    std::optional<double> dramBytes;
};

// Evaluates the spec's `bytes_moved` and `flops` for the case named `caseName` (its `vars`), with the expression rules
// gpuf-measure uses. An error names the case or the expression; a spec with neither expression gives an empty work.
Result<CaseWork> specCaseWork(const QJsonObject &spec, const QString &caseName);
// The `bytes_moved` and `flops` gpuf-measure reported with a case (Measurement::counters); Python problems carry
// their work only here. The measured DRAM traffic comes from `dram_bytes`, or from a profiler's metrics as Nsight
// Compute names them (`dram__bytes.sum`, or `dram__bytes_read.sum` + `dram__bytes_write.sum`).
CaseWork counterCaseWork(const QJsonObject &counters);
// Only the measured DRAM traffic of counterCaseWork, for a case whose work the spec states.
std::optional<double> measuredDramBytes(const QJsonObject &counters);

// The precision a kernel's arithmetic runs in, for the compute ceiling: the narrowest floating-point type among its
// spec's input buffers (f16, bf16), else words of the problem's description ("float16", "bfloat16"), else FP32.
Precision precisionOf(const QJsonObject &spec, const QString &problemDescription = {});

// Whether a measured time can be true: a time below bytes ÷ peak bandwidth moves data faster than the memory can.
struct Plausibility
{
    enum class State { Unknown, Plausible, Implausible };
    State state = State::Unknown; // Unknown: no bytes, no bandwidth or no time to judge by
    double timeNs = 0.0;
    double floorNs = 0.0;
    bool fromWorker = false; // gpuf-measure's own verdict (floor_us, implausible), not recomputed here

    bool isImplausible() const { return state == State::Implausible; }
};

// gpuf-measure's verdict when the counters carry `floor_us` (and `implausible`); otherwise bytes ÷ peak bandwidth
// against `timeNs` (the median).
Plausibility plausibilityOf(
    double timeNs, const QJsonObject &counters, std::optional<double> bytes, double peakBandwidthGBs);

// A measured case on the roofline.
struct RooflinePoint
{
    enum class Bound { Memory, Compute };
    // What can truly be said of the point. At ideal bytes the x is an upper bound on the kernel's intensity (it moves
    // at least those bytes): left of the ridge it is memory-bound whatever it really moves, but right of the ridge it
    // is compute-bound only if it also runs near the compute roof (kNearComputeRoof); far below it, the bound is not
    // known (Unknown) without its measured DRAM bytes, and with them only that DRAM does not limit it.
    enum class Verdict { MemoryBound, ComputeBound, Unknown };
    double bytes = 0.0; // the ideal bytes (spec or worker)
    std::optional<double> dramBytes; // measured DRAM traffic; when present the intensity and bandwidth use it
    std::optional<double> flops; // absent: the kernel states no arithmetic work
    double timeNs = 0.0;
    std::optional<double>
        intensity; // FLOPs per byte (measured DRAM bytes where known, else ideal); absent without flops
    std::optional<double> idealIntensity; // FLOPs per ideal byte (the algorithmic intensity)
    double achievedGBs = 0.0; // bytes (measured DRAM bytes where known) ÷ time
    std::optional<double> achievedTflops;
    std::optional<double> roofTflops; // min(peak FLOP rate, intensity × peak bandwidth)
    // Achieved FLOP rate ÷ roof; without flops (or with 0 FLOPs), achieved bandwidth ÷ peak bandwidth.
    double fractionOfRoof = 0.0;
    Bound bound = Bound::Memory; // which roof is lower at this intensity (memory without flops)
    Verdict verdict = Verdict::MemoryBound;
    // For memory to explain the time, the kernel would have to move this many times its ideal bytes (time ÷ floor).
    double memoryExplainsAt = 0.0;
    double ridgeIntensity = 0.0; // peak FLOP rate ÷ peak bandwidth: where the two roofs meet (0: no FLOP rate known)
    double floorNs = 0.0; // bytes ÷ peak bandwidth
    bool implausible = false; // timeNs below floorNs

    bool measuredBytes() const { return dramBytes.has_value(); }
};

// Below this share of the compute roof, a point right of the ridge at its ideal bytes is not called compute-bound.
inline constexpr double kNearComputeRoof = 0.5;

// The roofline figures of one case measured in `timeNs` on a GPU with `peaks`, for arithmetic in `precision`.
// Errors say what is missing: no bytes, a time that is not positive, no peak bandwidth for the GPU.
Result<RooflinePoint> rooflinePoint(const CaseWork &work, double timeNs, const PeakRates &peaks, Precision precision);

} // namespace gpuf
