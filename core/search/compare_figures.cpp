// The figures of a strategy comparison; see compare_figures.h.
#include "core/search/compare_figures.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace gpuf::search {

QList<double> anytimeCurve(const TuningSpace &space, const QList<int> &evaluated, int budget, double start)
{
    QList<double> curve(std::max(0, budget) + 1, start);
    double best = start;
    for (int e = 1; e <= budget; ++e) {
        if (e - 1 < evaluated.size()) {
            const auto &s = space.points.at(evaluated.at(e - 1)).speedup;
            if (s)
                best = std::max(best, *s);
        }
        curve[e] = best;
    }
    return curve;
}

namespace {

// The exact expected best of e = 0..budget draws without replacement from `values`, sorted so that later is better:
// the best of e draws is the i-th value (1-based) with probability C(i−1, e−1) / C(n, e).
QList<double> expectedBest(const QList<double> &values, int budget, double start)
{
    const int n = int(values.size());
    QList<double> curve(std::max(0, budget) + 1, start);
    for (int e = 1; e <= budget; ++e) {
        if (e >= n) {
            curve[e] = n > 0 ? values.last() : start;
            continue;
        }
        const double logTotal = std::lgamma(n + 1.0) - std::lgamma(e + 1.0) - std::lgamma(n - e + 1.0);
        // C(i−1, e−1) for i = e is 1; each next i multiplies it by (i − 1) / (i − e).
        double logWays = 0.0;
        double expected = 0.0;
        for (int i = e; i <= n; ++i) {
            if (i > e)
                logWays += std::log(double(i - 1)) - std::log(double(i - e));
            expected += values.at(i - 1) * std::exp(logWays - logTotal);
        }
        curve[e] = expected;
    }
    return curve;
}

} // namespace

QList<double> randomExpectation(const TuningSpace &space, int budget, double start)
{
    // Each floored at the start (a draw worse than the reference finds nothing better), ascending: larger is better.
    QList<double> v;
    for (const SpacePoint &p : space.points)
        v.append(std::max(start, p.speedup.value_or(start)));
    std::sort(v.begin(), v.end());
    return expectedBest(v, budget, start);
}

QList<double> randomExpectedRuntime(const TuningSpace &space, int budget, double start)
{
    // Runtimes relative to the reference, capped at the start's; descending: smaller is better.
    QList<double> v;
    for (const SpacePoint &p : space.points)
        v.append(p.speedup && *p.speedup > start ? 1.0 / *p.speedup : 1.0 / start);
    std::sort(v.begin(), v.end(), std::greater<>());
    return expectedBest(v, budget, 1.0 / start);
}

double randomEvaluationsToOptimum(const TuningSpace &space, double within)
{
    return (double(space.size()) + 1.0) / (double(space.countNear(within)) + 1.0);
}

int evaluationsToReach(const QList<double> &curve, double target)
{
    for (qsizetype e = 0; e < curve.size(); ++e) {
        if (curve.at(e) >= target * (1.0 - 1e-9))
            return int(e);
    }
    return -1;
}

std::optional<double> performanceScore(
    const QList<double> &curve, const QList<double> &randomRuntime, double optimum, int from, int to)
{
    if (optimum <= 0.0)
        return std::nullopt;
    const double o = 1.0 / optimum;
    double sum = 0.0;
    int counted = 0;
    const qsizetype last = std::min(curve.size(), randomRuntime.size()) - 1;
    const qsizetype end = to < 0 ? last : std::min<qsizetype>(to, last);
    for (qsizetype e = std::max(1, from); e <= end; ++e) {
        const double r = randomRuntime.at(e);
        const double s = 1.0 / curve.at(e);
        if (r - o <= 1e-12 * o)
            continue; // random search is already at the optimum: nothing left to beat
        sum += (r - s) / (r - o);
        ++counted;
    }
    if (counted == 0)
        return std::nullopt;
    return sum / counted;
}

std::pair<int, int> scoreRange(
    const TuningSpace &space, const QList<double> &randomRuntime, double startFraction, double endFraction)
{
    QList<double> runtimes; // relative to the reference, of the configurations that ran
    for (const SpacePoint &p : space.points) {
        if (p.speedup && *p.speedup > 0.0)
            runtimes << 1.0 / *p.speedup;
    }
    const int budget = int(randomRuntime.size()) - 1;
    if (runtimes.isEmpty() || budget < 1)
        return {1, 0};
    std::sort(runtimes.begin(), runtimes.end());
    const double optimum = runtimes.first();
    const qsizetype n = runtimes.size();
    const double median = n % 2 ? runtimes.at(n / 2) : 0.5 * (runtimes.at(n / 2 - 1) + runtimes.at(n / 2));
    const auto reached = [&](double fraction) {
        const double target = optimum + (median - optimum) * (1.0 - fraction);
        for (int e = 1; e <= budget; ++e) {
            if (randomRuntime.at(e) <= target * (1.0 + 1e-12))
                return e;
        }
        return budget + 1;
    };
    return {reached(startFraction), std::min(budget, reached(endFraction))};
}

double studentT975(int df)
{
    // Two-sided 95 % quantiles for 1..30 degrees of freedom; beyond, the normal quantile's series in 1/df.
    static const double table[]
        = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
            2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df <= 0)
        return std::numeric_limits<double>::infinity();
    if (df <= 30)
        return table[df - 1];
    const double z = 1.959964;
    const double d = double(df);
    return z + (z * z * z + z) / (4.0 * d) + (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96.0 * d * d);
}

Interval meanInterval(const QList<double> &values)
{
    Interval out;
    out.n = int(values.size());
    if (values.isEmpty())
        return out;
    double sum = 0.0;
    for (double x : values)
        sum += x;
    out.mean = sum / out.n;
    if (out.n < 2) {
        out.low = out.high = out.mean;
        return out;
    }
    double ss = 0.0;
    for (double x : values)
        ss += (x - out.mean) * (x - out.mean);
    const double half = studentT975(out.n - 1) * std::sqrt(ss / (out.n - 1)) / std::sqrt(double(out.n));
    out.low = out.mean - half;
    out.high = out.mean + half;
    return out;
}

} // namespace gpuf::search
