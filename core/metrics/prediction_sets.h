// Prediction sets over contiguous bins ("bins 4–6 with 90 %"): read off the forecast, and calibrated on measured
// pairs by split conformal prediction, with their empirical coverage and width (issue 28).
#pragma once

#include "core/bins/bins.h"

#include <QtGlobal>

#include <array>
#include <span>
#include <vector>

namespace gpuf::metrics {

// A run of adjacent bins low..high (1..8) and the forecast's mass on it.
struct BinRange
{
    int low = 1;
    int high = bins::kBinCount;
    double mass = 0.0;
    int width() const { return high - low + 1; }
    bool contains(int bin) const { return bin >= low && bin <= high; }
};

// The shortest run whose mass reaches `level` (within 1e-9, so 0.3 + 0.3 + 0.3 reaches 0.9); among equally short
// runs the one with more mass, then the lower one.
BinRange shortestSet(const bins::Distribution &p, double level);

// The nested contiguous sets conformal prediction thresholds: start at the most probable bin (ties: the lower) and
// add, one bin at a time, whichever neighbour of the run holds more mass (ties: the lower bin). order[j] is the bin
// added at step j.
std::array<int, bins::kBinCount> growthOrder(const bins::Distribution &p);

// Nonconformity of the true bin: the mass of the bins added before it in growthOrder() (0 for the mode). The
// conformal set at threshold q holds every bin whose score is ≤ q — a prefix of the growth order, so contiguous.
double conformalScore(const bins::Distribution &p, int trueBin);
BinRange conformalSet(const bins::Distribution &p, double threshold);

// Split conformal threshold at miscoverage α: the ⌈(n+1)(1−α)⌉-th smallest calibration score, +∞ (the full set)
// when that rank exceeds n. `scores` is reordered.
double conformalThreshold(std::vector<double> &scores, double alpha);

// One row of the coverage-versus-width table.
struct CoverageRow
{
    double alpha = 0.0; // nominal coverage 1 − α
    qint64 count = 0;
    double forecastCoverage = 0.0; // shortestSet(p, 1 − α) ∋ true bin, mean over rows; NaN without rows
    double forecastWidth = 0.0; // its mean width in bins
    double conformalCoverage = 0.0; // cross-fitted split conformal (below); NaN without rows
    double conformalWidth = 0.0;
    double conformalThreshold = 0.0; // calibrated on every row: what a new pair's set would use
};

inline constexpr std::array<double, 4> kSetAlphas {0.5, 0.2, 0.1, 0.05};
inline constexpr int kConformalFolds = 5;
inline constexpr quint64 kConformalSeed = 20260531;

// Rows are split into kConformalFolds folds by a seeded hash of `groups` (the candidate: repeats of one pair stay in
// one fold, so a pair never calibrates its own set); each fold's sets use the threshold calibrated on the other
// folds, and coverage and width are read on the held-out fold, so every figure is out of sample.
std::vector<CoverageRow> coverageTable(std::span<const bins::Distribution> forecasts,
    std::span<const std::uint8_t> trueBins, std::span<const qint64> groups,
    std::span<const double> alphas = kSetAlphas);

} // namespace gpuf::metrics
