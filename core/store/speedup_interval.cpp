// speedupInterval and straddledBinEdge; see speedup_interval.h.
#include "core/store/speedup_interval.h"

#include "core/bins/bins.h"

#include <cmath>

namespace gpuf {

std::optional<SpeedupInterval> speedupInterval(
    std::span<const CaseSpread> candidate, std::span<const CaseSpread> baseline, double z)
{
    double sumLog = 0.0;
    double sumVar = 0.0;
    int cases = 0;
    auto base = baseline.begin();
    for (const CaseSpread &run : candidate) {
        while (base != baseline.end() && base->caseId < run.caseId)
            ++base;
        if (base == baseline.end())
            break;
        if (base->caseId != run.caseId)
            continue;
        if (!(run.medianNs > 0) || !(base->medianNs > 0))
            continue;
        if (run.relStdErr < 0 || base->relStdErr < 0)
            return std::nullopt; // a spread not recorded: no honest interval
        sumLog += std::log(base->medianNs) - std::log(run.medianNs);
        sumVar += run.relStdErr * run.relStdErr + base->relStdErr * base->relStdErr;
        ++cases;
    }
    if (cases == 0)
        return std::nullopt;
    SpeedupInterval out;
    out.cases = cases;
    const double logSpeedup = sumLog / cases;
    out.logStdErr = std::sqrt(sumVar) / cases;
    out.speedup = std::exp(logSpeedup);
    out.low = std::exp(logSpeedup - z * out.logStdErr);
    out.high = std::exp(logSpeedup + z * out.logStdErr);
    out.straddledEdge = straddledBinEdge(out.low, out.high, out.speedup);
    return out;
}

std::optional<double> straddledBinEdge(double low, double high, double speedup)
{
    std::optional<double> nearest;
    for (int bin = 2; bin <= bins::kBinCount; ++bin) {
        const double edge = bins::lowerEdge(bin);
        if (!(low < edge && edge < high))
            continue;
        if (!nearest || std::abs(std::log(edge / speedup)) < std::abs(std::log(*nearest / speedup)))
            nearest = edge;
    }
    return nearest;
}

} // namespace gpuf
