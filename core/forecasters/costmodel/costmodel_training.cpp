// Leave-one-operation-out training; see costmodel_training.h.
#include "core/forecasters/costmodel/costmodel_training.h"

#include "core/common/thread_priority.h"
#include "core/features/compile_features.h"
#include "core/features/pair_features.h"
#include "core/forecasters/costmodel/costmodel_compile.h"
#include "core/forecasters/costmodel/costmodel_temperature.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QtConcurrent/QtConcurrentMap>

#include <gpuf_config.h>

#include <cmath>

namespace gpuf::costmodel {
namespace {

bool isCancelled(const TrainingOptions &options) { return options.cancel.isCancelled(); }

bins::Distribution toDistribution(const std::vector<float> &p, std::size_t row)
{
    bins::Distribution d;
    for (std::size_t b = 0; b < d.size(); ++b)
        d[b] = p[row * d.size() + b];
    return d;
}

struct Split
{
    std::vector<int> train;
    std::vector<int> test;
};

// Pairs of `trainProblems` and of `testProblem`.
Split split(const TrainingSet &set, const std::vector<RowId> &trainProblems, RowId testProblem)
{
    Split s;
    for (int i = 0; i < set.pairs.size(); ++i) {
        const RowId p = set.pairs[i].problemId;
        if (p == testProblem)
            s.test.push_back(i);
        else if (std::find(trainProblems.begin(), trainProblems.end(), p) != trainProblems.end())
            s.train.push_back(i);
    }
    return s;
}

class Trainer
{
public:
    Trainer(const TrainingSet &set, const TrainingOptions &options)
        : m_set(set)
        , m_options(options)
        , m_features(trainingFeatures(set, options.compiler, options.compileArch, &m_compileFailures))
        , m_names(features::pairColumnNames())
    {
        if (!compileFeatures())
            return;
        m_sourceOnly = m_features;
        for (auto &row : m_sourceOnly)
            features::clearCompileFeatures(row);
    }

    bool compileFeatures() const { return m_options.compiler != nullptr; }
    int compileFailures() const { return m_compileFailures; }

    Result<Booster> fit(std::span<const int> pairs) const
    {
        std::vector<float> labels;
        Matrix data = pairMatrix(m_set, m_features, pairs, &labels);
        if (compileFeatures()) {
            std::vector<float> more;
            const Matrix sourceOnly = pairMatrix(m_set, m_sourceOnly, pairs, &more);
            data.values.insert(data.values.end(), sourceOnly.values.begin(), sourceOnly.values.end());
            labels.insert(labels.end(), more.begin(), more.end());
        }
        auto booster = Booster::train(data, labels, {}, m_names, m_options.parameters, m_options.cancel);
        if (m_options.steps)
            m_options.steps(m_fits.fetch_add(1) + 1, m_totalSteps);
        return booster;
    }

    Result<std::vector<bins::Distribution>> predict(
        const Booster &booster, std::span<const int> pairs, bool sourceOnly = false) const
    {
        const Matrix data = pairMatrix(m_set, sourceOnly ? m_sourceOnly : m_features, pairs);
        auto p = booster.predict(data);
        if (!p)
            return p.failure();
        std::vector<bins::Distribution> out;
        for (std::size_t i = 0; i < pairs.size(); ++i)
            out.push_back(toDistribution(*p, i));
        return out;
    }

    // Raw held-out predictions of each of `problems` from a model trained on the others among them.
    Result<std::vector<std::pair<int, bins::Distribution>>> looo(const std::vector<RowId> &problems) const
    {
        std::vector<std::pair<int, bins::Distribution>> out;
        for (RowId held : problems) {
            if (isCancelled(m_options))
                return Error::cancelled();
            std::vector<RowId> others;
            for (RowId p : problems) {
                if (p != held)
                    others.push_back(p);
            }
            const Split s = split(m_set, others, held);
            if (s.train.empty() || s.test.empty())
                continue;
            auto booster = fit(s.train);
            if (!booster)
                return booster.failure();
            for (bool sourceOnly : {false, true}) {
                if (sourceOnly && !compileFeatures())
                    continue;
                auto p = predict(*booster, s.test, sourceOnly);
                if (!p)
                    return p.failure();
                for (std::size_t i = 0; i < s.test.size(); ++i)
                    out.emplace_back(s.test[i], (*p)[i]);
            }
        }
        return out;
    }

