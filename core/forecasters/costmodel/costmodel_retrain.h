// Retraining the cost model from a store, as the application runs it off the GUI thread ("Retrain Cost Model from
// This Store…"): the training of `gpuf train` (leave-one-operation-out validation, then a final model on every pair)
// on a read-only connection of its own, refused up front when the store holds too few measured pairs, and the final
// model written where the caller says and read back before it is reported.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/forecasters/costmodel/costmodel_training.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

class QThreadPool;

#include <functional>
#include <vector>

namespace gpuf::costmodel {

// Below these the leave-one-operation-out figures say nothing (a fold needs an operation to learn from and one to
// predict), so the store is refused with retrainRefusal()'s message instead.
inline constexpr int kMinRetrainPairs = 12;
inline constexpr int kMinRetrainOperations = 2;

// Empty when `set` is enough to retrain on; otherwise why not, for people (the counts and what to do).
QString retrainRefusal(const TrainingSet &set);

struct RetrainProgress
{
    QString text; // one line for people
    int done = 0; // steps finished: one per held-out operation, then the final model
    int total = 0; // 0 until the training set is read
};

struct RetrainOptions
{
    BoosterParameters parameters;
    // Folds in parallel on `pool` (the global pool when null) while the calling thread, never one of that pool's,
    // waits; without `parallel` the calling thread fits every booster itself.
    bool parallel = true;
    QThreadPool *pool = nullptr;
    bool background = false; // training threads lower their CPU priority (a GUI shares the machine)
    // Which measured pairs to learn from, by name: these operations (problems) and GPUs; empty: all.
    QStringList operations;
    QStringList hardware;
    // Also learn from compile features (gpuf-measure compiles every CUDA kernel for the architecture of the GPU with
    // the most pairs); fails up front when no gpuf-measure can be started.
    bool compileFeatures = false;
    // The cost-model forecaster the model is stored under in the store (a forecaster of its own, next to the
    // built-in `costmodel`); none when empty. A name the store already uses is refused before training.
    QString forecasterName;
    CancelToken cancel;
    std::function<void(const RetrainProgress &)> progress; // called from worker threads too; keep it thread-safe
};

struct RetrainOutcome
{
    QString storePath;
    QString modelPath;
    QString manifestPath;
    QString identity; // the saved model's identity (part of every forecast's cache key)
    int pairs = 0;
    int kernels = 0;
    std::vector<FoldSummary> folds; // one per held-out operation, ascending problem id
    metrics::MetricsReport validation; // pooled over every held-out prediction
    double temperature = 1.0;
    double seconds = 0.0;
    QString dataHash;
    QStringList operations; // those trained on
    QStringList hardware;
    bool compileFeatures = false;
    QString forecasterName; // the forecaster that forecasts with the model; empty when none was asked for
    RowId forecasterId = 0;
};

// The pairs of `set` of the named operations and GPUs (empty lists: all), with the kernels, problems and hardware they
// name.
TrainingSet restrictTrainingSet(const TrainingSet &set, const QStringList &operations, const QStringList &hardware);

// Reads the measured pairs of the store at `storePath` (those options.operations and options.hardware name), refuses
// too few (retrainRefusal), trains, saves the model and its manifest at `modelPath` (its folder created), loads them
// back and, with options.forecasterName, adds the forecaster that forecasts with it to the store. Fails with
// Error::cancelled() once `cancel` is cancelled.
Result<RetrainOutcome> retrainFromStore(
    const QString &storePath, const QString &modelPath, const RetrainOptions &options = {});

} // namespace gpuf::costmodel

Q_DECLARE_METATYPE(gpuf::costmodel::RetrainProgress)
Q_DECLARE_METATYPE(gpuf::costmodel::RetrainOutcome)
