// Selective prediction: the threshold rule, risk–coverage curves, AURC and selective risk (paper-facts §3).
#pragma once

#include "core/bins/bins.h"
#include "core/metrics/scored_row.h"

#include <QString>

#include <span>
#include <vector>

namespace gpuf::metrics {

struct MetricsOptions;

// binary_mismatch: mean of [predicted_bin ≠ true_bin] over the predicted rows (NaN when none).
// regret: per ranking pool, best true speedup − best speedup the policy obtains (it trusts the predicted
// rows of the top predicted bin, taking the best of them, and measures every abstained row), averaged over
// the pools; zero when everything in a pool is abstained.
enum class RiskKind { BinaryMismatch, Regret };
QString riskKindName(RiskKind risk); // "binary_mismatch" | "regret"

// Parse failure ⇒ abstain; otherwise abstain iff score < τ (strict).
bool abstains(const ScoredRow &row, bins::ConfidenceScore score, double threshold);

struct RiskCoveragePoint
{
    double threshold = 0.0; // ±∞ at the ends
    double coverage = 0.0; // predicted / all rows (parse failures count in the denominator)
    double risk = 0.0; // NaN where undefined
    qint64 predicted = 0;
};
using RiskCoverageCurve = std::vector<RiskCoveragePoint>;

// One point per threshold in sorted unique {−∞} ∪ {scores of parsed rows} ∪ {+∞}, ordered by increasing
// coverage (decreasing threshold). Regret pools follow options.minPoolSize.
RiskCoverageCurve riskCoverageCurve(
    std::span<const ScoredRow> rows, bins::ConfidenceScore score, RiskKind risk, const MetricsOptions &options);

// Trapezoid over the coverage-sorted points, skipping NaN risks and equal-coverage neighbours; NaN when
// fewer than 2 points have a risk.
double aurc(std::span<const RiskCoveragePoint> curve);

// Risk at the given coverage by linear interpolation between the points with a risk, clamped to the ends;
// NaN when no point has a risk.
double selectiveRiskAt(std::span<const RiskCoveragePoint> curve, double coverage);

// The outcome of one threshold, for a slider: the same numbers as the curve's point at that threshold.
struct ThresholdOutcome
{
    qint64 total = 0;
    qint64 predicted = 0;
    double coverage = 0.0;
    double binaryMismatch = 0.0;
    double regret = 0.0;
};
ThresholdOutcome applyThreshold(
    std::span<const ScoredRow> rows, bins::ConfidenceScore score, double threshold, const MetricsOptions &options);

} // namespace gpuf::metrics
