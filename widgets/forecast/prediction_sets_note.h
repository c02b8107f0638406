// The Forecast dock's prediction sets (issue 28): the shortest run of adjacent bins holding 90 % of the forecast
// ("bins 4–6 with 90 %"), and the conformal set calibrated on the forecaster's measured pairs with the coverage it
// reached out of sample (core/metrics/prediction_sets.h).
#pragma once

#include "core/bins/bins.h"
#include "core/domain/problem.h"

#include <QHash>
#include <QString>

#include <optional>

namespace gpuf {

struct CalibrationSnapshot;

// A forecaster's split-conformal calibration at one coverage level.
struct ConformalCalibration
{
    double level = 0.9; // nominal coverage 1 − α
    double threshold = 0.0; // calibrated on every measured pair of the forecaster
    double coverage = 0.0; // out of sample (cross-fitted), NaN without pairs
    qint64 pairs = 0;
};

// Per forecaster id: its calibration at `level` from the snapshot's metrics on all its pairs (forecasters without
// parsed scored pairs are left out).
QHash<RowId, ConformalCalibration> conformalCalibrations(const CalibrationSnapshot &snapshot, double level = 0.9);

// "bins 4–6 (1.00×–2.83×) hold 90 % of this forecast · conformal 90 %: bins 3–6 (…), calibrated on 120 measured
// pairs, covered 88 % of them out of sample", or the first part with why there is no conformal set.
QString predictionSetsText(const bins::Distribution &p, const std::optional<ConformalCalibration> &conformal);

} // namespace gpuf
