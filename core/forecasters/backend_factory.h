// makeBackend: the ForecastBackend that runs a stored Forecaster, chosen by its kind.
#pragma once

#include "core/common/result.h"
#include "core/forecasters/backend.h"

#include <memory>

namespace gpuf {

struct BackendOptions
{
    bool retryParseFailure = false; // search mode: one more request after a parse failure
    QString costModelPath; // the cost model's model file (gpuf train --out); empty: the built-in model

    bool operator==(const BackendOptions &) const = default;
};

// Llm: an LlmBackend over the forecaster's endpoint configuration. CostModel: the built-in model. Import: refused
// (imported forecasts are read from files, never run).
Result<std::unique_ptr<ForecastBackend>> makeBackend(
    const Forecaster &forecaster, const BackendOptions &options = {}, QObject *parent = nullptr);

} // namespace gpuf
