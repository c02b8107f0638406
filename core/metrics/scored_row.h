// ScoredRow: one (forecast, truth) pair as the metrics see it, plus the keys that group and pool it.
#pragma once

#include "core/bins/bins.h"

#include <QtGlobal>

#include <optional>

namespace gpuf::metrics {

// One forecast of one evaluated pair next to its measured truth. Plain data so the store join can fill it
// in bulk and the GUI can map any metric back to the rows behind it (pairId, forecastId are opaque to us).
struct ScoredRow
{
    // The evaluated pair (reference, candidate, hardware): shared by every forecaster and repeat of that
    // pair, which is what samePairs() intersects on.
    qint64 pairId = 0;
    // The forecast itself, for drill-down; never interpreted here.
    qint64 forecastId = 0;
    // Identity of the ranking pool: same problem and same reference kernel. Forecaster, hardware and repeat
    // are added to it here, so a pool never mixes forecasters and never holds one candidate twice.
    qint64 poolKey = 0;

    // Grouping keys (store row ids or any caller-chosen small integers).
    qint64 forecasterId = 0;
    qint64 problemId = 0;
    qint64 hardwareId = 0;
    qint64 searchId = 0;
    int repeat = 0;

    // The forecast: renormalised upstream for parsed rows. Rows that claim to be parsed but carry no
    // usable distribution or predicted bin are treated as parse failures rather than trusted.
    bins::Distribution p {};
    std::optional<int> predictedBin; // the model's own choice, 1..8
    bool parsed = false;

    // The truth: the bin (1..8; rows outside that range are ignored) and, when known, the speedup itself,
    // which ranking utility and regret need.
    int trueBin = 0;
    std::optional<double> trueSpeedup;
};

} // namespace gpuf::metrics
