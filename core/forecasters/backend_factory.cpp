// makeBackend; see backend_factory.h. One case per forecaster kind, each in a function of its own.
#include "core/forecasters/backend_factory.h"

#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/forecasters/llm_backend.h"
#include "core/forecasters/roofline_prior.h"

namespace gpuf {
namespace {

Result<std::unique_ptr<ForecastBackend>> makeLlmBackend(
    const Forecaster &forecaster, const BackendOptions &options, QObject *parent)
{
    auto settings = forecasters::llmSettings(forecaster.config, forecaster.name);
    if (!settings)
        return Error {QStringLiteral("forecaster '%1': %2").arg(forecaster.name, settings.error())};
    return std::unique_ptr<ForecastBackend>(std::make_unique<forecasters::LlmBackend>(
        forecaster.id, std::move(*settings), forecasters::LlmBackend::Options {options.retryParseFailure}, parent));
}

// --- the cost model -----------------------------------------------------------------------------------------------
Result<std::unique_ptr<ForecastBackend>> makeCostModelBackend(
    const Forecaster &forecaster, const BackendOptions &options, QObject *parent)
{
    // An explicit model (gpuf forecast --model) wins; otherwise a cost-model forecaster other than the built-in
    // `costmodel` (a retrained model's) forecasts with the model file its configuration names.
    if (isRooflineForecaster(forecaster))
        return std::unique_ptr<ForecastBackend>(
            std::make_unique<RooflineBackend>(forecaster.id, rooflineSettingsOf(forecaster), parent));
    QString path = options.costModelPath;
    const QString source = forecaster.config.value(QLatin1StringView("model_source")).toString();
    if (path.isEmpty() && forecaster.name != QLatin1StringView(costmodel::kForecasterName) && !source.isEmpty()
        && source != QLatin1StringView("built-in"))
        path = source;
    auto model = path.isEmpty() ? costmodel::CostModel::builtIn() : costmodel::CostModel::load(path);
    if (!model)
        return Error {QStringLiteral("forecaster '%1': %2").arg(forecaster.name, model.error())};
    auto runner = makeCostModelForecaster(*model, path.isEmpty() ? QStringLiteral("built-in") : path);
    return std::unique_ptr<ForecastBackend>(
        std::make_unique<CostModelBackend>(std::move(runner), forecaster.id, parent));
}
// ------------------------------------------------------------------------------------------------------------------

} // namespace

Result<std::unique_ptr<ForecastBackend>> makeBackend(
    const Forecaster &forecaster, const BackendOptions &options, QObject *parent)
{
    switch (forecaster.kind) {
    case ForecasterKind::Llm:
        return makeLlmBackend(forecaster, options, parent);
    case ForecasterKind::CostModel:
        return makeCostModelBackend(forecaster, options, parent);
    case ForecasterKind::Import:
        break;
    case ForecasterKind::Human:
        return Error {
            QStringLiteral("forecaster '%1' is a student profile; its forecasts are a person's answers and it "
                           "cannot be run")
                .arg(forecaster.name)};
    }
    return Error {QStringLiteral("forecaster '%1' holds imported forecasts; it cannot be run").arg(forecaster.name)};
}

} // namespace gpuf
