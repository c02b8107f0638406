// The built-in cost model as a ForecastBackend: answers inside start() (a forecast takes microseconds), works with
// no network and no GPU, and always registers as the forecaster "costmodel".
#pragma once

#include "core/forecasters/backend.h"
#include "core/forecasters/costmodel/costmodel_forecaster.h"

#include <memory>

namespace gpuf {

class Store;

// A forecaster for `model`; for a model trained with compile features it also starts gpuf-measure to compile
// kernels with (and forecasts from source features alone when there is none).
std::shared_ptr<const costmodel::CostModelForecaster> makeCostModelForecaster(
    std::shared_ptr<const costmodel::CostModel> model, const QString &modelSource);

class CostModelBackend : public ForecastBackend
{
    Q_OBJECT

public:
    CostModelBackend(std::shared_ptr<const costmodel::CostModelForecaster> forecaster, RowId forecasterId,
        QObject *parent = nullptr);

    // The model at `modelPath`, or the built-in one when empty; the forecaster row is ensured in `store` (by name,
    // "costmodel" unless given).
    static Result<std::unique_ptr<CostModelBackend>> create(Store &store, const QString &modelPath = {},
        const QString &forecasterName = QLatin1StringView(costmodel::kForecasterName));

    QString cacheKey(const ForecastRequest &request) const override;
    int concurrency() const override { return 1; } // synchronous: one at a time is as fast as it gets
    void start(const ForecastRequest &request) override;
    void cancel(quint64 requestId) override;

    const costmodel::CostModelForecaster &forecaster() const { return *m_forecaster; }
    RowId forecasterId() const { return m_forecasterId; }

private:
    std::shared_ptr<const costmodel::CostModelForecaster> m_forecaster;
    RowId m_forecasterId = 0;
    QJsonObject m_configuration;
    QString m_version;
};

// The forecaster row named `name` ("costmodel" by default), created on first use with the configuration of the model
// at `modelPath` (the built-in one when empty): what makes `gpuf forecast --forecaster costmodel` work on a new store.
Result<Forecaster> ensureCostModelForecaster(
    Store &store, const QString &modelPath = {}, const QString &name = QLatin1StringView(costmodel::kForecasterName));

} // namespace gpuf
