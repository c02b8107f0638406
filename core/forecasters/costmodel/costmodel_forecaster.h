// CostModelForecaster: the built-in forecaster's work without any Qt object — kernel features (cached by content),
// the pair row, the calibrated distribution and, optionally, its explanation — as one synchronous, thread-safe call.
// The ForecastBackend (costmodel_backend.h) and the benchmark both drive it.
#pragma once

#include "core/domain/forecast.h"
#include "core/domain/hardware.h"
#include "core/domain/kernel.h"
#include "core/features/feature_cache.h"
#include "core/forecasters/costmodel/costmodel_compile.h"
#include "core/forecasters/costmodel/costmodel_model.h"

#include <QJsonObject>
#include <QMutex>
#include <QSet>

#include <memory>
#include <optional>

namespace gpuf::costmodel {

// The forecaster row every store gets on first use of the built-in model.
inline constexpr char kForecasterName[] = "costmodel";
// The forecaster row `gpuf train --write-heldout` stores the honest out-of-sample predictions under.
inline constexpr char kHeldOutForecasterName[] = "costmodel-heldout";

class CostModelForecaster
{
public:
    // `modelSource` says where the model came from ("built-in" or a path), for the forecaster's configuration.
    CostModelForecaster(std::shared_ptr<const CostModel> model, QString modelSource,
        std::shared_ptr<features::FeatureCache> cache = std::make_shared<features::FeatureCache>());

    // For a model trained with compile features: compile each kernel once, on first use, for the forecast's GPU
    // (else the architecture the model was trained for). Set before the forecaster is shared; the worker is then used
    // from the thread that forecasts.
    void setCompiler(std::shared_ptr<CompileFeatureWorker> compiler);
    bool usesCompileFeatures() const { return m_compiler && m_model->manifest().compileFeatures; }

    const CostModel &model() const { return *m_model; }
    features::FeatureCache &cache() const { return *m_cache; }

    // Stored in Forecaster::config and part of every cache key: which model answers.
    QJsonObject configuration() const;
    // The Forecaster row to ensure in a store (name "costmodel", kind costmodel).
    Forecaster forecasterRow(const QString &name = QLatin1StringView(kForecasterName)) const;

    // The calibrated distribution of one pair (features cached): the fast path.
    Status probabilities(const Kernel &reference, const Kernel &candidate, const std::optional<Hardware> &hardware,
        bins::Distribution &out) const;

    // A complete Forecast: probabilities, predicted bin (the most probable), reasoning and the explanation JSON in
    // response, latency; ids and cache key as given. Errors become a Forecast with status error.
    Forecast forecast(const Kernel &reference, const Kernel &candidate, const std::optional<Hardware> &hardware,
        const Forecast &identity, bool explain = true) const;

private:
    // The kernel's cached features, with compile features added on first use when the model wants them.
    features::FeatureCache::Entry featuresOf(const Kernel &kernel, const std::optional<Hardware> &hardware) const;

    std::shared_ptr<const CostModel> m_model;
    std::shared_ptr<CompileFeatureWorker> m_compiler;
    mutable QMutex m_compileLock;
    mutable QSet<QString> m_compiled; // feature-cache keys already sent to the compiler (failures included)
    QString m_modelSource;
    std::shared_ptr<features::FeatureCache> m_cache;
};

} // namespace gpuf::costmodel
