// Isotonic regression by pool-adjacent-violators: the bin-free reliability curve of CORP reliability diagrams
// (Dimitriadis, Gneiting & Jordan 2021, PNAS 118(8)).
#pragma once

#include <QtGlobal>

#include <span>
#include <vector>

namespace gpuf::metrics {

// One observation of a binary event: the forecast probability and what happened (0 or 1).
struct BinaryOutcome
{
    double forecast = 0.0;
    double outcome = 0.0;
};

// A maximal run of forecasts sharing one fitted value.
struct IsotonicBlock
{
    double forecastLow = 0.0; // smallest forecast in the block
    double forecastHigh = 0.0; // largest forecast in the block
    double fitted = 0.0; // the recalibrated probability: the block's observed frequency
    qint64 count = 0;
};

// The non-decreasing fit of outcome on forecast that minimises the squared error, as blocks in increasing forecast
// order. Equal forecasts always share a block (they are pooled first), so the fit is a function of the forecast.
std::vector<IsotonicBlock> isotonicFit(std::span<const BinaryOutcome> observations);

} // namespace gpuf::metrics