    double temperatureOf(const std::vector<std::pair<int, bins::Distribution>> &predictions) const
    {
        std::vector<bins::Distribution> p;
        std::vector<int> truth;
        for (const auto &[index, d] : predictions) {
            p.push_back(d);
            truth.push_back(m_set.pairs[index].trueBin);
        }
        return fitTemperature(p, truth);
    }

    struct Fold
    {
        FoldSummary summary;
        std::vector<HeldOutPrediction> heldOut;
        std::vector<HeldOutPrediction> heldOutSourceOnly; // with compile features only
        QString error;
    };

    Fold fold(RowId held, const std::vector<RowId> &problems) const
    {
        Fold f;
        f.summary.problemId = held;
        f.summary.operation = m_set.problems.value(held);
        std::vector<RowId> others;
        for (RowId p : problems) {
            if (p != held)
                others.push_back(p);
        }
        // The temperature comes from the training operations only: their own leave-one-out predictions.
        auto inner = looo(others);
        if (!inner) {
            f.error = inner.error();
            return f;
        }
        f.summary.temperature = temperatureOf(*inner);
        const Split s = split(m_set, others, held);
        f.summary.trainPairs = int(s.train.size());
        f.summary.heldOutPairs = int(s.test.size());
        auto booster = fit(s.train);
        if (!booster) {
            f.error = booster.error();
            return f;
        }
        auto p = predict(*booster, s.test);
        if (!p) {
            f.error = p.error();
            return f;
        }
        for (std::size_t i = 0; i < s.test.size(); ++i) {
            const bins::Distribution &raw = (*p)[i];
            f.heldOut.push_back({m_set.pairs[s.test[i]], raw, applyTemperature(raw, f.summary.temperature)});
        }
        f.summary.report = metrics::computeReport(heldOutRows(f.heldOut));
        if (compileFeatures()) {
            auto plain = predict(*booster, s.test, true);
            if (!plain) {
                f.error = plain.error();
                return f;
            }
            for (std::size_t i = 0; i < s.test.size(); ++i) {
                const bins::Distribution &raw = (*plain)[i];
                f.heldOutSourceOnly.push_back(
                    {m_set.pairs[s.test[i]], raw, applyTemperature(raw, f.summary.temperature)});
            }
            f.summary.sourceOnlyReport = metrics::computeReport(heldOutRows(f.heldOutSourceOnly));
        }
        if (m_options.progress) {
            m_options.progress(QStringLiteral("held out %1: %2 pairs, accuracy %3")
                                   .arg(f.summary.operation)
                                   .arg(s.test.size())
                                   .arg(f.summary.report.scalar(metrics::Scalar::Accuracy), 0, 'f', 3));
        }
        return f;
    }

    const QHash<RowId, features::KernelFeatures> &features() const { return m_features; }

