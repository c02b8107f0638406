// The kernels of a batch of forecast pairs whose launch features are unknown (no launch spec, or one that does not
// evaluate), so that `gpuf forecast` can say which forecasts of the cost model rest on them.
#pragma once

#include "core/common/result.h"
#include "core/features/feature_gaps.h"
#include "core/forecasters/forecast_types.h"

#include <QJsonObject>

namespace gpuf {
class Store;
}

namespace gpuf::forecasters {

struct GapReport
{
    qsizetype pairs = 0; // pairs with at least one such kernel
    QList<features::KernelGaps> kernels; // each once, by id

    bool isEmpty() const { return kernels.isEmpty(); }
    // "warning: …" lines for the command line: the count, then one line per kernel (the first `limit`).
    QStringList lines(int limit = 10) const;
    QJsonObject toJson() const;
};

Result<GapReport> forecastGaps(Store &store, const QList<ForecastPair> &pairs);

} // namespace gpuf::forecasters
