// Storing the leave-one-operation-out predictions of a training run as forecasts of the forecaster
// "costmodel-heldout", so the calibration views show the cost model's honest out-of-sample figures (the built-in
// model, trained on every operation, would be scored on its own training pairs).
#pragma once

#include "core/common/result.h"
#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/forecasters/costmodel/costmodel_training.h"

namespace gpuf {
class Store;
}

namespace gpuf::costmodel {

// One forecast per held-out prediction, in one transaction; returns how many were written. The forecaster row is
// ensured by name; a later run adds newer forecasts of the same pairs, which replace these in every metric (the
// newest answer of a pair counts).
Result<int> storeHeldOutForecasts(Store &store, const TrainingOutcome &outcome,
    const QString &forecasterName = QLatin1StringView(kHeldOutForecasterName));

} // namespace gpuf::costmodel
