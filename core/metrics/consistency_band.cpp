// Poisson-binomial quantiles for consistency bands; see consistency_band.h.
#include "core/metrics/consistency_band.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpuf::metrics {
namespace {

// Smallest k with P(K ≤ k) ≥ q, from the exact law of K = Σ Bernoulli(p_i).
qsizetype exactQuantile(const std::vector<double> &pmf, double q)
{
    double cdf = 0.0;
    for (std::size_t k = 0; k < pmf.size(); ++k) {
        cdf += pmf[k];
        // A little slack for the rounding of the convolution, so a quantile that is exactly met is not missed.
        if (cdf >= q - 1e-12)
            return qsizetype(k);
    }
    return qsizetype(pmf.size()) - 1;
}

std::vector<double> poissonBinomial(std::span<const double> probabilities)
{
    std::vector<double> pmf(probabilities.size() + 1, 0.0);
    pmf[0] = 1.0;
    std::size_t top = 0;
    for (double p : probabilities) {
        const double pi = std::clamp(p, 0.0, 1.0);
        ++top;
        for (std::size_t k = top; k > 0; --k)
            pmf[k] = pmf[k] * (1.0 - pi) + pmf[k - 1] * pi;
        pmf[0] *= 1.0 - pi;
    }
    return pmf;
}

// Standard normal quantile by Acklam's rational approximation (relative error below 1.2e-9).
double normalQuantile(double q)
{
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
        1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
        6.680131188771972e+01, -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
        -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static constexpr double d[]
        = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00};
    const double low = 0.02425;
    if (q < low || q > 1.0 - low) {
        const double r = std::sqrt(-2.0 * std::log(q < low ? q : 1.0 - q));
        const double x = (((((c[0] * r + c[1]) * r + c[2]) * r + c[3]) * r + c[4]) * r + c[5])
            / ((((d[0] * r + d[1]) * r + d[2]) * r + d[3]) * r + 1.0);
        return q < low ? x : -x;
    }
    const double u = q - 0.5;
    const double r = u * u;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * u
        / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

Interval approximateBand(std::span<const double> probabilities, double lowQ, double highQ)
{
    double mean = 0.0, variance = 0.0, third = 0.0;
    for (double p : probabilities) {
        const double pi = std::clamp(p, 0.0, 1.0);
        mean += pi;
        variance += pi * (1.0 - pi);
        third += pi * (1.0 - pi) * (1.0 - 2.0 * pi);
    }
    const double n = double(probabilities.size());
    const double sd = std::sqrt(variance);
    const double skew = sd > 0.0 ? third / (variance * sd) : 0.0;
    const auto at = [&](double q) {
        const double z = normalQuantile(q);
        const double k = std::round(mean + sd * (z + skew * (z * z - 1.0) / 6.0));
        return std::clamp(k, 0.0, n) / n;
    };
    return {at(lowQ), at(highQ)};
}

} // namespace

Interval consistencyBand(std::span<const double> probabilities, double level)
{
    if (probabilities.empty())
        return {};
    const double tail = (1.0 - std::clamp(level, 0.0, 1.0)) / 2.0;
    if (qsizetype(probabilities.size()) > kExactBandLimit)
        return approximateBand(probabilities, tail, 1.0 - tail);
    const std::vector<double> pmf = poissonBinomial(probabilities);
    const double n = double(probabilities.size());
    return {double(exactQuantile(pmf, tail)) / n, double(exactQuantile(pmf, 1.0 - tail)) / n};
}

} // namespace gpuf::metrics
