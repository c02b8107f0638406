// Budget curves; see budget_curve_data.h.
#include "core/session/budget_curve_data.h"

#include "core/metrics/ranking.h"

#include <QSet>

#include <algorithm>

#include <map>

namespace gpuf {

namespace {

// One pool's utility at each grid fraction, from its budget curve (E[best of top m] for every m) read at ⌈X·N⌉.
QVector<double> poolUtility(const std::vector<double> &bestOfTop, double best, int gridPoints)
{
    QVector<double> utility(gridPoints, qQNaN());
    for (int j = 1; j <= gridPoints; ++j) {
        const std::size_t m = metrics::budgetCount(double(j) / gridPoints, bestOfTop.size());
        if (m > 0 && best > 0.0)
            utility[j - 1] = bestOfTop[m - 1] / best;
    }
    return utility;
}

// E[best of a uniformly random m-subset] at each grid fraction: with speedups sorted ascending, the largest of the
// subset is s_(j) with probability C(j−1, m−1)/C(N, m), walked down from P_N = m/N by P_(j−1) = P_j·(j−m)/(j−1).
// O(N) per distinct budget, where the tie expectation over one all-tied group would cost O(N) per m for every m.
QVector<double> randomUtility(const metrics::RankingPool &pool, int gridPoints)
{
    std::vector<double> speedups;
    speedups.reserve(pool.items.size());
    for (const metrics::RankedItem &item : pool.items)
        speedups.push_back(item.speedup);
    std::sort(speedups.begin(), speedups.end());
    const std::size_t n = speedups.size();
    QVector<double> utility(gridPoints, qQNaN());
    std::size_t lastM = 0;
    double lastValue = qQNaN();
    for (int j = 1; j <= gridPoints; ++j) {
        const std::size_t m = metrics::budgetCount(double(j) / gridPoints, n);
        if (m == 0)
            continue;
        if (m != lastM) {
            double probability = double(m) / double(n);
            double expected = 0.0;
            for (std::size_t k = n; k >= m && probability > 0.0; --k) {
                expected += probability * speedups[k - 1];
                if (k > 1)
                    probability *= double(k - m) / double(k - 1);
            }
            lastM = m;
            lastValue = expected / pool.bestSpeedup;
        }
        utility[j - 1] = lastValue;
    }
    return utility;
}

struct Accumulator
{
    QVector<double> sum;
    int pools = 0;

    void add(const QVector<double> &utility)
    {
        if (sum.isEmpty())
            sum.fill(0.0, utility.size());
        for (qsizetype i = 0; i < utility.size(); ++i)
            sum[i] += utility[i];
        ++pools;
    }

    BudgetCurve curve(RowId problemId, int gridPoints) const
    {
        BudgetCurve c;
        c.problemId = problemId;
        c.pools = pools;
        if (pools == 0)
            return c;
        for (int j = 1; j <= gridPoints; ++j) {
            c.fraction.append(double(j) / gridPoints);
            c.utility.append(sum[j - 1] / pools);
        }
        return c;
    }
};

} // namespace

BudgetCurves budgetCurves(
    const metrics::MetricsReport &report, const QHash<qint64, RowId> &problemOfPool, int gridPoints, bool withRandom)
{
    gridPoints = std::max(1, gridPoints);
    Accumulator pooled, random;
    std::map<RowId, Accumulator> perProblem;
    for (const metrics::RankingPool &pool : report.pools) {
        if (pool.items.empty() || !(pool.bestSpeedup > 0.0))
            continue;
        const QVector<double> utility = poolUtility(metrics::budgetCurve(pool.items), pool.bestSpeedup, gridPoints);
        pooled.add(utility);
        const auto problem = problemOfPool.constFind(pool.poolKey);
        if (problem != problemOfPool.cend())
            perProblem[*problem].add(utility);

        if (withRandom)
            random.add(randomUtility(pool, gridPoints));
    }
    BudgetCurves curves;
    curves.pooled = pooled.curve(0, gridPoints);
    curves.random = random.curve(0, gridPoints);
    for (const auto &[problemId, accumulator] : perProblem)
        curves.problems.push_back(accumulator.curve(problemId, gridPoints));
    return curves;
}

QHash<qint64, RowId> problemsOfPools(const std::vector<metrics::ScoredRow> &rows)
{
    QHash<qint64, RowId> problems;
    for (const metrics::ScoredRow &row : rows) {
        if (!problems.contains(row.poolKey))
            problems.insert(row.poolKey, row.problemId);
    }
    return problems;
}

QList<RowId> measuredCandidates(
    const metrics::MetricsReport &report, const QHash<qint64, RowId> &problemOfPool, double fraction, RowId problemId)
{
    QList<RowId> ids;
    QSet<RowId> seen;
    for (const metrics::RankingPool &pool : report.pools) {
        if (problemId != 0 && problemOfPool.value(pool.poolKey) != problemId)
            continue;
        const std::size_t m = metrics::budgetCount(fraction, pool.items.size());
        for (std::size_t i = 0; i < m; ++i) {
            const RowId id = pool.items[i].pairId;
            if (!seen.contains(id)) {
                seen.insert(id);
                ids.append(id);
            }
        }
    }
    return ids;
}

} // namespace gpuf
