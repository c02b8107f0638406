// Small builders for scored rows shared by the metrics test suites.
#pragma once

#include "core/metrics/scored_row.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

namespace gpuf::metrics::testing {

// A distribution from (bin, probability) pairs; unlisted bins are 0.
inline bins::Distribution dist(std::initializer_list<std::pair<int, double>> mass)
{
    bins::Distribution p {};
    for (const auto &[bin, value] : mass)
        p[bin - 1] = value;
    return p;
}

inline ScoredRow parsedRow(bins::Distribution p, int predicted, int trueBin, std::optional<double> speedup = {})
{
    ScoredRow row;
    row.p = p;
    row.predictedBin = predicted;
    row.parsed = true;
    row.trueBin = trueBin;
    row.trueSpeedup = speedup;
    return row;
}

inline ScoredRow failedRow(int trueBin, std::optional<double> speedup = {})
{
    ScoredRow row;
    row.parsed = false;
    row.trueBin = trueBin;
    row.trueSpeedup = speedup;
    return row;
}

// Seeded random rows: every field a metric reads, with some parse failures and ties.
inline std::vector<ScoredRow> randomRows(std::size_t n, unsigned seed, int pools = 5)
{
    std::mt19937 engine(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<ScoredRow> rows;
    for (std::size_t i = 0; i < n; ++i) {
        ScoredRow row;
        row.pairId = qint64(i);
        row.poolKey = qint64(engine() % unsigned(pools));
        const double speedup = std::exp2(unit(engine) * 6.0 - 3.0);
        row.trueSpeedup = speedup;
        row.trueBin = *bins::binOf(speedup);
        row.parsed = unit(engine) > 0.1;
        if (row.parsed) {
            // Coarse probabilities (multiples of 0.1) so scores tie often.
            double left = 1.0;
            for (int b = 0; b < bins::kBinCount - 1; ++b) {
                const double v = std::clamp(std::round(unit(engine) * left * 10.0) / 10.0, 0.0, left);
                row.p[b] = v;
                left -= v;
            }
            row.p[bins::kBinCount - 1] = std::max(0.0, left);
            row.p = *bins::renormalised(row.p);
            row.predictedBin = bins::argmaxBin(row.p);
        }
        rows.push_back(row);
    }
    return rows;
}

} // namespace gpuf::metrics::testing
