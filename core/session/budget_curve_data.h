// The budget curves of one report (an app-side reconstruction of ranking utility, paper-facts §5): best found ÷ pool
// best against the fraction of each pool measured, pooled over every pool, per problem, and for a random ranking.
#pragma once

#include "core/domain/problem.h"
#include "core/metrics/report.h"

#include <QHash>
#include <QVector>

#include <vector>

namespace gpuf {

struct BudgetCurve
{
    RowId problemId = 0; // 0 for the pooled and random curves
    int pools = 0; // pools averaged
    QVector<double> fraction; // fraction of each pool measured, ascending in (0, 1]
    QVector<double> utility; // mean over the pools of E[best measured] ÷ best
};

struct BudgetCurves
{
    BudgetCurve pooled;
    BudgetCurve random; // what measuring in a uniformly random order finds (empty unless asked for)
    std::vector<BudgetCurve> problems; // ascending problem id
};

// Evaluated at fractions j/gridPoints, j = 1..gridPoints: utility there is exactly the report's utility(X) (the same
// ⌈X·N⌉ budget and tie expectation), so pooled at 0.1 equals the report's UtilityAt10Pct when 10 divides gridPoints.
// problemOfPool maps a pool key to its problem (pools without one are left out of the per-problem curves).
// The random baseline depends only on the pools' speedups, so an overlay computes it once.
BudgetCurves budgetCurves(const metrics::MetricsReport &report, const QHash<qint64, RowId> &problemOfPool,
    int gridPoints = 200, bool withRandom = true);

// Pool key → problem id from the rows the report was computed over.
QHash<qint64, RowId> problemsOfPools(const std::vector<metrics::ScoredRow> &rows);

// The candidates measured at `fraction` in every pool (of `problemId`, or all when 0), best-ranked first.
QList<RowId> measuredCandidates(const metrics::MetricsReport &report, const QHash<qint64, RowId> &problemOfPool,
    double fraction, RowId problemId = 0);

} // namespace gpuf
