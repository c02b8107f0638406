// Serialising ordinal calibration; see ordinal_json.h.
#include "core/metrics/ordinal_json.h"

#include <cmath>

namespace gpuf::metrics {
namespace {

QJsonValue finiteOrNull(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null); }

QJsonObject bucketJson(const CumulativeBucket &b)
{
    return {{QStringLiteral("low"), b.low}, {QStringLiteral("high"), b.high}, {QStringLiteral("count"), b.count},
        {QStringLiteral("mean_forecast"), finiteOrNull(b.meanForecast)},
        {QStringLiteral("observed"), finiteOrNull(b.observed)}, {QStringLiteral("band_low"), finiteOrNull(b.bandLow)},
        {QStringLiteral("band_high"), finiteOrNull(b.bandHigh)}};
}

QJsonObject edgeJson(const EdgeReliability &curve)
{
    QJsonArray buckets;
    for (const CumulativeBucket &b : curve.buckets)
        buckets.append(bucketJson(b));
    QJsonObject out {{QStringLiteral("edge"), curve.edge}, {QStringLiteral("speedup"), curve.speedup},
        {QStringLiteral("n"), curve.count}, {QStringLiteral("mean_forecast"), finiteOrNull(curve.meanForecast)},
        {QStringLiteral("observed"), finiteOrNull(curve.observed)},
        {QStringLiteral("buckets_outside_band"), curve.bucketsOutsideBand()}, {QStringLiteral("buckets"), buckets}};
    if (!curve.isotonic.empty()) {
        QJsonArray blocks;
        for (const IsotonicBlock &b : curve.isotonic) {
            blocks.append(QJsonObject {{QStringLiteral("forecast_low"), b.forecastLow},
                {QStringLiteral("forecast_high"), b.forecastHigh}, {QStringLiteral("fitted"), b.fitted},
                {QStringLiteral("count"), b.count}});
        }
        out.insert(QStringLiteral("isotonic"), blocks);
    }
    return out;
}

} // namespace

QJsonObject ordinalJson(const MetricsReport &report)
{
    QJsonArray shares;
    for (double v : report.baseRate.p)
        shares.append(v);
    return {{QStringLiteral("rps"), finiteOrNull(report.scalar(Scalar::Crps))}, {QStringLiteral("base_rate"), shares},
        {QStringLiteral("base_rate_rps"), finiteOrNull(report.baseRate.rps)},
        {QStringLiteral("base_rate_brier_sum"), finiteOrNull(report.baseRate.brierSum)},
        {QStringLiteral("base_rate_nll"), finiteOrNull(report.baseRate.nll)}};
}

QJsonArray cumulativeReliabilityJson(const CumulativeReliability &curves)
{
    QJsonArray out;
    for (const EdgeReliability &curve : curves)
        out.append(edgeJson(curve));
    return out;
}

QJsonArray predictionSetsJson(const std::vector<CoverageRow> &rows)
{
    QJsonArray out;
    for (const CoverageRow &r : rows) {
        out.append(QJsonObject {{QStringLiteral("alpha"), r.alpha}, {QStringLiteral("coverage_target"), 1.0 - r.alpha},
            {QStringLiteral("n"), r.count}, {QStringLiteral("forecast_coverage"), finiteOrNull(r.forecastCoverage)},
            {QStringLiteral("forecast_mean_width"), finiteOrNull(r.forecastWidth)},
            {QStringLiteral("conformal_coverage"), finiteOrNull(r.conformalCoverage)},
            {QStringLiteral("conformal_mean_width"), finiteOrNull(r.conformalWidth)},
            {QStringLiteral("conformal_threshold"), finiteOrNull(r.conformalThreshold)}});
    }
    return out;
}

} // namespace gpuf::metrics
