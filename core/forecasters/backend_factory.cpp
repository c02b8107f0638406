// makeBackend; see backend_factory.h. One case per forecaster kind, each in a function of its own.
#include "core/forecasters/backend_factory.h"

#include "core/forecasters/llm_backend.h"

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
    const Forecaster &forecaster, const BackendOptions &, QObject *)
{
    return Error {QStringLiteral("forecaster '%1': the cost model forecaster is not available in this build")
                      .arg(forecaster.name)};
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
    }
    return Error {QStringLiteral("forecaster '%1' holds imported forecasts; it cannot be run").arg(forecaster.name)};
}

} // namespace gpuf
