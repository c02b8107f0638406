// The metrics of a store's forecasts: scored pairs turned into ScoredRows, one report per forecaster (on all its
// pairs, or on the pairs every chosen forecaster forecast), and the figures of the metrics table, formatted once for
// the CLI and the GUI alike.
#pragma once

#include "core/metrics/report.h"
#include "core/store/scored_pairs.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <span>
#include <vector>

namespace gpuf::metrics {

// pairId = candidate kernel id (so a drill-down maps back to kernels), forecastId = the forecast's id,
// poolKey = reference kernel id.
std::vector<ScoredRow> toScoredRows(const ScoredPairs &pairs);

struct ForecasterReport
{
    ScoredPairsForecaster forecaster;
    MetricsReport report;
};

enum class Comparison {
    AllPairs, // each forecaster on every pair it forecast
    SamePairs, // only the pairs every chosen forecaster forecast
    ComparedPairs, // only the pairs the two compared forecasters both forecast (StoreMetrics::compared)
};

// Below this many pairs forecast by every forecaster compared, their figures are too noisy to rank them.
inline constexpr qint64 kMinSharedPairs = 30;

// One report per forecaster of `pairs.forecasters` (in that order, a forecaster without rows included), computed
// over `rows` — usually toScoredRows(pairs), or samePairs() of it.
std::vector<ForecasterReport> forecasterReports(
    const ScoredPairs &pairs, std::span<const ScoredRow> rows, const MetricsOptions &options = {});

struct StoreMetrics
{
    std::vector<ScoredRow> rows; // every scored row
    std::vector<ScoredRow> samePairRows; // the rows of pairs every chosen forecaster forecast
    std::vector<ForecasterReport> reports; // on rows
    std::vector<ForecasterReport> samePairReports; // on samePairRows
    std::vector<qint64> compared; // the two forecasters of compareTwo(), empty before
    std::vector<ScoredRow> comparedRows; // the rows of pairs both compared forecasters forecast
    std::vector<ForecasterReport> comparedReports; // on comparedRows: the compared forecasters' only

    const std::vector<ForecasterReport> &reportsFor(Comparison c) const;
    const std::vector<ScoredRow> &rowsFor(Comparison c) const;
    // How many pairs every forecaster of the comparison forecast (SamePairs, ComparedPairs); all rows for AllPairs.
    qint64 sharedPairs(Comparison c) const;
};
StoreMetrics computeStoreMetrics(const ScoredPairs &pairs, const MetricsOptions &options = {});
// Fills `metrics`' compared rows and reports for the forecasters `first` and `second` (ids of pairs.forecasters) on
// the pairs both forecast, whatever other forecasters `metrics` holds. The same id twice, or an id of no forecaster
// here, compares nothing (empty rows).
void compareTwo(
    StoreMetrics &metrics, const ScoredPairs &pairs, qint64 first, qint64 second, const MetricsOptions &options = {});

// `gpuf metrics --json`: an object keyed by forecaster name, each toJson(report) plus the forecaster's counts
// (n_forecasts, n_no_truth, n_failed, n_errors, n_replayed_truth: scored pairs whose truth rests on replayed
// runtimes; n_quarantined: pairs left out because their truth rests on a quarantined measurement; n_straddling and
// straddling_share: scored pairs whose measured speedup's 95 % interval straddles a bin edge) and display_name.
QJsonObject storeMetricsJson(const std::vector<ForecasterReport> &reports);

// The figures of the metrics table, in display order: counts first, then every scalar.
struct Figure
{
    enum class Kind { Count, Scalar };
    Kind kind = Kind::Scalar;
    Scalar scalar = Scalar::Accuracy; // for Kind::Scalar
    int count = 0; // for Kind::Count: 0 = n_total (scored), 1 = n_parsed
    QString key; // JSON key
    QString title; // short column heading
    QString description; // tooltip: what it measures and which way is better
    std::optional<bool> higherIsBetter; // empty: neither
};
const std::vector<Figure> &tableFigures();

double figureValue(const Figure &figure, const MetricsReport &report);
Interval figureInterval(const Figure &figure, const MetricsReport &report); // NaN bounds without intervals
// "0.412", "0.412 [0.388, 0.437]" with intervals, "—" for NaN, integers for counts.
QString formatFigure(const Figure &figure, const MetricsReport &report);
QString formatValue(double value);

} // namespace gpuf::metrics
