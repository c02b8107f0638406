// Consistency bands of a reliability diagram (Bröcker & Smith 2007, "Increasing the reliability of reliability
// diagrams"): where a bucket's observed frequency would lie if the forecasts were calibrated.
#pragma once

#include "core/metrics/bootstrap.h"

#include <span>

namespace gpuf::metrics {

// Outcomes up to this many per bucket get the exact distribution; above it, a skew-corrected normal approximation.
inline constexpr qsizetype kExactBandLimit = 200;

// The central `level` range of the observed frequency k/n when each of the n outcomes is drawn Bernoulli(p_i), as
// Bröcker & Smith's resampling would give with unlimited resamples: the frequency follows the Poisson-binomial law,
// computed exactly (by convolution) for n ≤ kExactBandLimit, else by the Cornish–Fisher quantiles of its mean,
// variance and skewness. Bounds are k/n at the (1 − level)/2 and (1 + level)/2 quantiles; NaN for no forecasts.
Interval consistencyBand(std::span<const double> probabilities, double level);

} // namespace gpuf::metrics
