// Per-edge reliability curves; see cumulative_reliability.h.
#include "core/metrics/cumulative_reliability.h"

#include "core/common/nan.h"
#include "core/metrics/calibration.h"
#include "core/metrics/consistency_band.h"

#include <algorithm>

namespace gpuf::metrics {
namespace {

void fillBuckets(EdgeReliability &out, std::span<const BinaryOutcome> observations)
{
    std::array<std::vector<double>, kCumulativeBuckets> forecasts;
    std::array<double, kCumulativeBuckets> hits {};
    for (const BinaryOutcome &o : observations) {
        const int b = reliabilityBucket(o.forecast);
        forecasts[b].push_back(o.forecast);
        hits[b] += o.outcome;
    }
    for (int b = 0; b < kCumulativeBuckets; ++b) {
        CumulativeBucket &bucket = out.buckets[b];
        bucket.low = double(b) / kCumulativeBuckets;
        bucket.high = double(b + 1) / kCumulativeBuckets;
        bucket.count = qint64(forecasts[b].size());
        if (bucket.count == 0) {
            bucket.meanForecast = bucket.observed = bucket.bandLow = bucket.bandHigh = kNaN;
            continue;
        }
        double sum = 0.0;
        for (double f : forecasts[b])
            sum += f;
        bucket.meanForecast = sum / double(bucket.count);
        bucket.observed = hits[b] / double(bucket.count);
        const Interval band = consistencyBand(forecasts[b], kConsistencyLevel);
        bucket.bandLow = band.low;
        bucket.bandHigh = band.high;
    }
}

} // namespace

double exceedance(const bins::Distribution &p, int edge)
{
    double sum = 0.0;
    for (int b = std::max(edge, 0) + 1; b <= bins::kBinCount; ++b)
        sum += p[b - 1];
    return std::clamp(sum, 0.0, 1.0);
}

int EdgeReliability::bucketsOutsideBand() const
{
    return int(
        std::count_if(buckets.begin(), buckets.end(), [](const CumulativeBucket &b) { return b.outsideBand(); }));
}

CumulativeReliability cumulativeReliability(
    std::span<const bins::Distribution> forecasts, std::span<const std::uint8_t> trueBins, bool isotonic)
{
    CumulativeReliability out;
    const std::size_t n = std::min(forecasts.size(), trueBins.size());
    std::vector<BinaryOutcome> observations(n);
    for (int edge = 1; edge <= kEdgeCount; ++edge) {
        EdgeReliability &curve = out[edge - 1];
        curve.edge = edge;
        curve.speedup = bins::upperEdge(edge);
        double forecastSum = 0.0, hitSum = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            observations[i] = {exceedance(forecasts[i], edge), trueBins[i] > edge ? 1.0 : 0.0};
            forecastSum += observations[i].forecast;
            hitSum += observations[i].outcome;
        }
        curve.count = qint64(n);
        curve.meanForecast = n > 0 ? forecastSum / double(n) : kNaN;
        curve.observed = n > 0 ? hitSum / double(n) : kNaN;
        fillBuckets(curve, observations);
        if (isotonic)
            curve.isotonic = isotonicFit(observations);
    }
    return out;
}

} // namespace gpuf::metrics