    void setTotalSteps(int total) { m_totalSteps = total; }

private:
    const TrainingSet &m_set;
    const TrainingOptions &m_options;
    mutable std::atomic_int m_fits {0};
    int m_totalSteps = 0;
    int m_compileFailures = 0;
    QHash<RowId, features::KernelFeatures> m_features;
    QHash<RowId, features::KernelFeatures> m_sourceOnly; // m_features without compile features
    QStringList m_names;
};

} // namespace

QHash<RowId, features::KernelFeatures> trainingFeatures(
    const TrainingSet &set, CompileFeatureWorker *compiler, const QString &arch, int *failures)
{
    QHash<RowId, features::KernelFeatures> out;
    for (const MeasuredPair &p : set.pairs) {
        for (RowId id : {p.referenceId, p.candidateId}) {
            if (out.contains(id))
                continue;
            const Kernel k = set.kernels.value(id);
            if (!compiler) {
                out.insert(id, features::extractKernelFeatures(k.source, k.language, k.parameters));
                continue;
            }
            QString error;
            out.insert(id, compiler->features(k, arch, &error));
            if (!error.isEmpty() && failures)
                ++*failures;
        }
    }
    return out;
}

Matrix pairMatrix(const TrainingSet &set, const QHash<RowId, features::KernelFeatures> &features,
    std::span<const int> pairIndexes, std::vector<float> *labels)
{
    Matrix m;
    m.columns = features::kPairColumnCount;
    m.values.resize(pairIndexes.size() * std::size_t(m.columns));
    if (labels)
        labels->clear();
    QHash<RowId, features::HardwareRow> hardware;
    static const features::KernelFeatures none;
    for (std::size_t i = 0; i < pairIndexes.size(); ++i) {
        const MeasuredPair &p = set.pairs[pairIndexes[i]];
        auto hw = hardware.constFind(p.hardwareId);
        if (hw == hardware.cend()) {
            const auto found = set.hardware.constFind(p.hardwareId);
            hw = hardware.insert(p.hardwareId,
                features::hardwareRow(found == set.hardware.cend() ? std::nullopt : std::optional(*found)));
        }
        const auto ref = features.constFind(p.referenceId);
        const auto cand = features.constFind(p.candidateId);
        features::fillPairRow(ref == features.cend() ? none : *ref, cand == features.cend() ? none : *cand, *hw,
            std::span<float>(m.values).subspan(i * std::size_t(m.columns), std::size_t(m.columns)));
        if (labels)
            labels->push_back(float(p.trueBin - 1));
    }
    return m;
}

std::vector<metrics::ScoredRow> heldOutRows(const std::vector<HeldOutPrediction> &heldOut)
{
    std::vector<metrics::ScoredRow> rows;
    rows.reserve(heldOut.size());
    for (std::size_t i = 0; i < heldOut.size(); ++i) {
        const HeldOutPrediction &h = heldOut[i];
        metrics::ScoredRow row;
        row.pairId = h.pair.candidateId;
        row.forecastId = qint64(i);
        row.poolKey = h.pair.referenceId;
        row.problemId = h.pair.problemId;
        row.hardwareId = h.pair.hardwareId;
        row.p = h.calibrated;
        row.predictedBin = bins::argmaxBin(h.calibrated);
        row.parsed = true;
        row.trueBin = h.pair.trueBin;
        row.trueSpeedup = h.pair.speedup;
        rows.push_back(row);
    }
    return rows;
}

int trainingSteps(int operations) { return operations * operations + 1; }

Result<TrainingOutcome> trainWithValidation(const TrainingSet &set, const TrainingOptions &options)
{
    QElapsedTimer timer;
    timer.start();
    const QList<RowId> problemList = set.problemIds();
    const std::vector<RowId> problems(problemList.begin(), problemList.end());
    if (problems.size() < 2)
        return Error {QStringLiteral("leave-one-operation-out validation needs measured pairs of at least two "
                                     "operations; the store has %1")
                          .arg(problems.size())};
    if (options.background)
        lowerCurrentThreadPriority();
    Trainer trainer(set, options);
    trainer.setTotalSteps(trainingSteps(int(problems.size())));
    std::vector<Trainer::Fold> folds;
    const auto runFold = [&trainer, &problems, &options](RowId held) {
        if (options.background)
            lowerCurrentThreadPriority();
        return trainer.fold(held, problems);
    };
    if (options.parallel && options.pool)
        folds = QtConcurrent::blockingMapped<std::vector<Trainer::Fold>>(options.pool, problems, runFold);
    else if (options.parallel)
        folds = QtConcurrent::blockingMapped<std::vector<Trainer::Fold>>(problems, runFold);
    else
        std::transform(problems.begin(), problems.end(), std::back_inserter(folds), runFold);
    if (isCancelled(options))
        return Error::cancelled();

    TrainingOutcome outcome;
    outcome.dataHash = set.hash();
    std::vector<bins::Distribution> raw;
    std::vector<int> truth;
    std::vector<HeldOutPrediction> sourceOnly;
    for (Trainer::Fold &f : folds) {
        if (!f.error.isEmpty())
            return Error {QStringLiteral("fold %1: %2").arg(f.summary.operation, f.error)};
        for (const auto *list : {&f.heldOut, &f.heldOutSourceOnly}) {
            for (const HeldOutPrediction &h : *list) {
                raw.push_back(h.raw);
                truth.push_back(h.pair.trueBin);
            }
        }
        outcome.heldOut.insert(outcome.heldOut.end(), f.heldOut.begin(), f.heldOut.end());
        sourceOnly.insert(sourceOnly.end(), f.heldOutSourceOnly.begin(), f.heldOutSourceOnly.end());
        outcome.folds.push_back(std::move(f.summary));
    }
    std::sort(outcome.heldOut.begin(), outcome.heldOut.end(), [&set](const auto &a, const auto &b) {
        return std::tie(a.pair.problemId, a.pair.hardwareId, a.pair.referenceId, a.pair.candidateId)
            < std::tie(b.pair.problemId, b.pair.hardwareId, b.pair.referenceId, b.pair.candidateId);
    });
    outcome.validation = metrics::computeReport(heldOutRows(outcome.heldOut));
    outcome.compileFeatures = trainer.compileFeatures();
    outcome.compileFailures = trainer.compileFailures();
    if (outcome.compileFeatures)
        outcome.validationSourceOnly = metrics::computeReport(heldOutRows(sourceOnly));

    // The final model: every pair, and the temperature that best calibrates all held-out predictions.
    std::vector<int> all(std::size_t(set.pairs.size()));
    std::iota(all.begin(), all.end(), 0);
    auto booster = trainer.fit(all);
    if (!booster)
        return booster.failure();
    if (isCancelled(options))
        return Error::cancelled();
    Manifest manifest;
    manifest.features = features::pairColumnNames();
    manifest.temperature = fitTemperature(raw, truth);
    manifest.parameters = options.parameters;
    manifest.compileFeatures = outcome.compileFeatures;
    manifest.pairPolicy = QLatin1StringView(kPairPolicy);
    manifest.createdAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    manifest.gpufVersion = QStringLiteral(GPUF_VERSION_STRING);
    QJsonArray operations, hardware;
    for (RowId p : problems)
        operations.append(set.problems.value(p));
    QSet<RowId> hardwareIds;
    for (const MeasuredPair &p : set.pairs)
        hardwareIds.insert(p.hardwareId);
    QStringList hardwareNames;
    for (RowId h : std::as_const(hardwareIds))
        hardwareNames.append(set.hardware.value(h).name);
    hardwareNames.sort();
    manifest.trainingData = {{QStringLiteral("sha256"), outcome.dataHash}, {QStringLiteral("pairs"), set.pairs.size()},
        {QStringLiteral("kernels"), trainer.features().size()}, {QStringLiteral("operations"), operations},
        {QStringLiteral("hardware"), QJsonArray::fromStringList(hardwareNames)}};
    if (outcome.compileFeatures) {
        manifest.trainingData.insert(QStringLiteral("compile_arch"), options.compileArch);
        manifest.trainingData.insert(QStringLiteral("compile_failures"), outcome.compileFailures);
    }
    outcome.seconds = double(timer.nsecsElapsed()) / 1e9;
    manifest.validation = validationJson(outcome);
    auto model = CostModel::fromParts(std::move(*booster), std::move(manifest));
    if (!model)
        return model.failure();
    outcome.model = *model;
    return outcome;
}

QJsonObject reportSummary(const metrics::MetricsReport &report)
{
    QJsonObject out {{QStringLiteral("n"), report.nTotal}};
    for (int s = 0; s < metrics::kScalarCount; ++s) {
        const double v = report.scalars[std::size_t(s)];
        out.insert(metrics::scalarName(metrics::Scalar(s)), std::isfinite(v) ? QJsonValue(v) : QJsonValue());
    }
    return out;
}

QJsonObject validationJson(const TrainingOutcome &outcome)
{
    QJsonObject perOperation;
    for (const FoldSummary &f : outcome.folds) {
        QJsonObject o = reportSummary(f.report);
        o.insert(QStringLiteral("train_pairs"), f.trainPairs);
        o.insert(QStringLiteral("temperature"), f.temperature);
        if (outcome.compileFeatures)
            o.insert(QStringLiteral("source_only"), reportSummary(f.sourceOnlyReport));
        perOperation.insert(f.operation, o);
    }
    QJsonObject out {{QStringLiteral("method"), QStringLiteral("leave-one-operation-out")},
        {QStringLiteral("calibration"),
            QStringLiteral("per fold, a temperature fitted on the inner leave-one-operation-out predictions of the "
                           "training operations only; the final model's temperature is fitted on all held-out "
                           "predictions")},
        {QStringLiteral("pooled"), reportSummary(outcome.validation)}, {QStringLiteral("per_operation"), perOperation}};
    if (outcome.compileFeatures)
        out.insert(QStringLiteral("pooled_source_only"), reportSummary(outcome.validationSourceOnly));
    return out;
}

} // namespace gpuf::costmodel
