// gpuf metrics STORE: the calibration and ranking metrics of a store's forecasts, per forecaster (the figures of the
// GUI's metrics table, computed by the same code).
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "core/forecasters/forecaster_reads.h"
#include "core/forecasters/roofline_prior.h"
#include "core/forecasters/training_scope.h"
#include "core/metrics/from_store.h"
#include "core/metrics/label_noise.h"
#include "core/metrics/reference_skill.h"
#include "core/store/forecast_repo.h"
#include "core/store/scored_pairs.h"
#include "core/store/store.h"

#include <QJsonObject>

namespace gpuf::cli {
namespace {

const QString kBootstrap = QStringLiteral("bootstrap");
const QString kSamePairs = QStringLiteral("same-pairs");
const QString kIsotonic = QStringLiteral("isotonic");
const QString kStraddling = QStringLiteral("straddling");
const QString kOrigin = QStringLiteral("origin");

QList<Option> metricsOptions()
{
    return {
        Option::text(kForecaster, QStringLiteral("F"),
            QStringLiteral("Evaluate this forecaster (by name; repeat for several). Default: all.")),
        Option::text(kProblem, QStringLiteral("P"), QStringLiteral("Only candidates of this problem (by name).")),
        Option::text(kHardware, QStringLiteral("H"), QStringLiteral("Only forecasts for this hardware (by name).")),
        Option::text(kOrigin, QStringLiteral("ORIGIN"),
            QStringLiteral("Only pairs whose candidate came from the corpus, an import (a published dataset or a "
                           "recorded sweep), a search run in the store, or elsewhere: corpus, imported, search or "
                           "other. Default: every origin.")),
        Option::flag(
            kSamePairs, QStringLiteral("Only the pairs every chosen forecaster forecast (as the GUI's table).")),
        Option::flag(kIsotonic,
            QStringLiteral("Add the bin-free (isotonic, PAV) fit to each cumulative reliability curve (JSON).")),
        Option::text(kStraddling, QStringLiteral("RULE"),
            QStringLiteral("Count pairs whose measured speedup's 95% interval straddles a bin edge in the measured bin "
                           "(as-measured, the default), the lower or upper bin beside the edge, the other bin, or drop "
                           "them."))
            .byDefault(QStringLiteral("as-measured")),
        Option::integer(
            kBootstrap, QStringLiteral("N"), QStringLiteral("Bootstrap resamples for 95% intervals (default 0: none)."))
            .byDefault(QStringLiteral("0"))
            .atLeast(0)
            .refusedAs(QStringLiteral("needs a non-negative integer")),
        Option::uint64(kSeed, QStringLiteral("S"), QStringLiteral("Bootstrap seed."))
            .byDefault(QString::number(metrics::MetricsOptions {}.bootstrapSeed))
            .refusedAs(QStringLiteral("needs a non-negative integer")),
    };
}

qint64 scoredTotal(const ScoredPairs &pairs)
{
    qint64 n = 0;
    for (const ScoredPairsForecaster &f : pairs.forecasters)
        n += f.scored;
    return n;
}

// The figures as rows and the forecasters as columns: a terminal is narrower than the GUI's table.
// The forecaster's column title: its name, marked when it is scored on pairs it was trained on.
QString columnName(const metrics::ForecasterReport &r, const QHash<qint64, qint64> &inSample)
{
    return inSample.value(r.forecaster.id) > 0 ? r.forecaster.name + QStringLiteral(" (in-sample)") : r.forecaster.name;
}

void printReports(QTextStream &out, const ScoredPairs &pairs, const std::vector<metrics::ForecasterReport> &reports,
    bool samePairs, const QHash<qint64, qint64> &inSample)
{
    out << (samePairs ? "metrics on the pairs every chosen forecaster forecast (same reference, candidate, hardware "
                        "and sample)\n"
                      : "metrics per forecaster\n");
    for (const metrics::ForecasterReport &r : reports) {
        const ScoredPairsForecaster &f = r.forecaster;
        // A truth from replayed runtimes is counted apart: it was not measured here.
        const QString replayed
            = f.replayed > 0 ? QStringLiteral(" (%1 on replayed runtimes)").arg(f.replayed) : QString();
        out << QStringLiteral("  %1: %2 forecasts, %3 scored%4, %5 without measured truth, %6 failed candidates, %7 "
                              "errors\n")
                   .arg(f.name)
                   .arg(f.forecasts)
                   .arg(f.scored)
                   .arg(replayed)
                   .arg(f.withoutTruth)
                   .arg(f.failedCandidates)
                   .arg(f.errors);
        if (const qint64 n = inSample.value(f.id); n > 0)
            out << QStringLiteral("    in-sample: %1 of its %2 scored rows are pairs of operations its model was "
                                  "trained on; its figures there are not an honest forecast\n")
                       .arg(n)
                       .arg(r.report.nTotal);
    }
    if (const qint64 missing = pairs.withoutTruth(); missing > 0)
        out << QStringLiteral("  %1 forecasts have no measured truth (not scored)\n").arg(missing);
    if (const qint64 replayed = pairs.replayedTruths(); replayed > 0)
        out << QStringLiteral("  %1 scored forecasts have a truth replayed from stored runtimes (↺), not measured "
                              "here\n")
                   .arg(replayed);
    if (const qint64 quarantined = pairs.quarantined(); quarantined > 0)
        out << QStringLiteral("  %1 forecasts left out: their truth rests on a quarantined measurement (gpuf "
                              "quarantine)\n")
                   .arg(quarantined);
    if (const qint64 straddling = pairs.straddling(); straddling > 0)
        out << QStringLiteral("  %1 scored forecasts (%2 %) have a measured speedup whose 95 % interval straddles a "
                              "bin edge: their bin is label noise\n")
                   .arg(straddling)
                   .arg(100.0 * double(straddling) / double(std::max<qint64>(1, scoredTotal(pairs))), 0, 'f', 1);
    const int nameWidth = 20;
    int columnWidth = 12;
    for (const metrics::Figure &figure : metrics::tableFigures()) {
        for (const metrics::ForecasterReport &r : reports)
            columnWidth = std::max(columnWidth, int(metrics::formatFigure(figure, r.report).size()) + 2);
    }
    for (const metrics::ForecasterReport &r : reports)
        columnWidth = std::max(columnWidth, int(columnName(r, inSample).size()) + 2);
    out << '\n' << QString().leftJustified(nameWidth);
    for (const metrics::ForecasterReport &r : reports)
        out << columnName(r, inSample).rightJustified(columnWidth);
    out << '\n';
    for (const metrics::Figure &figure : metrics::tableFigures()) {
        out << figure.title.leftJustified(nameWidth);
        for (const metrics::ForecasterReport &r : reports)
            out << metrics::formatFigure(figure, r.report).rightJustified(columnWidth);
        out << '\n';
    }
}

// Scores against the base rate and the physics prior, the cumulative reliability per edge and the coverage-versus-width
// table.
void printOrdinal(QTextStream &out, const metrics::ForecasterReport &r, const metrics::ReferenceSkill &prior)
{
    using metrics::formatValue;
    const metrics::MetricsReport &m = r.report;
    const auto skill = [&m](metrics::Scalar s) { return formatValue(m.scalar(s)); };
    out << QStringLiteral("\nordinal calibration of %1 (%2 scored, %3 parsed)\n")
               .arg(r.forecaster.name)
               .arg(m.nTotal)
               .arg(m.nParsed);
    const bool hasPrior = prior.n > 0;
    if (hasPrior)
        out << QStringLiteral("  right of │: on the %1 pairs the physics prior (roofline) forecast too\n").arg(prior.n);
    out << QStringLiteral("  score      forecaster  base rate  skill")
        << (hasPrior ? QStringLiteral("  │ forecaster  roofline  skill") : QString()) << '\n';
    const auto line = [&](const QString &name, metrics::Scalar score, double base, metrics::Scalar baseSkill,
                          double own, double roofline, double rooflineSkill) {
        out << QStringLiteral("  %1 %2  %3  %4")
                   .arg(name, formatValue(m.scalar(score)).rightJustified(10), formatValue(base).rightJustified(9),
                       skill(baseSkill).rightJustified(5));
        if (hasPrior)
            out << QStringLiteral("  │ %1  %2  %3")
                       .arg(formatValue(own).rightJustified(10), formatValue(roofline).rightJustified(8),
                           formatValue(rooflineSkill).rightJustified(5));
        out << '\n';
    };
    line(QStringLiteral("RPS      "), metrics::Scalar::Crps, m.baseRate.rps, metrics::Scalar::RpsSkillBaseRate,
        prior.rps, prior.referenceRps, prior.rpsSkill);
    line(QStringLiteral("Brier Σ  "), metrics::Scalar::BrierSum, m.baseRate.brierSum,
        metrics::Scalar::BrierSkillBaseRate, prior.brierSum, prior.referenceBrierSum, prior.brierSkill);
    line(QStringLiteral("log (NLL)"), metrics::Scalar::Nll, m.baseRate.nll, metrics::Scalar::LogSkillBaseRate,
        prior.nll, prior.referenceNll, prior.logSkill);
    if (!hasPrior)
        out << QStringLiteral("  skill against the physics prior: the store holds no roofline forecast of these pairs "
                              "(gpuf forecast STORE --forecaster roofline --hardware GPU)\n");
    out << QStringLiteral(
        "  cumulative reliability: P(speedup ≥ edge) forecast vs observed, parsed forecasts, 10 "
        "buckets, 90% consistency bands\n    edge     mean forecast  observed  buckets outside band\n");
    for (const metrics::EdgeReliability &e : m.cumulativeReliability) {
        out << QStringLiteral("    ≥ %1  %2  %3  %4\n")
                   .arg(QString::number(e.speedup, 'f', 3).leftJustified(6),
                       formatValue(e.meanForecast).rightJustified(13), formatValue(e.observed).rightJustified(8))
                   .arg(e.bucketsOutsideBand(), 20);
    }
    out << QStringLiteral("  prediction sets over contiguous bins (coverage, mean width in bins)\n"
                          "    target  forecast's own    conformal (5-fold split)  threshold\n");
    for (const metrics::CoverageRow &c : m.predictionSets) {
        out << QStringLiteral("    %1  %2 %3    %4 %5     %6\n")
                   .arg(formatValue(1.0 - c.alpha).rightJustified(6), formatValue(c.forecastCoverage).rightJustified(7),
                       formatValue(c.forecastWidth).rightJustified(6),
                       formatValue(c.conformalCoverage).rightJustified(12),
                       formatValue(c.conformalWidth).rightJustified(6),
                       formatValue(c.conformalThreshold).rightJustified(9));
    }
}

// Each forecaster's figures with the straddling pairs counted in either bin or left out (label_noise.h).
void printLabelNoise(QTextStream &out, const std::vector<metrics::LabelNoise> &noise, metrics::StraddlingRule rule)
{
    using metrics::formatValue;
    out << QStringLiteral("\nlabel noise: pairs whose 95 % interval straddles a bin edge counted in either bin or left "
                          "out (the figures above count them %1)\n")
               .arg(metrics::straddlingRuleText(rule));
    out << QStringLiteral("  forecaster            straddling  counted            n  moved  accuracy  within-one"
                          "       RPS   Brier Σ       log\n");
    for (const metrics::LabelNoise &n : noise) {
        for (const metrics::LabelNoiseRow &row : n.rows) {
            out << QStringLiteral("  %1 %2  %3 %4 %5 %6 %7 %8 %9")
                       .arg(n.forecaster.left(21).leftJustified(21), QString::number(n.straddling).rightJustified(10),
                           metrics::straddlingRuleName(row.rule).leftJustified(12),
                           QString::number(row.scored).rightJustified(6), QString::number(row.moved).rightJustified(6),
                           formatValue(row.accuracy).rightJustified(9), formatValue(row.withinOne).rightJustified(11),
                           formatValue(row.rps).rightJustified(9), formatValue(row.brierSum).rightJustified(9))
                << QStringLiteral(" %1\n").arg(formatValue(row.nll).rightJustified(9));
        }
    }
}

QJsonObject metricsJson(const std::vector<metrics::ForecasterReport> &reports, const QHash<qint64, qint64> &inSample,
    const std::vector<metrics::LabelNoise> &noise, metrics::StraddlingRule rule,
    const QHash<qint64, metrics::ReferenceSkill> &prior)
{
    QJsonObject json = metrics::storeMetricsJson(reports);
    for (const metrics::ForecasterReport &r : reports) {
        QJsonObject object = json.value(r.forecaster.name).toObject();
        object.insert(QStringLiteral("in_sample"), inSample.value(r.forecaster.id) > 0);
        object.insert(QStringLiteral("n_in_sample"), inSample.value(r.forecaster.id));
        object.insert(QStringLiteral("straddling_rule"), metrics::straddlingRuleName(rule));
        object.insert(QStringLiteral("physics_prior"), metrics::toJson(prior.value(r.forecaster.id)));
        for (const metrics::LabelNoise &n : noise) {
            if (n.forecasterId == r.forecaster.id)
                object.insert(QStringLiteral("label_noise"), metrics::labelNoiseJson(n));
        }
        json.insert(r.forecaster.name, object);
    }
    return json;
}

int runMetrics(Invocation &run)
{
    if (run.args().size() != 1)
        return run.usage(QStringLiteral("give exactly one STORE"));
    auto given = run.checkOptions();
    if (!given)
        return run.usage(given.error());
    auto store = run.readStore(run.args().first());
    if (!store)
        return run.report(BadInput, store.error());
    ScoredPairFilter filter {run.values(kForecaster), run.value(kProblem), run.value(kHardware)};
    if (run.isSet(kOrigin)) {
        filter.origin = pairOriginFromName(run.value(kOrigin));
        if (!filter.origin)
            return run.usage(
                QStringLiteral("--origin %1: expected corpus, imported, search or other").arg(run.value(kOrigin)));
    }
    auto pairs = loadScoredPairs(**store, filter);
    if (!pairs)
        return run.bad(pairs.error());
    if (pairs->forecasters.isEmpty())
        return run.bad(QStringLiteral("the store holds no forecasters"));

    const auto rule = metrics::straddlingRuleFromName(run.value(kStraddling));
    if (!rule)
        return run.usage(QStringLiteral("--straddling %1: expected as-measured, lower, upper, other or drop")
                             .arg(run.value(kStraddling)));
    const bool samePairs = run.isSet(kSamePairs);
    const std::vector<metrics::LabelNoise> noise = metrics::labelNoise(*pairs, samePairs);
    const ScoredPairs asMeasured = *pairs;
    *pairs = metrics::applyStraddlingRule(std::move(*pairs), *rule);

    metrics::MetricsOptions options;
    options.bootstrapResamples = given->integer(kBootstrap);
    options.bootstrapSeed = given->uint64(kSeed);
    options.isotonicReliability = run.isSet(kIsotonic);
    std::vector<metrics::ScoredRow> rows = metrics::toScoredRows(*pairs);
    if (samePairs)
        rows = metrics::samePairs(rows);
    const std::vector<metrics::ForecasterReport> reports = metrics::forecasterReports(*pairs, rows, options);
    auto forecasters = listForecasters(**store);
    if (!forecasters)
        return run.bad(forecasters.error());
    const QHash<qint64, qint64> inSample = inSampleRows(*pairs, rows, *forecasters);
    // Skill against the physics prior: its stored forecasts of the same pairs, counted by the same rule.
    auto priorRows = metrics::physicsPriorRows(**store, filter, *rule);
    if (!priorRows)
        return run.bad(priorRows.error());
    const auto prior = metrics::skillsAgainst(rows, *priorRows, QLatin1StringView(kRooflineForecasterName));
    if (run.json())
        run.printJson(metricsJson(reports, inSample, noise, *rule, prior));
    else {
        printReports(run.out(), asMeasured, reports, samePairs, inSample);
        if (asMeasured.straddling() > 0 || *rule != metrics::StraddlingRule::AsMeasured)
            printLabelNoise(run.out(), noise, *rule);
        for (const metrics::ForecasterReport &r : reports)
            printOrdinal(run.out(), r, prior.value(r.forecaster.id));
    }
    return int(Success);
}

} // namespace

Command metricsCommand()
{
    Command c;
    c.name = QStringLiteral("metrics");
    c.summary = QStringLiteral("Calibration, accuracy and ranking metrics of the forecasts in a store.");
    c.usage = QStringLiteral("STORE");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("an existing store")}};
    c.options = metricsOptions();
    c.invoke = runMetrics;
    return c;
}

} // namespace gpuf::cli
