// The figures of a strategy comparison over a space with known outcomes (docs/search.md, "Comparing strategies"):
// anytime curves (the best speedup found after e GPU evaluations), uniform random search's exact expectation, the
// evaluations a run needed to come within a margin of the optimum, the methodology's performance score (Willemsen,
// van Nieuwpoort and van Werkhoven, FGCS 2024), and mean with a 95 % interval over seeds. Pure arithmetic.
#pragma once

#include "core/search/tuning_space.h"

#include <utility>

namespace gpuf::search {

// Best speedup after e = 0..budget GPU evaluations of the points `evaluated` (in order); the space's reference
// counts as `start` (1×) before anything is found. Evaluations past the budget are ignored; a run that stopped early
// keeps its last best.
QList<double> anytimeCurve(const TuningSpace &space, const QList<int> &evaluated, int budget, double start = 1.0);

// The exact expected best speedup of uniform random search without replacement after e = 0..budget evaluations
// (failures count as evaluations and find nothing), with the same start.
QList<double> randomExpectation(const TuningSpace &space, int budget, double start = 1.0);

// The same expectation on runtimes relative to the reference (1 / speedup, capped at the start's): the exact expected
// best runtime, which the performance score compares with (the mean of 1/S is not 1 over the mean of S).
QList<double> randomExpectedRuntime(const TuningSpace &space, int budget, double start = 1.0);

// Random search's expected evaluations until it draws one of the k points within `within` of the optimum among N:
// (N + 1) / (k + 1).
double randomEvaluationsToOptimum(const TuningSpace &space, double within);

// The first e at which the curve reaches `target` (within 1e-9); -1 when it never does.
int evaluationsToReach(const QList<double> &curve, double target);

// The target speedup of "within x of the optimum": the optimum's runtime × (1 + x), as a speedup.
inline double nearOptimum(double optimum, double within) { return optimum / (1.0 + within); }

// The performance score of one curve: the mean over e = from..to of (R(e) − S(e)) / (R(e) − O), on runtimes relative
// to the reference (1 / speedup), with R random search's expected runtime (randomExpectedRuntime), S the curve's
// runtime and O the optimum's. 0: as good as
// random search; 1: the optimum from the first evaluation; negative: worse than random. Budgets at which random
// search has already reached the optimum add nothing. Linear in S, so the mean of the seeds' scores is the score of
// their mean runtime curve. nullopt when no budget in the range counts. `to` < 0: the curve's end.
std::optional<double> performanceScore(
    const QList<double> &curve, const QList<double> &randomRuntime, double optimum, int from = 1, int to = -1);

// The budgets the methodology scores over: from where random search's expectation has come `startFraction` of the
// way from the space's median runtime to the optimum's, to where it has come `endFraction` of the way (0.5 and 0.96
// in the methodology paper's evaluation), clipped to the budget. {from, to}; from > to when random search needs more
// than the budget to come `startFraction` of the way.
std::pair<int, int> scoreRange(const TuningSpace &space, const QList<double> &randomRuntime, double startFraction = 0.5,
    double endFraction = 0.96);

// Mean with a two-sided 95 % Student-t interval.
struct Interval
{
    double mean = 0.0;
    double low = 0.0;
    double high = 0.0;
    int n = 0;
};
Interval meanInterval(const QList<double> &values);
double studentT975(int df); // the 97.5 % quantile of Student's t with df degrees of freedom

} // namespace gpuf::search
