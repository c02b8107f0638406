// retrainFromStore and retrainRefusal; see costmodel_retrain.h.
#include "core/forecasters/costmodel/costmodel_retrain.h"

#include "core/common/thread_priority.h"
#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/forecasters/costmodel/costmodel_compile.h"
#include "core/forecasters/costmodel/costmodel_model.h"
#include "core/store/forecast_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace gpuf::costmodel {
namespace {

QString tr(const char *text, int n = -1) { return QCoreApplication::translate("gpuf::costmodel", text, nullptr, n); }

// The architecture of the GPU most pairs were measured on (ties: the lower id).
QString dominantArch(const TrainingSet &set)
{
    QHash<RowId, int> count;
    for (const MeasuredPair &p : set.pairs)
        ++count[p.hardwareId];
    RowId best = 0;
    for (auto it = count.cbegin(); it != count.cend(); ++it) {
        if (best == 0 || it.value() > count.value(best) || (it.value() == count.value(best) && it.key() < best))
            best = it.key();
    }
    return archOf(set.hardware.value(best));
}

// Fails when the store already has a forecaster of that name: a retrained model never takes another's place.
Status checkForecasterName(Store &store, const QString &name)
{
    if (name.isEmpty())
        return {};
    if (name == QLatin1StringView(kForecasterName) || name == QLatin1StringView(kHeldOutForecasterName))
        return Error {tr("the name \"%1\" belongs to the built-in cost model; choose another").arg(name)};
    auto existing = ForecasterRepo(store).findByName(name);
    if (!existing)
        return existing.failure();
    if (existing->has_value())
        return Error {tr("the store already has a forecaster named \"%1\"; choose another name").arg(name)};
    return {};
}

// Adds the forecaster that forecasts with the saved model (its configuration names the file).
Result<RowId> addForecaster(const QString &storePath, const QString &modelPath, const QString &name)
{
    auto store = Store::open(storePath, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store)
        return store.failure();
    if (Status nameFree = checkForecasterName(**store, name); !nameFree)
        return nameFree.failure();
    auto row = ensureCostModelForecaster(**store, modelPath, name);
    if (!row)
        return row.failure();
    return row->id;
}

} // namespace

TrainingSet restrictTrainingSet(const TrainingSet &set, const QStringList &operations, const QStringList &hardware)
{
    if (operations.isEmpty() && hardware.isEmpty())
        return set;
    TrainingSet out;
    for (const MeasuredPair &p : set.pairs) {
        if (!operations.isEmpty() && !operations.contains(set.problems.value(p.problemId)))
            continue;
        if (!hardware.isEmpty() && !hardware.contains(set.hardware.value(p.hardwareId).name))
            continue;
        out.pairs.append(p);
        out.problems.insert(p.problemId, set.problems.value(p.problemId));
        out.hardware.insert(p.hardwareId, set.hardware.value(p.hardwareId));
        for (RowId k : {p.referenceId, p.candidateId})
            out.kernels.insert(k, set.kernels.value(k));
    }
    return out;
}

QString retrainRefusal(const TrainingSet &set)
{
    const int pairs = int(set.pairs.size());
    const int operations = int(set.problemIds().size());
    if (pairs >= kMinRetrainPairs && operations >= kMinRetrainOperations)
        return {};
    return tr("This store has %n measured pair(s)", pairs) + tr(" in %n operation(s)", operations)
        + tr("; retraining needs at least %1 pairs in at least %2 operations, since each operation is held out in "
             "turn and predicted by a model trained on the others. A pair is two kernels of one problem measured ok "
             "on the same GPU: measure more kernels, or open a store with more measurements.")
              .arg(kMinRetrainPairs)
              .arg(kMinRetrainOperations);
}

