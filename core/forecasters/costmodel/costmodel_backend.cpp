// CostModelBackend; see costmodel_backend.h.
#include "core/forecasters/costmodel/costmodel_backend.h"

#include "core/store/forecast_repo.h"

namespace gpuf {

std::shared_ptr<const costmodel::CostModelForecaster> makeCostModelForecaster(
    std::shared_ptr<const costmodel::CostModel> model, const QString &modelSource)
{
    const bool wantsCompile = model->manifest().compileFeatures;
    auto forecaster = std::make_shared<costmodel::CostModelForecaster>(std::move(model), modelSource);
    if (wantsCompile) {
        if (auto worker = costmodel::CompileFeatureWorker::start())
            forecaster->setCompiler(std::shared_ptr<costmodel::CompileFeatureWorker>(std::move(*worker)));
    }
    return forecaster;
}

CostModelBackend::CostModelBackend(
    std::shared_ptr<const costmodel::CostModelForecaster> forecaster, RowId forecasterId, QObject *parent)
    : ForecastBackend(parent)
    , m_forecaster(std::move(forecaster))
    , m_forecasterId(forecasterId)
    , m_configuration(m_forecaster->configuration())
    , m_version(QStringLiteral("costmodel:") + m_forecaster->model().identity())
{ }

Result<std::unique_ptr<CostModelBackend>> CostModelBackend::create(
    Store &store, const QString &modelPath, const QString &forecasterName)
{
    auto model = modelPath.isEmpty() ? costmodel::CostModel::builtIn() : costmodel::CostModel::load(modelPath);
    if (!model)
        return Error {QStringLiteral("cost model: %1").arg(model.error())};
    auto forecaster = makeCostModelForecaster(*model, modelPath.isEmpty() ? QStringLiteral("built-in") : modelPath);
    Forecaster row = forecaster->forecasterRow(forecasterName);
    auto id = ForecasterRepo(store).ensure(row);
    if (!id)
        return id.failure();
    return std::make_unique<CostModelBackend>(forecaster, *id);
}

Result<Forecaster> ensureCostModelForecaster(Store &store, const QString &modelPath, const QString &name)
{
    ForecasterRepo repo(store);
    auto existing = repo.findByName(name);
    if (!existing)
        return existing.failure();
    if (existing->has_value()) {
        if ((*existing)->kind != ForecasterKind::CostModel)
            return Error {QStringLiteral("the store's forecaster '%1' is not a cost model").arg(name)};
        return **existing;
    }
    auto model = modelPath.isEmpty() ? costmodel::CostModel::builtIn() : costmodel::CostModel::load(modelPath);
    if (!model)
        return Error {QStringLiteral("cost model: %1").arg(model.error())};
    const auto runner = makeCostModelForecaster(*model, modelPath.isEmpty() ? QStringLiteral("built-in") : modelPath);
    Forecaster row = runner->forecasterRow(name);
    auto id = repo.ensure(row);
    if (!id)
        return id.failure();
    row.id = *id;
    return row;
}

QString CostModelBackend::cacheKey(const ForecastRequest &request) const
{
    return forecastCacheKey(m_configuration, m_version, request);
}

void CostModelBackend::start(const ForecastRequest &request)
{
    const Forecast identity = forecastFor(request, m_forecasterId, cacheKey(request));
    const Forecast f = m_forecaster->forecast(request.reference, request.candidate, request.hardware, identity);
    Q_EMIT finished(request.id, f);
}

void CostModelBackend::cancel(quint64 requestId)
{
    Q_UNUSED(requestId); // every request is answered inside start(): nothing is ever pending
}

} // namespace gpuf
