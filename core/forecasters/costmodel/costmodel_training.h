// Training the cost model with leave-one-operation-out (LOOO) validation. For each operation: a model trained on the
// others, with a temperature fitted on *their* inner LOOO predictions (never on the held-out operation), forecasts
// the held-out operation's pairs; those honest predictions give the reported metrics (core/metrics, the same code as
// `gpuf metrics`). The final model is trained on every operation, and its temperature fitted on all the held-out
// predictions.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/features/kernel_features.h"
#include "core/forecasters/costmodel/costmodel_dataset.h"
#include "core/forecasters/costmodel/costmodel_model.h"
#include "core/metrics/report.h"

#include <QJsonObject>

class QThreadPool;

#include <functional>
#include <memory>
#include <vector>

namespace gpuf::costmodel {

class CompileFeatureWorker;

struct TrainingOptions
{
    BoosterParameters parameters;
    // With a worker, every CUDA kernel is compiled for `compileArch` and its compile features join its source
    // features; each pair then trains twice, with and without them, so the model also serves forecasts made where
    // no toolkit is installed. The worker is used from the calling thread only.
    CompileFeatureWorker *compiler = nullptr;
    QString compileArch;
    // Folds run in parallel (each booster on one thread); results do not depend on it. On `pool` when given, else on
    // the global thread pool, while the calling thread waits: it must not be one of that pool's threads.
    bool parallel = true;
    QThreadPool *pool = nullptr;
    // Background work beside a GUI: every thread that trains lowers its CPU priority first (thread_priority.h).
    bool background = false;
    CancelToken cancel; // checked between boosting rounds
    std::function<void(const QString &)> progress; // a line per held-out operation; from worker threads
    // After every booster fitted: fits done so far and the fits of the whole training (ops² + 1); from worker threads.
    std::function<void(int done, int total)> steps;
};

struct HeldOutPrediction
{
    MeasuredPair pair;
    bins::Distribution raw {}; // the fold model's probabilities
    bins::Distribution calibrated {}; // with the fold's temperature
};

struct FoldSummary
{
    RowId problemId = 0;
    QString operation;
    int trainPairs = 0;
    int heldOutPairs = 0;
    double temperature = 1.0;
    metrics::MetricsReport report;
    metrics::MetricsReport sourceOnlyReport; // with compile features: the same pairs forecast without them
};

struct TrainingOutcome
{
    std::vector<HeldOutPrediction> heldOut; // in the training set's pair order
    std::vector<FoldSummary> folds; // by ascending problem id
    metrics::MetricsReport validation; // pooled over every held-out prediction
    // With compile features: the same held-out pairs forecast without them (what a machine without the toolkit gets).
    metrics::MetricsReport validationSourceOnly;
    bool compileFeatures = false;
    int compileFailures = 0; // kernels whose compile failed (their compile features stay missing)
    std::shared_ptr<const CostModel> model; // trained on everything
    double seconds = 0.0;
    QString dataHash;
};

// Kernel features of every kernel the pairs name: source and launch spec, and with a compiler its compile features
// for `arch` (`failures` counts the kernels whose compile failed).
QHash<RowId, features::KernelFeatures> trainingFeatures(const TrainingSet &set,
    CompileFeatureWorker *compiler = nullptr, const QString &arch = {}, int *failures = nullptr);

// Pair rows (features::kPairColumnCount wide) and class labels (bin − 1) of some of the set's pairs.
Matrix pairMatrix(const TrainingSet &set, const QHash<RowId, features::KernelFeatures> &features,
    std::span<const int> pairIndexes, std::vector<float> *labels = nullptr);

// How many boosters trainWithValidation fits for `operations` operations: per held-out operation, one per inner fold
// and one to predict it, then the final model.
int trainingSteps(int operations);

// At least two operations with measured pairs are needed (one to hold out, one to learn from).
Result<TrainingOutcome> trainWithValidation(const TrainingSet &set, const TrainingOptions &options = {});

// Held-out predictions as metrics rows: pool = reference kernel, pairId = candidate kernel (as `gpuf metrics`).
std::vector<metrics::ScoredRow> heldOutRows(const std::vector<HeldOutPrediction> &heldOut);

// {"n", every scalar by its metrics name}; NaN becomes null.
QJsonObject reportSummary(const metrics::MetricsReport &report);
// The manifest's "validation" object: method, pooled summary and one summary per operation.
QJsonObject validationJson(const TrainingOutcome &outcome);

} // namespace gpuf::costmodel
