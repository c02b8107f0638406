// Internal to core/metrics: scored rows flattened once into per-row arrays, and the engines that read them
// (the report, the curves and the bootstrap share this so every metric is computed one way only).
#pragma once

#include "core/metrics/ordinal_scores.h"
#include "core/metrics/report.h"

#include <cstdint>
#include <span>
#include <vector>

namespace gpuf::metrics::detail {

struct Pool
{
    qint64 poolKey = 0;
    qint64 forecasterId = 0;
    qint64 hardwareId = 0;
    int repeat = 0;
    double best = 0.0;
    std::vector<std::uint32_t> rows; // prepared row indices
};

// Rows with a valid true bin, in input order; `source` maps each back to the caller's span.
struct PreparedRows
{
    std::size_t size() const { return source.size(); }

    std::vector<std::uint32_t> source;
    std::vector<std::uint8_t> parsed; // usable forecast
    std::vector<std::uint8_t> trueBin;
    std::vector<std::uint8_t> predictedBin; // 0 when not parsed
    std::vector<std::uint8_t> bucket; // reliability bucket of max_prob (parsed rows)
    // "All rows" forms: parse failures carry the uniform distribution's values.
    std::vector<double> brierSum, crps, nll;
    std::vector<bins::Distribution> distribution; // the forecast scored (uniform for parse failures)
    std::vector<double> entropy; // parsed rows
    std::array<std::vector<double>, 3> confidence; // by bins::kConfidenceScores; parsed rows
    // Per score: parsed rows by score, lowest first (ties in input order), the lengths of the runs of equal
    // scores along that order, and [predicted ≠ true] along it, so the threshold walks read memory in order.
    std::array<std::vector<std::uint32_t>, 3> ascending;
    std::array<std::vector<std::uint32_t>, 3> runs;
    std::array<std::vector<std::uint8_t>, 3> wrongAscending;
    std::vector<double> rankScore;
    std::vector<double> speedup; // NaN when unknown
    std::vector<qint64> pairId;
    std::vector<std::int32_t> pool; // index into pools, −1 when in none
    std::vector<Pool> pools;
};

// A forecast the metrics can trust: flagged parsed, a predicted bin in range, finite non-negative
// probabilities with a positive sum (renormalised again, a no-op for well-formed rows); else nullopt,
// and the row counts as a parse failure.
std::optional<bins::Distribution> usableDistribution(const ScoredRow &row);

PreparedRows prepare(
    std::span<const ScoredRow> rows, std::span<const std::uint32_t> selection, const MetricsOptions &options);

// Point estimates of every row-level scalar (all but AURC and utility) plus reliability, with each row
// counted `weights[i]` times (all once when weights is empty).
struct RowSummary
{
    double nAll = 0.0;
    double nParsed = 0.0;
    std::array<double, kScalarCount> scalars {};
    Reliability reliability {};
    BaseRateScores baseRate; // the base rate of the (weighted) rows' true bins, and its scores on them
};
RowSummary summarise(const PreparedRows &rows, std::span<const std::uint32_t> weights);

// The binary_mismatch curve of one score (index into bins::kConfidenceScores), ordered by coverage.
RiskCoverageCurve mismatchCurve(const PreparedRows &rows, int score);
// AURC of the weighted binary_mismatch curve without building it (the bootstrap's inner loop).
double weightedMismatchAurc(const PreparedRows &rows, int score, std::span<const std::uint32_t> weights);
// The regret curves of the three scores, ordered by coverage.
std::array<RiskCoverageCurve, 3> regretCurves(const PreparedRows &rows);

// Ranking pools with utility at 10% (pools below the minimum size were dropped in prepare()).
std::vector<RankingPool> rankingPools(const PreparedRows &rows);

// Percentile intervals of the scalars and of each reliability bucket's accuracy.
void bootstrapIntervals(const PreparedRows &rows, const std::vector<RankingPool> &pools, const MetricsOptions &options,
    MetricsReport &report);

} // namespace gpuf::metrics::detail
