// The comparison's report as text, JSON and CSV; see compare.h.
#include "core/search/compare.h"

#include "core/search/compare_learner.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuf::search {

namespace {

QList<double> asDoubles(const QList<int> &values, bool reachedOnly)
{
    QList<double> out;
    for (int v : values) {
        if (!reachedOnly || v >= 0)
            out << double(v);
    }
    return out;
}

QList<double> finite(const QList<double> &values)
{
    QList<double> out;
    for (double v : values) {
        if (std::isfinite(v))
            out << v;
    }
    return out;
}

QString intervalText(const Interval &i, int precision)
{
    if (i.n == 0)
        return QStringLiteral("—");
    if (i.n == 1)
        return QString::number(i.mean, 'f', precision);
    return QStringLiteral("%1 [%2, %3]")
        .arg(i.mean, 0, 'f', precision)
        .arg(i.low, 0, 'f', precision)
        .arg(i.high, 0, 'f', precision);
}

// "34.1 [28.0, 40.2] (10/10)": the mean over the seeds that reached it, and how many did.
QString reachText(const QList<int> &values)
{
    const QList<double> reached = asDoubles(values, true);
    if (reached.isEmpty())
        return QStringLiteral("never (0/%1)").arg(values.size());
    return QStringLiteral("%1 (%2/%3)")
        .arg(intervalText(meanInterval(reached), 1))
        .arg(reached.size())
        .arg(values.size());
}

QJsonValue number(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(); }

QJsonObject intervalJson(const Interval &i)
{
    return {{QStringLiteral("mean"), i.n ? number(i.mean) : QJsonValue()},
        {QStringLiteral("low"), i.n ? number(i.low) : QJsonValue()},
        {QStringLiteral("high"), i.n ? number(i.high) : QJsonValue()}, {QStringLiteral("n"), i.n}};
}

QJsonObject reachJson(const QList<int> &values)
{
    QJsonObject o = intervalJson(meanInterval(asDoubles(values, true)));
    QJsonArray perSeed;
    for (int v : values)
        perSeed.append(v >= 0 ? QJsonValue(v) : QJsonValue());
    o.insert(QStringLiteral("per_seed"), perSeed);
    o.insert(QStringLiteral("reached"), int(asDoubles(values, true).size()));
    return o;
}

template<typename T>
QJsonArray array(const QList<T> &values)
{
    QJsonArray out;
    for (const T &v : values) {
        if constexpr (std::is_floating_point_v<T>)
            out.append(number(v));
        else
            out.append(v);
    }
    return out;
}

// "3/3": in how many of its searches a strategy stopped short of the budget (it measured the whole space, or its
// proposals ran out); "-" in none.
QString ranOutText(const StrategyResult &s, int budget)
{
    const auto ranOut
        = std::count_if(s.evaluations.cbegin(), s.evaluations.cend(), [budget](int e) { return e < budget; });
    return ranOut == 0 ? QStringLiteral("-") : QStringLiteral("%1/%2").arg(ranOut).arg(s.evaluations.size());
}

// The most GPU evaluations any search of the comparison made: past it every curve is flat.
int mostEvaluations(const QList<StrategyResult> &strategies)
{
    int most = 0;
    for (const StrategyResult &s : strategies) {
        for (int e : s.evaluations)
            most = std::max(most, e);
    }
    return most;
}

QList<double> finalBests(const StrategyResult &s)
{
    QList<double> out;
    for (const QList<double> &c : s.curves)
        out << c.last();
    return out;
}

bool hasLearnerFigures(const StrategyResult &s)
{
    return !finite(s.learnerSpearmanSpace).isEmpty() || !finite(s.learnerSpearmanProposals).isEmpty()
        || std::accumulate(s.trusted.cbegin(), s.trusted.cend(), 0) > 0;
}

// "12/340 (3.5 %)": the trusted forecasts the space proves wrong, over every seed.
QString trustedText(const StrategyResult &s)
{
    const int trusted = std::accumulate(s.trusted.cbegin(), s.trusted.cend(), 0);
    const int wrong = std::accumulate(s.trustedWrong.cbegin(), s.trustedWrong.cend(), 0);
    if (trusted == 0)
        return QStringLiteral("—");
    return QStringLiteral("%1/%2 (%3 %)").arg(wrong).arg(trusted).arg(100.0 * wrong / trusted, 0, 'f', 1);
}

// The modes' forecaster against the space's recorded outcomes (compare_learner.h); empty when no mode has a figure.
QString learnerTable(const QList<StrategyResult> &strategies, double alpha)
{
    QString out;
    for (const StrategyResult &s : strategies) {
        if (!hasLearnerFigures(s))
            continue;
        out += QStringLiteral("%1 %2 %3 %4\n")
                   .arg(s.strategy.name(), -10)
                   .arg(intervalText(meanInterval(finite(s.learnerSpearmanSpace)), 2), -22)
                   .arg(intervalText(meanInterval(finite(s.learnerSpearmanProposals)), 2), -22)
                   .arg(trustedText(s));
    }
    if (out.isEmpty())
        return out;
    return QStringLiteral("\nthe forecaster against the recorded outcomes: Spearman ρ of the learner after %1 "
                          "measurements (mean [95 % interval]) over the space's other configurations (tunables "
                          "alone) and over the proposals it forecast; trusted forecasts the space proves wrong%2\n")
               .arg(kLearnerCheckMeasurements)
               .arg(alpha > 0.0 ? QStringLiteral(" (α = %1)").arg(alpha) : QStringLiteral(" (none without --alpha)"))
        + QStringLiteral("%1 %2 %3 %4\n")
              .arg(QStringLiteral("strategy"), -10)
              .arg(QStringLiteral("ρ space"), -22)
              .arg(QStringLiteral("ρ proposals"), -22)
              .arg(QStringLiteral("trusted wrong"))
        + out;
}

// The anytime curve at five budgets, random search's expectation beside; up to the most evaluations any search made
// (beyond, every curve is flat and the table would only repeat its last column).
QString anytimeTable(const QList<StrategyResult> &strategies, const QList<double> &randomExpected, int budget)
{
    const int most = mostEvaluations(strategies);
    const int span = most > 0 ? std::min(budget, most) : budget;
    QList<int> marks;
    for (int k = 1; k <= 5; ++k) {
        const int e = std::max(1, span * k / 5);
        if (marks.isEmpty() || marks.last() != e)
            marks << e;
    }
    QString out
        = QStringLiteral("\nbest speedup after e GPU evaluations (mean)%1\n%2")
              .arg(span < budget ? QStringLiteral("; no search made more than %1 of the %2 budgeted, so the table "
                                                  "ends there")
                                       .arg(span)
                                       .arg(budget)
                                 : QString())
              .arg(QStringLiteral("e"), -10);
    for (int e : std::as_const(marks))
        out += QStringLiteral(" %1").arg(e, 9);
    out += QLatin1Char('\n');
    for (const StrategyResult &s : strategies) {
        out += QStringLiteral("%1").arg(s.strategy.name(), -10);
        for (int e : std::as_const(marks))
            out += QStringLiteral(" %1").arg(s.curveAt(e).mean, 9, 'f', 3);
        out += QLatin1Char('\n');
    }
    out += QStringLiteral("%1").arg(QStringLiteral("(random)"), -10);
    for (int e : std::as_const(marks))
        out += QStringLiteral(" %1").arg(randomExpected.value(e), 9, 'f', 3);
    out += QLatin1Char('\n');
    return out;
}

} // namespace

