// CostModelForecaster; see costmodel_forecaster.h.
#include "core/forecasters/costmodel/costmodel_forecaster.h"

#include "core/features/compile_features.h"
#include "core/features/pair_features.h"
#include "core/forecasters/costmodel/costmodel_explain.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>

namespace gpuf::costmodel {

CostModelForecaster::CostModelForecaster(
    std::shared_ptr<const CostModel> model, QString modelSource, std::shared_ptr<features::FeatureCache> cache)
    : m_model(std::move(model))
    , m_modelSource(std::move(modelSource))
    , m_cache(std::move(cache))
{ }

void CostModelForecaster::setCompiler(std::shared_ptr<CompileFeatureWorker> compiler)
{
    m_compiler = std::move(compiler);
}

QJsonObject CostModelForecaster::configuration() const
{
    const Manifest &m = m_model->manifest();
    return {{QStringLiteral("model"), m_model->identity()}, {QStringLiteral("model_source"), m_modelSource},
        {QStringLiteral("temperature"), m.temperature},
        {QStringLiteral("training_data"), m.trainingData.value(QStringLiteral("sha256"))},
        {QStringLiteral("compile_features"), usesCompileFeatures()}};
}

features::FeatureCache::Entry CostModelForecaster::featuresOf(
    const Kernel &kernel, const std::optional<Hardware> &hardware) const
{
    features::FeatureCache::Entry entry = m_cache->features(kernel);
    if (!usesCompileFeatures() || features::hasCompileFeatures(*entry))
        return entry;
    const QString key = features::FeatureCache::keyOf(kernel);
    QMutexLocker lock(&m_compileLock);
    if (m_compiled.contains(key))
        return entry; // compiled before and failed: stay with the source features
    m_compiled.insert(key);
    QString arch = hardware ? archOf(*hardware) : QString();
    if (arch.isEmpty())
        arch = m_model->manifest().trainingData.value(QStringLiteral("compile_arch")).toString();
    auto compiled = m_compiler->compile(kernel, arch);
    if (!compiled)
        return entry;
    features::KernelFeatures f = *entry;
    features::applyCompileResult(f, *compiled);
    m_cache->insert(kernel, f);
    return m_cache->features(kernel);
}

Forecaster CostModelForecaster::forecasterRow(const QString &name) const
{
    Forecaster f;
    f.name = name;
    f.kind = ForecasterKind::CostModel;
    if (name == QLatin1StringView(kHeldOutForecasterName))
        f.displayName = QStringLiteral("Cost model (held-out operations)");
    else if (name == QLatin1StringView(kForecasterName))
        f.displayName = QStringLiteral("Built-in cost model");
    else
        f.displayName = name; // a retrained model's forecaster: its own name, never the built-in one's
    f.config = configuration();
    return f;
}

Status CostModelForecaster::probabilities(const Kernel &reference, const Kernel &candidate,
    const std::optional<Hardware> &hardware, bins::Distribution &out) const
{
    const features::FeatureCache::Entry ref = featuresOf(reference, hardware);
    const features::FeatureCache::Entry cand = featuresOf(candidate, hardware);
    std::array<float, features::kPairColumnCount> row;
    features::fillPairRow(*ref, *cand, features::hardwareRow(hardware), row);
    return m_model->predict(row, out);
}

Forecast CostModelForecaster::forecast(const Kernel &reference, const Kernel &candidate,
    const std::optional<Hardware> &hardware, const Forecast &identity, bool explain) const
{
    QElapsedTimer timer;
    timer.start();
    Forecast f = identity;
    f.createdAt = QDateTime::currentDateTimeUtc();
    const features::FeatureCache::Entry ref = featuresOf(reference, hardware);
    const features::FeatureCache::Entry cand = featuresOf(candidate, hardware);
    const features::HardwareRow hw = features::hardwareRow(hardware);
    std::array<float, features::kPairColumnCount> row;
    features::fillPairRow(*ref, *cand, hw, row);
    bins::Distribution p;
    if (Status s = m_model->predict(row, p); !s) {
        f.status = ForecastStatus::Error;
        f.errorText = s.error();
        f.latencySeconds = double(timer.nsecsElapsed()) / 1e9;
        return f;
    }
    f.probabilities = p;
    f.predictedBin = bins::argmaxBin(p);
    f.rawProbabilitySum = 1.0;
    f.status = ForecastStatus::Ok;
    if (explain) {
        auto e = explainForecast(*m_model, *ref, *cand, hw, row, p, *f.predictedBin);
        if (e) {
            f.reasoning = e->summary;
            f.response = QString::fromUtf8(QJsonDocument(e->toJson()).toJson(QJsonDocument::Compact));
        } else {
            // The distribution stands; only the explanation is missing, and the reasoning says why.
            f.reasoning = QStringLiteral("(no explanation: %1)").arg(e.error());
        }
    }
    f.latencySeconds = double(timer.nsecsElapsed()) / 1e9;
    return f;
}

} // namespace gpuf::costmodel
