// retrainFromStore and retrainRefusal; see costmodel_retrain.h.
#include "core/forecasters/costmodel_retrain.h"

#include "core/forecasters/costmodel_model.h"
#include "core/store/store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace gpuf::costmodel {
namespace {

QString tr(const char *text, int n = -1) { return QCoreApplication::translate("gpuf::costmodel", text, nullptr, n); }

bool isCancelled(const std::atomic_bool *cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

} // namespace

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
    report(tr("Reading the measured pairs of %1…").arg(QFileInfo(storePath).fileName()), 0, 0);
    // A connection of its own: the caller's belongs to another thread. The session checked the file already.
    auto store = Store::open(storePath, Store::Mode::ReadOnly, Store::Check::Header);
    if (!store)
        return Error {store.error()};
    auto set = loadTrainingSet(**store, options.cancel);
    if (!set)
        return Error {set.error()};
    store->reset(); // training takes a while; the file need not stay open for it
    if (const QString refusal = retrainRefusal(*set); !refusal.isEmpty())
        return Error {refusal};
    if (isCancelled(options.cancel))
        return Error {QStringLiteral("cancelled")};

    const int operations = int(set->problemIds().size());
    const int total = operations + 1; // each held-out operation, then the final model
    report(tr("%1 measured pairs of %2 kernels in %3 operations: training with leave-one-operation-out validation…")
               .arg(set->pairs.size())
               .arg(set->kernels.size())
               .arg(operations),
        0, total);
    std::atomic_int foldsDone {0};
    TrainingOptions training;
    training.parameters = options.parameters;
    training.parallel = options.parallel;
    training.cancel = options.cancel;
    if (options.progress) {
        training.progress
            = [&report, &foldsDone, total](const QString &line) { report(line, foldsDone.fetch_add(1) + 1, total); };
    }
    auto outcome = trainWithValidation(*set, training);
    if (!outcome)
        return Error {outcome.error()};
    if (isCancelled(options.cancel))
        return Error {QStringLiteral("cancelled")};

    report(tr("Saving the model…"), total - 1, total);
    if (const QString folder = QFileInfo(modelPath).absolutePath(); !QDir().mkpath(folder))
        return Error {tr("cannot create the folder %1").arg(folder)};
    if (Status saved = outcome->model->save(modelPath); !saved)
        return Error {saved.error()};
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
    out.pairs = int(set->pairs.size());
    out.kernels = (*saved)->manifest().trainingData.value(QStringLiteral("kernels")).toInt();
    out.folds = std::move(outcome->folds);
    out.validation = std::move(outcome->validation);
    out.temperature = (*saved)->manifest().temperature;
    out.seconds = outcome->seconds;
    out.dataHash = outcome->dataHash;
    report(tr("Done: the model is saved."), total, total);
    return out;
}

} // namespace gpuf::costmodel
