// Seeded bootstrap: the index sampler, percentile intervals and the resampling loop; see bootstrap.h.
#include "core/metrics/bootstrap.h"

#include "core/metrics/prepared.h"

#include <algorithm>
#include <cmath>

namespace gpuf::metrics {
namespace {

// High and low 64 bits of a·b, written out so no compiler extension is needed.
void multiply64(std::uint64_t a, std::uint64_t b, std::uint64_t &high, std::uint64_t &low)
{
    const std::uint64_t aLo = a & 0xffffffffu, aHi = a >> 32, bLo = b & 0xffffffffu, bHi = b >> 32;
    const std::uint64_t ll = aLo * bLo, lh = aLo * bHi, hl = aHi * bLo, hh = aHi * bHi;
    const std::uint64_t middle = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    low = (middle << 32) | (ll & 0xffffffffu);
    high = hh + (lh >> 32) + (hl >> 32) + (middle >> 32);
}

quint64 splitMix64(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

IndexSampler::IndexSampler(quint64 seed)
    : m_engine(seed)
{ }

std::uint64_t IndexSampler::next(std::uint64_t n)
{
    if (n <= 1)
        return 0;
    std::uint64_t high = 0, low = 0;
    multiply64(m_engine(), n, high, low);
    if (low < n) {
        const std::uint64_t rejectBelow = (0 - n) % n; // 2^64 mod n
        while (low < rejectBelow)
            multiply64(m_engine(), n, high, low);
    }
    return high;
}

quint64 IndexSampler::streamSeed(quint64 seed, quint64 stream) { return splitMix64(splitMix64(seed) ^ stream); }

Interval percentileInterval(std::vector<double> &values, double level)
{
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }), values.end());
    if (values.empty())
        return {};
    std::sort(values.begin(), values.end());
    const auto quantile = [&](double q) {
        const double h = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
        const std::size_t below = std::size_t(std::floor(h));
        const std::size_t above = std::min(below + 1, values.size() - 1);
        return values[below] + (h - double(below)) * (values[above] - values[below]);
    };
    const double tail = (1.0 - std::clamp(level, 0.0, 1.0)) / 2.0;
    return {quantile(tail), quantile(1.0 - tail)};
}

namespace detail {

// Rows are resampled for every row-level metric and for AURC; pools are resampled (as whole clusters) for
// ranking utility, since resampling rows would break a pool apart. Replicate r draws from its own stream.
void bootstrapIntervals(const PreparedRows &rows, const std::vector<RankingPool> &pools, const MetricsOptions &options,
    MetricsReport &report)
{
    const int replicates = std::max(0, options.bootstrapResamples);
    std::array<std::vector<double>, kScalarCount> scalarDraws;
    std::array<std::vector<double>, kReliabilityBuckets> reliabilityDraws;
    for (auto &v : scalarDraws)
        v.reserve(std::size_t(replicates));
    for (auto &v : reliabilityDraws)
        v.reserve(std::size_t(replicates));

    std::vector<std::uint32_t> weights(rows.size());
    std::vector<std::uint32_t> poolWeights(pools.size());
    for (int r = 0; r < replicates && rows.size() > 0; ++r) {
        IndexSampler sampler(IndexSampler::streamSeed(options.bootstrapSeed, quint64(r)));
        std::fill(weights.begin(), weights.end(), 0u);
        for (std::size_t k = 0; k < rows.size(); ++k)
            ++weights[sampler.next(rows.size())];
        RowSummary summary = summarise(rows, weights);
        for (int s = 0; s < 3; ++s)
            summary.scalars[std::size_t(Scalar::AurcMaxProb) + s] = weightedMismatchAurc(rows, s, weights);

        double utility = std::numeric_limits<double>::quiet_NaN();
        if (!pools.empty()) {
            std::fill(poolWeights.begin(), poolWeights.end(), 0u);
            for (std::size_t k = 0; k < pools.size(); ++k)
                ++poolWeights[sampler.next(pools.size())];
            double sum = 0.0;
            for (std::size_t p = 0; p < pools.size(); ++p)
                sum += poolWeights[p] * pools[p].utilityAt10Pct;
            utility = sum / double(pools.size());
        }
        summary.scalars[std::size_t(Scalar::UtilityAt10Pct)] = utility;

        for (int s = 0; s < kScalarCount; ++s)
            scalarDraws[s].push_back(summary.scalars[s]);
        for (int b = 0; b < kReliabilityBuckets; ++b)
            reliabilityDraws[b].push_back(summary.reliability[b].accuracy);
    }

    report.hasIntervals = true;
    report.bootstrapResamples = replicates;
    for (int s = 0; s < kScalarCount; ++s)
        report.intervals[s] = percentileInterval(scalarDraws[s], options.ciLevel);
    for (int b = 0; b < kReliabilityBuckets; ++b)
        report.reliabilityAccuracyIntervals[b] = percentileInterval(reliabilityDraws[b], options.ciLevel);
}

} // namespace detail
} // namespace gpuf::metrics
