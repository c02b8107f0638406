// Hardware: a GPU description as shown to forecasters and attached to measurements (DESIGN §3).
#pragma once

#include "core/domain/problem.h"

#include <QList>
#include <optional>

namespace gpuf {

struct Hardware
{
    RowId id = 0;
    QString name; // e.g. "NVIDIA A100-SXM4-80GB"; unique within a store
    QString computeCapability; // "M.m"
    int smCount = 0;
    int maxThreadsPerSm = 0;
    double clockGhz = 0.0;
    double memoryClockGhz = 0.0;
    int busWidthBits = 0;
    double globalMemoryGb = 0.0;
    qint64 l2Bytes = 0;
    qint64 sharedMemoryPerSm = 0;
    QString driverVersion;
    QString toolkitVersion;
};

// Presets known without a driver (paper-facts §11); others are read from the device at run time.
QList<Hardware> hardwarePresets();
std::optional<Hardware> hardwarePreset(const QString &nameOrAlias);

// The arithmetic precisions a roofline has a compute ceiling for: FP32 on the CUDA cores, the others on the tensor
// cores (dense, without 2:4 sparsity).
enum class Precision { Fp32, Fp16, Bf16, Fp8 };
QString precisionName(Precision precision); // "FP32", "FP16", …

// A GPU's peak rates: memory bandwidth and the FLOP rate of each precision. 0 means not known (or, for a preset, not
// supported: the A100 has no FP8 tensor cores).
struct PeakRates
{
    double bandwidthGBs = 0.0; // 10^9 bytes per second
    double fp32Tflops = 0.0; // CUDA cores, FMA counted as 2 FLOPs
    double fp16TensorTflops = 0.0;
    double bf16TensorTflops = 0.0;
    double fp8TensorTflops = 0.0;
    bool fromDatasheet = false; // a preset's datasheet row, else derived from the device's clocks
    QString source; // where the figures come from, for people

    double tflops(Precision precision) const;
    bool hasBandwidth() const { return bandwidthGBs > 0.0; }
};

// The datasheet row of a preset GPU (A100-SXM4-80GB, L40S, H100 SXM, H200, B200), matched by name as hardwarePreset().
std::optional<PeakRates> datasheetPeakRates(const QString &nameOrAlias);
// The datasheet row when `hardware` is a preset; otherwise bandwidth = 2 × memory clock × bus width / 8 (DDR, as
// gpuf-measure computes its floor) and FP32 = SMs × FP32 lanes per SM (by compute capability) × 2 × clock, with no
// tensor rates. Rates that cannot be derived stay 0.
PeakRates peakRatesOf(const Hardware &hardware);

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::Hardware)
