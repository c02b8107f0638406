// Contiguous prediction sets and split conformal calibration; see prediction_sets.h.
#include "core/metrics/prediction_sets.h"

#include "core/common/nan.h"
#include "core/metrics/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace gpuf::metrics {
namespace {

constexpr double kMassSlack = 1e-9;

// The rank ⌈(n+1)(1−α)⌉, with slack so that (9+1)·0.9 is 9 and not 10 after rounding.
qint64 conformalRank(qint64 n, double alpha) { return qint64(std::ceil(double(n + 1) * (1.0 - alpha) - kMassSlack)); }

// The rank-th smallest score (1-based) among the rows outside `fold`, walking the rows in ascending score order.
double thresholdOutside(const std::vector<std::uint32_t> &ascending, const std::vector<double> &scores,
    const std::vector<int> &fold, int heldOut, qint64 rank)
{
    qint64 seen = 0;
    for (std::uint32_t i : ascending) {
        if (fold[i] != heldOut && ++seen == rank)
            return scores[i];
    }
    return std::numeric_limits<double>::infinity();
}

} // namespace

BinRange shortestSet(const bins::Distribution &p, double level)
{
    for (int width = 1; width <= bins::kBinCount; ++width) {
        BinRange best {0, 0, -1.0};
        for (int low = 1; low + width - 1 <= bins::kBinCount; ++low) {
            double mass = 0.0;
            for (int b = low; b < low + width; ++b)
                mass += p[b - 1];
            if (mass > best.mass)
                best = {low, low + width - 1, mass};
        }
        if (best.mass >= level - kMassSlack)
            return best;
    }
    return {1, bins::kBinCount, std::accumulate(p.begin(), p.end(), 0.0)};
}

std::array<int, bins::kBinCount> growthOrder(const bins::Distribution &p)
{
    std::array<int, bins::kBinCount> order {};
    int low = bins::argmaxBin(p);
    int high = low;
    order[0] = low;
    for (int step = 1; step < bins::kBinCount; ++step) {
        const double left = low > 1 ? p[low - 2] : -1.0;
        const double right = high < bins::kBinCount ? p[high] : -1.0;
        order[step] = left >= right ? --low : ++high;
    }
    return order;
}

double conformalScore(const bins::Distribution &p, int trueBin)
{
    double before = 0.0;
    for (int bin : growthOrder(p)) {
        if (bin == trueBin)
            return before;
        before += p[bin - 1];
    }
    return kNaN;
}

BinRange conformalSet(const bins::Distribution &p, double threshold)
{
    const std::array<int, bins::kBinCount> order = growthOrder(p);
    BinRange set {order[0], order[0], p[order[0] - 1]};
    double before = p[order[0] - 1];
    for (int step = 1; step < bins::kBinCount && before <= threshold; ++step) {
        set.low = std::min(set.low, order[step]);
        set.high = std::max(set.high, order[step]);
        set.mass += p[order[step] - 1];
        before += p[order[step] - 1];
    }
    return set;
}

double conformalThreshold(std::vector<double> &scores, double alpha)
{
    const qint64 n = qint64(scores.size());
    const qint64 rank = conformalRank(n, alpha);
    if (rank > n)
        return std::numeric_limits<double>::infinity();
    if (rank < 1)
        return -std::numeric_limits<double>::infinity();
    std::nth_element(scores.begin(), scores.begin() + (rank - 1), scores.end());
    return scores[std::size_t(rank - 1)];
}

std::vector<CoverageRow> coverageTable(std::span<const bins::Distribution> forecasts,
    std::span<const std::uint8_t> trueBins, std::span<const qint64> groups, std::span<const double> alphas)
{
    const std::size_t n = std::min({forecasts.size(), trueBins.size(), groups.size()});
    std::vector<double> scores(n);
    std::vector<int> fold(n);
    std::array<qint64, kConformalFolds> foldSize {};
    for (std::size_t i = 0; i < n; ++i) {
        scores[i] = conformalScore(forecasts[i], trueBins[i]);
        fold[i] = int(IndexSampler::streamSeed(kConformalSeed, quint64(groups[i])) % kConformalFolds);
        ++foldSize[fold[i]];
    }
    std::vector<std::uint32_t> ascending(n);
    std::iota(ascending.begin(), ascending.end(), 0u);
    std::stable_sort(
        ascending.begin(), ascending.end(), [&](std::uint32_t a, std::uint32_t b) { return scores[a] < scores[b]; });

    std::vector<CoverageRow> table;
    for (double alpha : alphas) {
        CoverageRow row {alpha, qint64(n), 0.0, 0.0, 0.0, 0.0, kNaN};
        std::array<double, kConformalFolds> foldThreshold {};
        for (int f = 0; f < kConformalFolds; ++f)
            foldThreshold[f]
                = thresholdOutside(ascending, scores, fold, f, conformalRank(qint64(n) - foldSize[f], alpha));
        row.conformalThreshold = thresholdOutside(ascending, scores, fold, -1, conformalRank(qint64(n), alpha));
        for (std::size_t i = 0; i < n; ++i) {
            const BinRange own = shortestSet(forecasts[i], 1.0 - alpha);
            const BinRange conformal = conformalSet(forecasts[i], foldThreshold[fold[i]]);
            row.forecastCoverage += own.contains(trueBins[i]) ? 1.0 : 0.0;
            row.forecastWidth += own.width();
            row.conformalCoverage += conformal.contains(trueBins[i]) ? 1.0 : 0.0;
            row.conformalWidth += conformal.width();
        }
        for (double *v : {&row.forecastCoverage, &row.forecastWidth, &row.conformalCoverage, &row.conformalWidth})
            *v = n > 0 ? *v / double(n) : kNaN;
        table.push_back(row);
    }
    return table;
}

} // namespace gpuf::metrics
