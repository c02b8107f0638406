// Ranking utility and the budget curve (paper-facts §5).
//
// An APP-SIDE RECONSTRUCTION: the authors' code does not implement ranking utility. Our definition: a pool
// of N correct candidates of one problem (same reference) with true speedups s_i and scores σ_i (expected
// bin by default) is ranked by σ; measuring the top m = ⌈X·N⌉ gives utility(X) = max of the measured s_i ÷
// max of all s_i. Ties in σ are resolved by the exact expectation over uniformly random orderings of the
// tied items: if a items rank strictly above the tie group that straddles the cut (size g) and r = m − a of
// the group are measured, the measured set is those a plus a uniformly random r-subset of the group. With
// w_i = max(best of the a, s_i) sorted ascending w_(1) ≤ … ≤ w_(g), the largest of a random r-subset is
// w_(j) with probability C(j−1, r−1)/C(g, r), so E[best measured] = Σ_{j=r..g} w_(j)·C(j−1, r−1)/C(g, r).
#pragma once

#include <QtGlobal>

#include <cstddef>
#include <span>
#include <vector>

namespace gpuf::metrics {

struct RankedItem
{
    double score = 0.0; // larger = predicted faster
    double speedup = 0.0; // measured truth, > 0
    qint64 pairId = 0;
};

// ⌈X·N⌉ clamped to 1..N for X > 0 (0 for X ≤ 0 or N = 0); X·N within 1e-9 of an integer counts as that
// integer, so 0.1·30 is 3, not 4.
std::size_t budgetCount(double fraction, std::size_t n);

// Highest score first; equal scores keep their input order (the order does not change any result).
void sortForRanking(std::vector<RankedItem> &items);

// E[best measured speedup] when the top m of items (already sorted by sortForRanking) are measured;
// NaN when m is 0 or the pool is empty.
double expectedBestOfTop(std::span<const RankedItem> sorted, std::size_t m);

// utility(X) for one pool, any order; NaN for an empty pool or a non-positive best speedup.
double rankingUtility(std::span<const RankedItem> items, double fraction);

// E[best measured speedup] for m = 1..N (index m − 1), for items in any order.
std::vector<double> budgetCurve(std::span<const RankedItem> items);

} // namespace gpuf::metrics
