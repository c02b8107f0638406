// Ranking utility with exact tie expectation; see ranking.h for the definition and the formula.
#include "core/metrics/ranking.h"
#include "core/common/nan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuf::metrics {
namespace {

// E[max of a uniformly random r-subset] of w (sorted ascending), 1 ≤ r ≤ w.size(). The weights
// C(j−1, r−1)/C(g, r) are built from the top, where P(g) = r/g and P(j−1) = P(j)·(j−r)/(j−1); they only
// shrink downwards, so nothing overflows however large the group is.
double expectedMaxOfSubset(std::span<const double> ascending, std::size_t r)
{
    const std::size_t g = ascending.size();
    if (r >= g)
        return ascending.back();
    double weight = double(r) / double(g);
    double sum = 0.0;
    for (std::size_t j = g; j >= r && weight > 0.0; --j) {
        sum += weight * ascending[j - 1];
        if (j == r)
            break;
        weight *= double(j - r) / double(j - 1);
    }
    return sum;
}

// Items [begin, end) share one score; returns their speedups lifted to at least `floor`, ascending.
std::vector<double> liftedGroup(std::span<const RankedItem> sorted, std::size_t begin, std::size_t end, double floor)
{
    std::vector<double> w;
    w.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i)
        w.push_back(std::max(floor, sorted[i].speedup));
    std::sort(w.begin(), w.end());
    return w;
}

} // namespace

std::size_t budgetCount(double fraction, std::size_t n)
{
    if (!(fraction > 0.0) || n == 0)
        return 0;
    const double raw = fraction * double(n);
    const double nearest = std::round(raw);
    const double m = std::abs(raw - nearest) <= 1e-9 ? nearest : std::ceil(raw);
    // A positive budget always measures at least one candidate.
    return std::clamp<std::size_t>(std::size_t(m), 1, n);
}

void sortForRanking(std::vector<RankedItem> &items)
{
    std::stable_sort(
        items.begin(), items.end(), [](const RankedItem &a, const RankedItem &b) { return a.score > b.score; });
}

double expectedBestOfTop(std::span<const RankedItem> sorted, std::size_t m)
{
    if (m == 0 || sorted.empty())
        return kNaN;
    m = std::min(m, sorted.size());
    const double cutScore = sorted[m - 1].score;
    std::size_t groupBegin = m - 1;
    while (groupBegin > 0 && sorted[groupBegin - 1].score == cutScore)
        --groupBegin;
    std::size_t groupEnd = m;
    while (groupEnd < sorted.size() && sorted[groupEnd].score == cutScore)
        ++groupEnd;
    double above = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < groupBegin; ++i)
        above = std::max(above, sorted[i].speedup);
    const std::vector<double> w = liftedGroup(sorted, groupBegin, groupEnd, above);
    return expectedMaxOfSubset(w, m - groupBegin);
}

double rankingUtility(std::span<const RankedItem> items, double fraction)
{
    if (items.empty())
        return kNaN;
    std::vector<RankedItem> sorted(items.begin(), items.end());
    sortForRanking(sorted);
    double best = -std::numeric_limits<double>::infinity();
    for (const RankedItem &item : sorted)
        best = std::max(best, item.speedup);
    if (!(best > 0.0) || !std::isfinite(best))
        return kNaN;
    const std::size_t m = budgetCount(fraction, sorted.size());
    return m == 0 ? kNaN : expectedBestOfTop(sorted, m) / best;
}

std::vector<double> budgetCurve(std::span<const RankedItem> items)
{
    std::vector<RankedItem> sorted(items.begin(), items.end());
    sortForRanking(sorted);
    std::vector<double> curve;
    curve.reserve(sorted.size());
    double above = -std::numeric_limits<double>::infinity();
    std::size_t begin = 0;
    while (begin < sorted.size()) {
        std::size_t end = begin + 1;
        while (end < sorted.size() && sorted[end].score == sorted[begin].score)
            ++end;
        // Every m that cuts inside this group shares its lifted, sorted speedups.
        const std::vector<double> w = liftedGroup(sorted, begin, end, above);
        for (std::size_t r = 1; r <= end - begin; ++r)
            curve.push_back(expectedMaxOfSubset(w, r));
        above = w.back();
        begin = end;
    }
    return curve;
}

} // namespace gpuf::metrics
