// Ordinal skill: the ranked probability score, and the base rate of the true bins (climatology) as the reference
// forecast every skill score is measured against (issue 28, "Ordinal calibration").
#pragma once

#include "core/bins/bins.h"

#include <array>

namespace gpuf::metrics {

// Weighted counts of the true bins of the evaluated rows, bin b at index b − 1.
using BinCounts = std::array<double, bins::kBinCount>;

// Ranked probability score over the 8 ordered bins: (1/7)·Σ_{k=1..7} (F_k − [t ≤ k])², F_k = Σ_{j≤k} p_j
// (range 0..1). The same number as crps(), the name paper-facts §4 gives it.
double rps(const bins::Distribution &p, int trueBin);

// The base-rate forecaster and its mean scores on the rows it was counted from: it forecasts counts / total for every
// row, so its score is Σ_t (c_t / N)·score(base rate, t). Scores are NaN (and the distribution zero) without rows.
struct BaseRateScores
{
    bins::Distribution p {};
    double rps = 0.0;
    double brierSum = 0.0;
    double nll = 0.0;
};
BaseRateScores baseRateScores(const BinCounts &counts);

// Skill against a reference: 1 − score / reference (1 is perfect, 0 no better than the reference, negative worse);
// NaN when the reference is 0 (every row in one bin, so nothing is left to forecast) or not finite.
double skillScore(double score, double reference);

} // namespace gpuf::metrics