QString CompareReport::text() const
{
    QString out;
    out += QStringLiteral("space %1 (problem %2) on %3, replayed: %4 configurations (%5 fail), optimum %6×\n")
               .arg(space, problem, hardware)
               .arg(spaceSize)
               .arg(spaceFailures)
               .arg(optimum, 0, 'f', 3);
    out += QStringLiteral("budget %1 GPU evaluations per search (%2 steps × %3%4), %5 seeds, forecaster %6\n")
               .arg(budget)
               .arg(steps)
               .arg(gpuBudgetPerStep)
               .arg(budget > steps * gpuBudgetPerStep ? QStringLiteral(" + the measured seed") : QString())
               .arg(seeds)
               .arg(forecaster.isEmpty() ? QStringLiteral("-") : forecaster);
    out += QStringLiteral("random search's expectation: %1 evaluations to the optimum, %2 to within 1 %, %3 to within "
                          "5 %\n\n")
               .arg(randomToOptimum, 0, 'f', 1)
               .arg(randomToWithin1, 0, 'f', 1)
               .arg(randomToWithin5, 0, 'f', 1);
    out += QStringLiteral("GPU evaluations to reach (mean [95 % interval] over the seeds that did; reached/seeds); "
                          "score over %1\n")
               .arg(scoreFrom <= scoreTo ? QStringLiteral("e = %1…%2").arg(scoreFrom).arg(scoreTo)
                                         : QStringLiteral("no budget (see the notes)"));
    out += QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(QStringLiteral("strategy"), -10)
               .arg(QStringLiteral("optimum"), -28)
               .arg(QStringLiteral("within 1 %"), -28)
               .arg(QStringLiteral("within 5 %"), -28)
               .arg(QStringLiteral("score"));
    for (const StrategyResult &s : strategies) {
        out += QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(s.strategy.name(), -10)
                   .arg(reachText(s.toOptimum), -28)
                   .arg(reachText(s.toWithin1), -28)
                   .arg(reachText(s.toWithin5), -28)
                   .arg(intervalText(meanInterval(finite(s.scores)), 3));
    }
    out += QStringLiteral("\nbest found and cost (mean [95 % interval])\n");
    out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
               .arg(QStringLiteral("strategy"), -10)
               .arg(QStringLiteral("best speedup"), -26)
               .arg(QStringLiteral("GPU evals"), 10)
               .arg(QStringLiteral("ran out"), 8)
               .arg(QStringLiteral("GPU time s"), 11)
               .arg(QStringLiteral("forecasts"), 10)
               .arg(QStringLiteral("forecaster s"), 13);
    for (const StrategyResult &s : strategies) {
        out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                   .arg(s.strategy.name(), -10)
                   .arg(intervalText(meanInterval(finalBests(s)), 3), -26)
                   .arg(meanInterval(asDoubles(s.evaluations, false)).mean, 10, 'f', 1)
                   .arg(ranOutText(s, budget), 8)
                   .arg(meanInterval(s.gpuSeconds).mean, 11, 'f', 4)
                   .arg(meanInterval(asDoubles(s.forecasts, false)).mean, 10, 'f', 1)
                   .arg(meanInterval(s.forecasterSeconds).mean, 13, 'f', 3);
    }
    out += learnerTable(strategies, alpha);
    out += anytimeTable(strategies, randomExpected, budget);
    for (const QString &note : notes)
        out += QStringLiteral("note: %1\n").arg(note);
    return out;
}

