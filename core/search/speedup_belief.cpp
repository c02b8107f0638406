// SpeedupBelief; see speedup_belief.h.
#include "core/search/speedup_belief.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace gpuf::search {

double binLowLog2(int bin) { return bin <= 1 ? -2.0 : (bin - 4) / 2.0; }

double binHighLog2(int bin) { return bin >= bins::kBinCount ? 3.0 : (bin - 3) / 2.0; }

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

double normalPdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi); }

SpeedupBelief SpeedupBelief::fromBins(const bins::Distribution &probabilities)
{
    SpeedupBelief b;
    double sum = 0.0;
    for (double v : probabilities)
        sum += std::isfinite(v) && v > 0.0 ? v : 0.0;
    if (!(sum > 0.0))
        return b;
    b.kind = Kind::Bins;
    for (size_t i = 0; i < probabilities.size(); ++i)
        b.p[i] = std::isfinite(probabilities[i]) && probabilities[i] > 0.0 ? probabilities[i] / sum : 0.0;
    return b;
}

SpeedupBelief SpeedupBelief::gaussian(double mean, double sd)
{
    SpeedupBelief b;
    if (!std::isfinite(mean) || !std::isfinite(sd))
        return b;
    b.kind = Kind::Gaussian;
    b.mean = mean;
    b.sd = std::max(sd, 1e-6);
    return b;
}

double SpeedupBelief::meanLog2() const
{
    if (kind == Kind::Gaussian)
        return mean;
    double m = 0.0;
    for (int bin = 1; bin <= bins::kBinCount; ++bin)
        m += p[size_t(bin - 1)] * 0.5 * (binLowLog2(bin) + binHighLog2(bin));
    return m;
}

double SpeedupBelief::sdLog2() const
{
    if (kind == Kind::Gaussian)
        return sd;
    const double m = meanLog2();
    double v = 0.0;
    for (int bin = 1; bin <= bins::kBinCount; ++bin) {
        const double lo = binLowLog2(bin), hi = binHighLog2(bin), mid = 0.5 * (lo + hi);
        v += p[size_t(bin - 1)] * ((mid - m) * (mid - m) + (hi - lo) * (hi - lo) / 12.0);
    }
    return std::sqrt(v);
}

double SpeedupBelief::probabilityAbove(double t) const
{
    if (kind == Kind::None)
        return 0.5;
    if (kind == Kind::Gaussian)
        return normalCdf((mean - t) / sd);
    double out = 0.0;
    for (int bin = 1; bin <= bins::kBinCount; ++bin) {
        const double lo = binLowLog2(bin), hi = binHighLog2(bin);
        out += p[size_t(bin - 1)] * std::clamp((hi - t) / (hi - lo), 0.0, 1.0);
    }
    return out;
}

double SpeedupBelief::expectedGain(double t) const
{
    if (kind == Kind::None)
        return 0.0;
    if (kind == Kind::Gaussian) {
        const double z = (mean - t) / sd;
        return std::max(0.0, (mean - t) * normalCdf(z) + sd * normalPdf(z));
    }
    double out = 0.0;
    for (int bin = 1; bin <= bins::kBinCount; ++bin) {
        const double lo = binLowLog2(bin), hi = binHighLog2(bin);
        double gain = 0.0; // E[max(0, L − t)] for L uniform on [lo, hi)
        if (t <= lo)
            gain = 0.5 * (lo + hi) - t;
        else if (t < hi)
            gain = (hi - t) * (hi - t) / (2.0 * (hi - lo));
        out += p[size_t(bin - 1)] * gain;
    }
    return out;
}

} // namespace gpuf::search
