// trainingScopeOf and inSampleRows; see training_scope.h.
#include "core/forecasters/training_scope.h"

#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/forecasters/costmodel/costmodel_manifest.h"
#include "core/forecasters/costmodel/costmodel_model.h"
#include "core/store/scored_pairs.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace gpuf {
namespace {

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    const QJsonArray array = value.toArray();
    for (const QJsonValue v : array)
        out.append(v.toString());
    return out;
}

QString nameOf(const QList<NamedRow> &rows, qint64 id)
{
    for (const NamedRow &r : rows) {
        if (r.id == id)
            return r.name;
    }
    return {};
}

} // namespace

bool TrainingScope::covers(const QString &problem, const QString &hardwareName) const
{
    // A forecast shown no GPU is matched on its operation alone.
    return operations.contains(problem)
        && (hardware.isEmpty() || hardwareName.isEmpty() || hardware.contains(hardwareName));
}

std::optional<TrainingScope> trainingScopeOf(const Forecaster &forecaster)
{
    if (forecaster.kind != ForecasterKind::CostModel
        || forecaster.name == QLatin1StringView(costmodel::kHeldOutForecasterName))
        return std::nullopt;
    const QString source = forecaster.config.value(QLatin1StringView("model_source")).toString();
    // Only the manifest is read: it is small, and the scope is all that is needed here.
    const QString manifestPath = source.isEmpty() || source == QLatin1StringView("built-in")
        ? costmodel::manifestPathFor(QLatin1StringView(costmodel::kBuiltInModelPath))
        : costmodel::manifestPathFor(source);
    QFile file(manifestPath);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject training
        = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1StringView("training_data")).toObject();
    TrainingScope scope;
    scope.operations = strings(training.value(QLatin1StringView("operations")));
    scope.hardware = strings(training.value(QLatin1StringView("hardware")));
    if (scope.operations.isEmpty())
        return std::nullopt;
    return scope;
}

QHash<qint64, qint64> inSampleRows(
    const ScoredPairs &pairs, std::span<const metrics::ScoredRow> rows, const QList<Forecaster> &forecasters)
{
    QHash<qint64, TrainingScope> scopes;
    for (const Forecaster &f : forecasters) {
        if (auto scope = trainingScopeOf(f))
            scopes.insert(f.id, *scope);
    }
    QHash<qint64, qint64> out;
    if (scopes.isEmpty())
        return out;
    QHash<qint64, QString> problemNames, hardwareNames; // looked up once per id
    for (const metrics::ScoredRow &row : rows) {
        const auto scope = scopes.constFind(row.forecasterId);
        if (scope == scopes.cend())
            continue;
        auto problem = problemNames.constFind(row.problemId);
        if (problem == problemNames.cend())
            problem = problemNames.insert(row.problemId, nameOf(pairs.problems, row.problemId));
        auto hardware = hardwareNames.constFind(row.hardwareId);
        if (hardware == hardwareNames.cend())
            hardware = hardwareNames.insert(row.hardwareId, nameOf(pairs.hardware, row.hardwareId));
        if (scope->covers(*problem, *hardware))
            ++out[row.forecasterId];
    }
    return out;
}

} // namespace gpuf
