// The Forecast dock's prediction sets; see prediction_sets_note.h.
#include "widgets/forecast/prediction_sets_note.h"

#include "core/metrics/prediction_sets.h"
#include "core/session/calibration_data.h"
#include "widgets/forecast/forecast_reading.h"

#include <QCoreApplication>

#include <cmath>

namespace gpuf {

namespace prediction_sets_note_detail {

QString setsTr(const char *text) { return QCoreApplication::translate("gpuf::ForecastDetail", text); }

// The set as the Forecast dock's reading names a span ("bins 1–6 (< 2.83×)"), so both lines read alike.
QString setRangeText(const metrics::BinRange &range) { return binSpanText(range.low, range.high); }

} // namespace prediction_sets_note_detail

QHash<RowId, ConformalCalibration> conformalCalibrations(const CalibrationSnapshot &snapshot, double level)
{
    QHash<RowId, ConformalCalibration> out;
    for (const metrics::ForecasterReport &r : snapshot.metrics.reports) {
        for (const metrics::CoverageRow &row : r.report.predictionSets) {
            if (std::abs(1.0 - row.alpha - level) < 1e-9 && row.count > 0)
                out.insert(r.forecaster.id, {level, row.conformalThreshold, row.conformalCoverage, row.count});
        }
    }
    return out;
}

QString predictionSetsText(const bins::Distribution &p, const std::optional<ConformalCalibration> &conformal)
{
    using namespace prediction_sets_note_detail;
    const double level = conformal ? conformal->level : 0.9;
    const metrics::BinRange own = metrics::shortestSet(p, level);
    const QString percent = QStringLiteral("%1 %").arg(level * 100.0, 0, 'f', 0);
    QString text = setsTr("%1 with %2 of this forecast").arg(setRangeText(own), percent);
    if (!conformal) {
        text += setsTr(" · no conformal set: the forecaster has no measured pairs to calibrate on yet");
        return text;
    }
    const metrics::BinRange calibrated = metrics::conformalSet(p, conformal->threshold);
    text += setsTr(" · conformal %1: %2, calibrated on %3 measured pair(s), covered %4 of them out of sample")
                .arg(percent, setRangeText(calibrated))
                .arg(conformal->pairs)
                .arg(std::isfinite(conformal->coverage)
                        ? QStringLiteral("%1 %").arg(conformal->coverage * 100.0, 0, 'f', 0)
                        : QStringLiteral("—"));
    return text;
}

} // namespace gpuf