Result<RetrainOutcome> retrainFromStore(
    const QString &storePath, const QString &modelPath, const RetrainOptions &options)
{
    const auto report = [&options](const QString &text, int done, int total) {
        if (options.progress)
            options.progress({text, done, total});
    };
    if (options.background)
        lowerCurrentThreadPriority(); // the reading and the final model run on this thread
    report(tr("Reading the measured pairs of %1…").arg(QFileInfo(storePath).fileName()), 0, 0);
    // A connection of its own: the caller's belongs to another thread. The session checked the file already.
    auto store = Store::open(storePath, Store::Mode::ReadOnly, Store::Check::Header);
    if (!store)
        return store.failure();
    if (Status nameFree = checkForecasterName(**store, options.forecasterName); !nameFree)
        return nameFree.failure();
    auto loaded = loadTrainingSet(**store, options.cancel);
    if (!loaded)
        return loaded.failure();
    store->reset(); // training takes a while; the file need not stay open for it
    const TrainingSet set = restrictTrainingSet(*loaded, options.operations, options.hardware);
    if (const QString refusal = retrainRefusal(set); !refusal.isEmpty())
        return Error {refusal};
    if (options.cancel.isCancelled())
        return Error::cancelled();

    const int operations = int(set.problemIds().size());
    const int total = trainingSteps(operations) + 1; // every booster fitted, then saving
    report(tr("%1 measured pairs of %2 kernels in %3 operations: training with leave-one-operation-out validation…")
               .arg(set.pairs.size())
               .arg(set.kernels.size())
               .arg(operations),
        0, total);
    TrainingOptions training;
    training.parameters = options.parameters;
    training.parallel = options.parallel;
    training.pool = options.pool;
    training.background = options.background;
    training.cancel = options.cancel;
    std::unique_ptr<CompileFeatureWorker> compiler;
    if (options.compileFeatures) {
        auto started = CompileFeatureWorker::start();
        if (!started)
            return Error {tr("compile features need gpuf-measure: %1").arg(started.error())};
        compiler = std::move(*started);
        training.compiler = compiler.get();
        training.compileArch = dominantArch(set);
        if (training.compileArch.isEmpty())
            return Error {tr("compile features: no GPU of the pairs names its architecture")};
    }
    // A line per held-out operation, and the bar moved by every booster fitted (a fold fits one per operation).
    std::atomic_int lastDone {0};
    if (options.progress) {
        training.progress = [&report, &lastDone, total](const QString &line) { report(line, lastDone.load(), total); };
        training.steps = [&report, &lastDone, total](int done, int) {
            lastDone.store(std::min(done, total - 1));
            report({}, std::min(done, total - 1), total);
        };
    }
    auto outcome = trainWithValidation(set, training);
    if (!outcome)
        return outcome.failure();
    if (options.cancel.isCancelled())
        return Error::cancelled();

    report(tr("Saving the model…"), total - 1, total);
    if (const QString folder = QFileInfo(modelPath).absolutePath(); !QDir().mkpath(folder))
        return Error {tr("cannot create the folder %1").arg(folder)};
    if (Status saved = outcome->model->save(modelPath); !saved)
        return saved.failure();
    // Read back what the forecaster will load, so a file that cannot be used is reported here and not at the first
    // forecast.
    auto saved = CostModel::load(modelPath);
    if (!saved)
        return Error {tr("the saved model cannot be read back: %1").arg(saved.error())};

    RetrainOutcome out;
    out.storePath = storePath;
    out.modelPath = modelPath;
    out.manifestPath = manifestPathFor(modelPath);
    out.identity = (*saved)->identity();
    out.pairs = int(set.pairs.size());
    out.kernels = (*saved)->manifest().trainingData.value(QStringLiteral("kernels")).toInt();
    out.folds = std::move(outcome->folds);
    out.validation = std::move(outcome->validation);
    out.temperature = (*saved)->manifest().temperature;
    out.seconds = outcome->seconds;
    out.dataHash = outcome->dataHash;
    out.compileFeatures = outcome->compileFeatures;
    const QList<RowId> problemIds = set.problemIds();
    for (RowId p : problemIds)
        out.operations.append(set.problems.value(p));
    for (const Hardware &h : set.hardware)
        out.hardware.append(h.name);
    out.hardware.sort();
    if (!options.forecasterName.isEmpty()) {
        auto id = addForecaster(storePath, modelPath, options.forecasterName);
        if (!id)
            return Error {
                tr("the model is saved at %1, but its forecaster could not be added: %2").arg(modelPath, id.error())};
        out.forecasterName = options.forecasterName;
        out.forecasterId = *id;
    }
    report(tr("Done: the model is saved."), total, total);
    return out;
}

} // namespace gpuf::costmodel
