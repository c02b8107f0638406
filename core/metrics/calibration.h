// Per-forecast scoring rules, reliability buckets and the confusion matrix (paper-facts §4).
#pragma once

#include "core/bins/bins.h"

#include <QtGlobal>

#include <array>

namespace gpuf::metrics {

inline constexpr int kReliabilityBuckets = 10;
inline constexpr double kNllFloor = 1e-12;

// What a parse failure is scored as in the "all rows" Brier, CRPS and NLL.
bins::Distribution uniformDistribution();

// Σ_b (p_b − y_b)², the form the authors' figures used (range 0..2).
double brierSum(const bins::Distribution &p, int trueBin);
// ½·Σ_b (p_b − y_b)², the library form (range 0..1).
double brierHalf(const bins::Distribution &p, int trueBin);
// (1/7)·Σ_{k=1..7} (F_k − [k ≥ t])² with F_k = Σ_{j≤k} p_j (range 0..1).
double crps(const bins::Distribution &p, int trueBin);
// −ln(max(p_t, 1e-12)).
double nll(const bins::Distribution &p, int trueBin);

// min(floor(10·c), 9), clamped at 0 so a slightly negative rounding error cannot index out of range.
int reliabilityBucket(double confidence);

struct ReliabilityBucket
{
    double low = 0.0;
    double high = 0.0;
    double meanConfidence = 0.0; // NaN when the bucket is empty
    double accuracy = 0.0; // NaN when the bucket is empty
    qint64 count = 0;
};
using Reliability = std::array<ReliabilityBucket, kReliabilityBuckets>;

// Σ (n_i/N)·|conf_i − acc_i| over the non-empty buckets; NaN when every bucket is empty.
double expectedCalibrationError(const Reliability &buckets);

// Rows are the true bin, columns the predicted bin; both 1..8 stored at index b − 1.
struct ConfusionMatrix
{
    std::array<std::array<qint64, bins::kBinCount>, bins::kBinCount> counts {};

    void add(int trueBin, int predictedBin);
    qint64 total() const;
    qint64 rowTotal(int trueBin) const;
    qint64 columnTotal(int predictedBin) const;
};

enum class ConfusionNormalisation { None, ByTrueBin, ByPredictedBin, ByTotal };
using NormalisedConfusion = std::array<std::array<double, bins::kBinCount>, bins::kBinCount>;
// Cells whose divisor is zero (an empty row, column or matrix) are NaN, so a heat map can leave them blank.
NormalisedConfusion normalised(const ConfusionMatrix &matrix, ConfusionNormalisation how);

} // namespace gpuf::metrics
