// Cumulative reliability: for each of the 7 bin edges, the forecast probability that the speedup reaches the edge
// against how often it did — binned with consistency bands, and bin-free by isotonic regression (issue 28).
#pragma once

#include "core/bins/bins.h"
#include "core/metrics/isotonic.h"

#include <QtGlobal>

#include <array>
#include <span>
#include <vector>

namespace gpuf::metrics {

inline constexpr int kEdgeCount = bins::kBinCount - 1;
inline constexpr int kCumulativeBuckets = 10;
inline constexpr double kConsistencyLevel = 0.90; // bands from the 5 % to the 95 % quantile

// P(bin > edge) = Σ_{b > edge} p_b for edge 1..7: the probability that the speedup reaches bins::upperEdge(edge)
// (edges are lower-inclusive, so "reaches" and "exceeds" are the same event for a continuous speedup).
double exceedance(const bins::Distribution &p, int edge);

struct CumulativeBucket
{
    double low = 0.0; // forecast range [low, high); the last bucket includes 1
    double high = 0.0;
    qint64 count = 0;
    double meanForecast = 0.0; // NaN when empty
    double observed = 0.0; // share of its rows whose true bin is above the edge; NaN when empty
    double bandLow = 0.0; // consistency band of `observed` (consistency_band.h); NaN when empty
    double bandHigh = 0.0;
    bool outsideBand() const { return count > 0 && (observed < bandLow || observed > bandHigh); }
};

struct EdgeReliability
{
    int edge = 0; // 1..7: the event "true bin > edge"
    double speedup = 0.0; // bins::upperEdge(edge)
    qint64 count = 0;
    double meanForecast = 0.0; // over all rows; NaN without rows
    double observed = 0.0;
    std::array<CumulativeBucket, kCumulativeBuckets> buckets {};
    std::vector<IsotonicBlock> isotonic; // empty unless asked for
    int bucketsOutsideBand() const;
};
using CumulativeReliability = std::array<EdgeReliability, kEdgeCount>;

// One curve per edge over the given forecasts and their true bins (1..8; spans of equal length). Buckets are
// min(floor(10·P), 9); `isotonic` adds the PAV fit of each edge's outcomes on its forecasts.
CumulativeReliability cumulativeReliability(
    std::span<const bins::Distribution> forecasts, std::span<const std::uint8_t> trueBins, bool isotonic);

} // namespace gpuf::metrics
