// JSON form of a report's ordinal calibration: the base rate behind the skill scores, the cumulative reliability
// curves and the coverage-versus-width table (keys documented in docs/manual.md, "gpuf metrics").
#pragma once

#include "core/metrics/report.h"

#include <QJsonArray>
#include <QJsonObject>

namespace gpuf::metrics {

// {rps, base_rate: [8 shares], base_rate_rps, base_rate_brier_sum, base_rate_nll}
QJsonObject ordinalJson(const MetricsReport &report);
// [{edge, speedup, n, mean_forecast, observed, buckets_outside_band, buckets: [{low, high, count, mean_forecast,
// observed, band_low, band_high}], isotonic: [{forecast_low, forecast_high, fitted, count}] when fitted}] per edge
QJsonArray cumulativeReliabilityJson(const CumulativeReliability &curves);
// [{alpha, coverage_target, n, forecast_coverage, forecast_mean_width, conformal_coverage, conformal_mean_width,
// conformal_threshold}] per α; an infinite threshold (too few rows to calibrate: the full set) is null
QJsonArray predictionSetsJson(const std::vector<CoverageRow> &rows);

} // namespace gpuf::metrics
