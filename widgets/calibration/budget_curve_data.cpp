// Budget curves; see budget_curve_data.h.
#include "widgets/calibration/budget_curve_data.h"

#include "core/metrics/ranking.h"

#include <QSet>

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
    const metrics::MetricsReport &report, const QHash<qint64, RowId> &problemOfPool, int gridPoints)
{
    gridPoints = std::max(1, gridPoints);
    Accumulator pooled, random;
    std::map<RowId, Accumulator> perProblem;
    std::vector<metrics::RankedItem> tied;
    for (const metrics::RankingPool &pool : report.pools) {
        if (pool.items.empty() || !(pool.bestSpeedup > 0.0))
            continue;
        const QVector<double> utility = poolUtility(metrics::budgetCurve(pool.items), pool.bestSpeedup, gridPoints);
        pooled.add(utility);
        const auto problem = problemOfPool.constFind(pool.poolKey);
        if (problem != problemOfPool.cend())
            perProblem[*problem].add(utility);

        // Equal scores: the ranking's tie expectation becomes the expectation over random orders.
        tied.assign(pool.items.begin(), pool.items.end());
        for (metrics::RankedItem &item : tied)
            item.score = 0.0;
        random.add(poolUtility(metrics::budgetCurve(tied), pool.bestSpeedup, gridPoints));
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
