// Ranked probability score, base rate and skill; see ordinal_scores.h.
#include "core/metrics/ordinal_scores.h"

#include "core/common/nan.h"
#include "core/metrics/calibration.h"

#include <cmath>

namespace gpuf::metrics {

double rps(const bins::Distribution &p, int trueBin) { return crps(p, trueBin); }

BaseRateScores baseRateScores(const BinCounts &counts)
{
    BaseRateScores out;
    double total = 0.0;
    for (double c : counts)
        total += c;
    if (!(total > 0.0)) {
        out.rps = out.brierSum = out.nll = kNaN;
        return out;
    }
    for (int b = 0; b < bins::kBinCount; ++b)
        out.p[b] = counts[b] / total;
    for (int t = 1; t <= bins::kBinCount; ++t) {
        const double share = out.p[t - 1];
        if (share == 0.0)
            continue;
        out.rps += share * rps(out.p, t);
        out.brierSum += share * brierSum(out.p, t);
        out.nll += share * nll(out.p, t);
    }
    return out;
}

double skillScore(double score, double reference)
{
    if (!std::isfinite(reference) || reference <= 0.0 || !std::isfinite(score))
        return kNaN;
    return 1.0 - score / reference;
}

} // namespace gpuf::metrics