QJsonObject CompareReport::toJson() const
{
    QJsonArray list;
    for (const StrategyResult &s : strategies) {
        QJsonArray mean, low, high, curves;
        for (int e = 0; e <= budget; ++e) {
            const Interval i = s.curveAt(e);
            mean.append(i.mean);
            low.append(i.low);
            high.append(i.high);
        }
        for (const QList<double> &c : s.curves)
            curves.append(array(c));
        QJsonArray exhausted;
        for (bool b : s.exhausted)
            exhausted.append(b);
        list.append(QJsonObject {{QStringLiteral("name"), s.strategy.name()},
            {QStringLiteral("kind"), s.strategy.isMode() ? QStringLiteral("mode") : QStringLiteral("baseline")},
            {QStringLiteral("curve"),
                QJsonObject {
                    {QStringLiteral("mean"), mean}, {QStringLiteral("low"), low}, {QStringLiteral("high"), high}}},
            {QStringLiteral("curves"), curves},
            {QStringLiteral("best_speedup"), intervalJson(meanInterval(finalBests(s)))},
            {QStringLiteral("evaluations_to_optimum"), reachJson(s.toOptimum)},
            {QStringLiteral("evaluations_to_within_1pct"), reachJson(s.toWithin1)},
            {QStringLiteral("evaluations_to_within_5pct"), reachJson(s.toWithin5)},
            {QStringLiteral("score"), intervalJson(meanInterval(finite(s.scores)))},
            {QStringLiteral("scores"), array(s.scores)}, {QStringLiteral("gpu_evaluations"), array(s.evaluations)},
            {QStringLiteral("forecasts"), array(s.forecasts)},
            {QStringLiteral("forecaster_seconds"), array(s.forecasterSeconds)},
            {QStringLiteral("gpu_seconds"), array(s.gpuSeconds)}, {QStringLiteral("exhausted"), exhausted},
            {QStringLiteral("learner_spearman_space"), array(s.learnerSpearmanSpace)},
            {QStringLiteral("learner_spearman_proposals"), array(s.learnerSpearmanProposals)},
            {QStringLiteral("trusted"), array(s.trusted)}, {QStringLiteral("trusted_wrong"), array(s.trustedWrong)}});
    }
    return {{QStringLiteral("space"), space}, {QStringLiteral("problem"), problem},
        {QStringLiteral("hardware"), hardware}, {QStringLiteral("forecaster"), forecaster},
        {QStringLiteral("space_size"), spaceSize}, {QStringLiteral("space_failures"), spaceFailures},
        {QStringLiteral("optimum"), optimum}, {QStringLiteral("steps"), steps},
        {QStringLiteral("gpu_budget_per_step"), gpuBudgetPerStep}, {QStringLiteral("budget"), budget},
        {QStringLiteral("seeds"), seeds}, {QStringLiteral("alpha"), alpha},
        {QStringLiteral("score_range"), QJsonArray {scoreFrom, scoreTo}},
        {QStringLiteral("random"),
            QJsonObject {{QStringLiteral("expected_curve"), array(randomExpected)},
                {QStringLiteral("evaluations_to_optimum"), randomToOptimum},
                {QStringLiteral("evaluations_to_within_1pct"), randomToWithin1},
                {QStringLiteral("evaluations_to_within_5pct"), randomToWithin5}}},
        {QStringLiteral("strategies"), list}, {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}};
}

QString CompareReport::toCsv() const
{
    QString out = QStringLiteral("strategy,evaluations,best_mean,best_low,best_high\n");
    for (const StrategyResult &s : strategies) {
        for (int e = 0; e <= budget; ++e) {
            const Interval i = s.curveAt(e);
            out += QStringLiteral("%1,%2,%3,%4,%5\n")
                       .arg(s.strategy.name())
                       .arg(e)
                       .arg(i.mean, 0, 'g', 10)
                       .arg(i.low, 0, 'g', 10)
                       .arg(i.high, 0, 'g', 10);
        }
    }
    for (int e = 0; e <= budget && e < randomExpected.size(); ++e)
        out += QStringLiteral("random (expected),%1,%2,%2,%2\n").arg(e).arg(randomExpected.at(e), 0, 'g', 10);
    return out;
}

} // namespace gpuf::search
