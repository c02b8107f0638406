// The metrics of a store's forecasts; see from_store.h.
#include "core/metrics/from_store.h"

#include "core/metrics/report_json.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuf::metrics {

std::vector<ScoredRow> toScoredRows(const ScoredPairs &pairs)
{
    std::vector<ScoredRow> rows;
    rows.reserve(std::size_t(pairs.pairs.size()));
    for (const ScoredPair &pair : pairs.pairs) {
        ScoredRow row;
        row.pairId = pair.candidateId;
        row.forecastId = pair.forecastId;
        row.poolKey = pair.referenceId;
        row.forecasterId = pair.forecasterId;
        row.problemId = pair.problemId;
        row.hardwareId = pair.hardwareId;
        row.searchId = pair.searchId;
        row.repeat = pair.repeat;
        row.p = pair.p;
        row.predictedBin = pair.predictedBin;
        row.parsed = pair.parsed;
        row.trueBin = pair.trueBin;
        row.trueSpeedup = pair.trueSpeedup;
        rows.push_back(row);
    }
    return rows;
}

std::vector<ForecasterReport> forecasterReports(
    const ScoredPairs &pairs, std::span<const ScoredRow> rows, const MetricsOptions &options)
{
    std::vector<std::vector<ScoredRow>> perForecaster(std::size_t(pairs.forecasters.size()));
    QHash<qint64, std::size_t> index;
    for (qsizetype i = 0; i < pairs.forecasters.size(); ++i)
        index.insert(pairs.forecasters[i].id, std::size_t(i));
    for (const ScoredRow &row : rows) {
        if (const auto it = index.constFind(row.forecasterId); it != index.cend())
            perForecaster[*it].push_back(row);
    }
    std::vector<ForecasterReport> reports(perForecaster.size());
    std::vector<std::size_t> order(perForecaster.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    // Forecasters are independent (and each bootstrap is seeded per replicate), so they run in parallel. On a pool of
    // their own: callers run this inside global-pool jobs, and waiting there for global-pool work can deadlock.
    QThreadPool pool;
    QtConcurrent::blockingMap(&pool, order, [&](std::size_t i) {
        reports[i].forecaster = pairs.forecasters[qsizetype(i)];
        reports[i].report = computeReport(perForecaster[i], options);
    });
    return reports;
}

StoreMetrics computeStoreMetrics(const ScoredPairs &pairs, const MetricsOptions &options)
{
    StoreMetrics out;
    out.rows = toScoredRows(pairs);
    out.samePairRows = samePairs(out.rows);
    out.reports = forecasterReports(pairs, out.rows, options);
    out.samePairReports = forecasterReports(pairs, out.samePairRows, options);
    return out;
}

const std::vector<ForecasterReport> &StoreMetrics::reportsFor(Comparison c) const
{
    switch (c) {
    case Comparison::SamePairs:
        return samePairReports;
    case Comparison::ComparedPairs:
        return comparedReports;
    case Comparison::AllPairs:
        break;
    }
    return reports;
}

const std::vector<ScoredRow> &StoreMetrics::rowsFor(Comparison c) const
{
    switch (c) {
    case Comparison::SamePairs:
        return samePairRows;
    case Comparison::ComparedPairs:
        return comparedRows;
    case Comparison::AllPairs:
        break;
    }
    return rows;
}

qint64 StoreMetrics::sharedPairs(Comparison c) const
{
    const std::vector<ScoredRow> &shared = rowsFor(c);
    if (c == Comparison::AllPairs)
        return qint64(shared.size());
    // Same-pair rows hold exactly one row per pair and forecaster.
    std::vector<qint64> forecasters;
    forecasters.reserve(shared.size());
    for (const ScoredRow &row : shared)
        forecasters.push_back(row.forecasterId);
    std::sort(forecasters.begin(), forecasters.end());
    const auto distinct = std::unique(forecasters.begin(), forecasters.end()) - forecasters.begin();
    return distinct == 0 ? 0 : qint64(shared.size()) / qint64(distinct);
}

void compareTwo(
    StoreMetrics &metrics, const ScoredPairs &pairs, qint64 first, qint64 second, const MetricsOptions &options)
{
    metrics.compared = {first, second};
    metrics.comparedRows.clear();
    metrics.comparedReports.clear();
    ScoredPairs two; // only the two forecasters: their reports, not everyone's
    for (const ScoredPairsForecaster &f : pairs.forecasters) {
        if (first != second && (f.id == first || f.id == second))
            two.forecasters.append(f);
    }
    if (two.forecasters.size() != 2)
        return;
    std::vector<ScoredRow> theirs;
    bool firstHasRows = false;
    bool secondHasRows = false;
    for (const ScoredRow &row : metrics.rows) {
        if (row.forecasterId == first || row.forecasterId == second)
            theirs.push_back(row);
        firstHasRows = firstHasRows || row.forecasterId == first;
        secondHasRows = secondHasRows || row.forecasterId == second;
    }
    // samePairs() intersects the forecasters present: one without rows would leave the other's every pair.
    if (firstHasRows && secondHasRows)
        metrics.comparedRows = samePairs(theirs);
    metrics.comparedReports = forecasterReports(two, metrics.comparedRows, options);
}

QJsonObject storeMetricsJson(const std::vector<ForecasterReport> &reports)
{
    QJsonObject out;
    for (const ForecasterReport &r : reports) {
        QJsonObject object = toJson(r.report);
        object.insert(QStringLiteral("display_name"), r.forecaster.label());
        object.insert(QStringLiteral("n_forecasts"), r.forecaster.forecasts);
        object.insert(QStringLiteral("n_no_truth"), r.forecaster.withoutTruth);
        object.insert(QStringLiteral("n_replayed_truth"), r.forecaster.replayed);
        object.insert(QStringLiteral("n_failed"), r.forecaster.failedCandidates);
        object.insert(QStringLiteral("n_errors"), r.forecaster.errors);
        object.insert(QStringLiteral("n_quarantined"), r.forecaster.quarantined);
        object.insert(QStringLiteral("n_straddling"), r.forecaster.straddling);
        object.insert(QStringLiteral("straddling_share"),
            r.forecaster.scored > 0 ? double(r.forecaster.straddling) / double(r.forecaster.scored) : 0.0);
        out.insert(r.forecaster.name, object);
    }
    return out;
}

namespace {

QString tr(const char *text) { return QCoreApplication::translate("gpuf::metrics", text); }

Figure scalarFigure(Scalar scalar, const char *title, const char *description, std::optional<bool> higherIsBetter)
{
    Figure f;
    f.kind = Figure::Kind::Scalar;
    f.scalar = scalar;
    f.key = scalarName(scalar);
    f.title = tr(title);
    f.description = tr(description);
    f.higherIsBetter = higherIsBetter;
    return f;
}

Figure countFigure(int count, const char *key, const char *title, const char *description)
{
    Figure f;
    f.kind = Figure::Kind::Count;
    f.count = count;
    f.key = QString::fromLatin1(key);
    f.title = tr(title);
    f.description = tr(description);
    return f;
}

std::vector<Figure> makeFigures()
{
    constexpr bool higher = true;
    constexpr bool lower = false;
    return {
        countFigure(0, "n_total", "Pairs", "Scored forecasts (parse failures included)"),
        countFigure(1, "n_parsed", "Parsed", "Forecasts that parsed into a distribution"),
        scalarFigure(Scalar::Accuracy, "Accuracy", "Predicted bin = true bin, over parsed forecasts", higher),
        scalarFigure(Scalar::WithinOne, "Within one", "Predicted bin at most one bin off, over parsed", higher),
        scalarFigure(Scalar::Ece, "ECE", "Expected calibration error, 10 buckets of max-prob confidence", lower),
        scalarFigure(Scalar::BrierHalf, "Brier ½Σ", "½·Σ(p−y)², range 0..1; parse failures as uniform", lower),
        scalarFigure(Scalar::BrierSum, "Brier Σ", "Σ(p−y)² as in the paper's figures; failures as uniform", lower),
        scalarFigure(Scalar::Crps, "CRPS", "Ranked probability score over the ordinal bins", lower),
        scalarFigure(Scalar::Nll, "NLL", "−ln p(true bin); parse failures as uniform", lower),
        scalarFigure(Scalar::MeanEntropy, "Entropy", "Mean entropy of the parsed distributions (nats)", {}),
        scalarFigure(Scalar::AurcMaxProb, "AURC max-p", "Area under risk–coverage, confidence = max prob", lower),
        scalarFigure(Scalar::AurcNegEntropy, "AURC −H", "Area under risk–coverage, confidence = 1 − H/ln 8", lower),
        scalarFigure(
            Scalar::AurcTop2Margin, "AURC margin", "Area under risk–coverage, confidence = top-2 margin", lower),
        scalarFigure(Scalar::UtilityAt10Pct, "Utility@10%",
            "Best speedup found measuring the top 10% of each pool ÷ the pool's best (app-side reconstruction)",
            higher),
        scalarFigure(Scalar::BrierHalfParsed, "Brier ½Σ (parsed)", "½·Σ(p−y)² over parsed forecasts only", lower),
        scalarFigure(Scalar::BrierSumParsed, "Brier Σ (parsed)", "Σ(p−y)² over parsed forecasts only", lower),
        scalarFigure(Scalar::CrpsParsed, "CRPS (parsed)", "CRPS over parsed forecasts only", lower),
        scalarFigure(Scalar::NllParsed, "NLL (parsed)", "−ln p(true bin) over parsed forecasts only", lower),
        scalarFigure(Scalar::RpsSkillBaseRate, "RPSS base rate",
            "Ranked probability skill: 1 − RPS ÷ RPS of the bins' base rate on these pairs (0: no better)", higher),
        scalarFigure(Scalar::BrierSkillBaseRate, "BSS base rate",
            "Brier skill: 1 − Brier ÷ Brier of the bins' base rate on these pairs (0: no better)", higher),
        scalarFigure(Scalar::LogSkillBaseRate, "Log skill base rate",
            "Log skill: 1 − NLL ÷ NLL of the bins' base rate on these pairs (0: no better)", higher),
    };
}

} // namespace

const std::vector<Figure> &tableFigures()
{
    static const std::vector<Figure> figures = makeFigures();
    return figures;
}

double figureValue(const Figure &figure, const MetricsReport &report)
{
    if (figure.kind == Figure::Kind::Count)
        return double(figure.count == 0 ? report.nTotal : report.nParsed);
    return report.scalar(figure.scalar);
}

Interval figureInterval(const Figure &figure, const MetricsReport &report)
{
    if (figure.kind == Figure::Kind::Count || !report.hasIntervals)
        return {};
    return report.interval(figure.scalar);
}

QString formatValue(double value)
{
    return std::isfinite(value) ? QString::number(value, 'f', 3) : QStringLiteral("—");
}

QString formatFigure(const Figure &figure, const MetricsReport &report)
{
    const double value = figureValue(figure, report);
    if (figure.kind == Figure::Kind::Count)
        return QString::number(qint64(value));
    const Interval ci = figureInterval(figure, report);
    if (!std::isfinite(value) || !std::isfinite(ci.low) || !std::isfinite(ci.high))
        return formatValue(value);
    return QStringLiteral("%1 [%2, %3]").arg(formatValue(value), formatValue(ci.low), formatValue(ci.high));
}

} // namespace gpuf::metrics
