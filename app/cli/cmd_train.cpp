// gpuf train STORE --out MODEL: trains the cost model on a store's measured pairs with leave-one-operation-out
// validation, prints the validation metrics (core/metrics, as `gpuf metrics`), then writes the model trained on
// everything and its manifest.
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "app/cli/progress.h"
#include "core/forecasters/costmodel/costmodel_compile.h"
#include "core/forecasters/costmodel/costmodel_heldout.h"
#include "core/forecasters/costmodel/costmodel_training.h"
#include "core/metrics/from_store.h"
#include "core/store/store.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QSaveFile>

#include <cmath>

namespace gpuf::cli {
namespace {

const QString kRounds = QStringLiteral("rounds");
const QString kWriteHeldOut = QStringLiteral("write-heldout");
const QString kFeaturesCsv = QStringLiteral("features-csv");
const QString kCompileFeatures = QStringLiteral("compile-features");

QList<Option> trainOptions()
{
    const costmodel::BoosterParameters defaults;
    return {
        Option::text(kOut, QStringLiteral("MODEL"),
            QStringLiteral("Where to write the model (XGBoost JSON); its manifest goes next to it."))
            .mandatory(),
        Option::uint64(kSeed, QStringLiteral("N"), QStringLiteral("Seed of the boosting's row and column sampling."))
            .byDefault(QString::number(defaults.seed))
            .refusedAs(QStringLiteral("needs a non-negative integer")),
        Option::integer(kRounds, QStringLiteral("N"), QStringLiteral("Boosting rounds."))
            .byDefault(QString::number(defaults.rounds))
            .atLeast(1)
            .refusedAs(QStringLiteral("needs a positive integer")),
        Option::flag(kWriteHeldOut,
            QStringLiteral("Also store the held-out predictions as forecasts of the forecaster 'costmodel-heldout'.")),
        Option::flag(kQuiet, QStringLiteral("No progress lines on stderr.")),
        Option::flag(kCompileFeatures,
            QStringLiteral(
                "Also learn from compile features (registers, spills, PTX instruction mix), compiling every CUDA "
                "kernel with gpuf-measure (no GPU needed). The model still forecasts without them.")),
        Option::text(kArch, QStringLiteral("sm_XY"),
            QStringLiteral("Architecture for --compile-features (default: that of the GPU with the most pairs).")),
        Option::text(kFeaturesCsv, QStringLiteral("FILE"),
            QStringLiteral(
                "Also write the features of every kernel in the store (one row per kernel) to this CSV file.")),
    };
}

const metrics::Scalar kShown[] = {metrics::Scalar::Accuracy, metrics::Scalar::WithinOne, metrics::Scalar::Ece,
    metrics::Scalar::BrierHalf, metrics::Scalar::Nll, metrics::Scalar::UtilityAt10Pct};

QString row(const QString &name, qint64 n, const metrics::MetricsReport &report)
{
    QString line = name.leftJustified(22) + QString::number(n).rightJustified(7);
    for (metrics::Scalar s : kShown)
        line += u' '
            + metrics::formatValue(report.scalar(s))
                  .rightJustified(std::max<int>(11, int(metrics::scalarName(s).size())));
    return line;
}

void printOutcome(QTextStream &out, const costmodel::TrainingSet &set, const costmodel::TrainingOutcome &outcome)
{
    const costmodel::Manifest &m = outcome.model->manifest();
    out << "training data: " << set.pairs.size() << " measured pairs of "
        << m.trainingData.value(QStringLiteral("kernels")).toInt() << " kernels, " << outcome.folds.size()
        << " operations, sha256 " << outcome.dataHash.left(16) << "…\n";
    out << "leave-one-operation-out validation (each operation predicted by a model that never saw it; temperature "
           "fitted on the training operations only)\n\n";
    QString header = QStringLiteral("operation").leftJustified(22) + QStringLiteral("pairs").rightJustified(7);
    for (const metrics::Figure &f : metrics::tableFigures()) {
        if (f.kind == metrics::Figure::Kind::Scalar
            && std::find(std::begin(kShown), std::end(kShown), f.scalar) != std::end(kShown))
            header += u' ' + f.key.rightJustified(11);
    }
    out << header << '\n';
    for (const costmodel::FoldSummary &f : outcome.folds)
        out << row(f.operation, f.heldOutPairs, f.report) << '\n';
    out << row(QStringLiteral("pooled"), outcome.validation.nTotal, outcome.validation) << '\n';
    if (outcome.compileFeatures) {
        out << row(
            QStringLiteral("pooled, source only"), outcome.validationSourceOnly.nTotal, outcome.validationSourceOnly)
            << "   (the same pairs forecast without compile features)\n";
        out << "compile features for " << m.trainingData.value(QStringLiteral("compile_arch")).toString() << ": "
            << outcome.compileFailures << " kernel(s) failed to compile (their compile features are missing)\n";
    }
    out << "\nBrier is the ½·Σ form (0..1); utility_at_10pct is the app-side ranking utility (pools: pairs with the "
           "same reference kernel)\n";
    out << "final model: every pair, temperature " << QString::number(m.temperature, 'f', 3)
        << " (fitted on all held-out predictions), " << m.parameters.rounds << " rounds of depth "
        << m.parameters.maxDepth << "; " << QString::number(outcome.seconds, 'f', 1) << " s\n";
}

// The architecture of the GPU most pairs were measured on.
QString dominantArch(const costmodel::TrainingSet &set)
{
    QHash<RowId, int> count;
    for (const costmodel::MeasuredPair &p : set.pairs)
        ++count[p.hardwareId];
    RowId best = 0;
    for (auto it = count.cbegin(); it != count.cend(); ++it) {
        if (best == 0 || it.value() > count.value(best) || (it.value() == count.value(best) && it.key() < best))
            best = it.key();
    }
    return costmodel::archOf(set.hardware.value(best));
}

// The features the model sees, for every kernel of the store (measured or not): for reading, plotting and checking
// the extraction.
Status writeFeaturesCsv(
    const QString &path, const costmodel::TrainingSet &set, const costmodel::TrainingOptions &options)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return Error {QStringLiteral("%1: %2").arg(path, file.errorString())};
    QTextStream out(&file);
    out << "kernel_id,operation,name";
    for (int f = 0; f < features::kKernelFeatureCount; ++f)
        out << ',' << features::kernelFeatureKey(features::KernelFeature(f));
    out << '\n';
    const auto quoted
        = [](QString text) -> QString { return u'"' + text.replace(u'"', QStringLiteral("\"\"")) + u'"'; };
    QList<RowId> ids = set.kernels.keys();
    std::sort(ids.begin(), ids.end());
    for (RowId id : std::as_const(ids)) {
        const Kernel k = set.kernels.value(id);
        const features::KernelFeatures f = options.compiler
            ? options.compiler->features(k, options.compileArch)
            : features::extractKernelFeatures(k.source, k.language, k.parameters);
        out << id << ',' << quoted(set.problems.value(k.problemId)) << ',' << quoted(k.name);
        for (float v : f.values)
            out << ',' << (std::isnan(v) ? QString() : QString::number(v));
        out << '\n';
    }
    out.flush();
    if (!file.commit())
        return Error {QStringLiteral("%1: %2").arg(path, file.errorString())};
    return {};
}

// --compile-features: the worker that compiles every kernel, and the architecture to compile for.
int useCompileFeatures(Invocation &run, const costmodel::TrainingSet &set, costmodel::TrainingOptions &options,
    std::unique_ptr<costmodel::CompileFeatureWorker> &compiler)
{
    auto started = costmodel::CompileFeatureWorker::start();
    if (!started)
        return run.bad(QStringLiteral("--compile-features: ") + started.error());
    compiler = std::move(*started);
    options.compiler = compiler.get();
    options.compileArch = run.isSet(kArch) ? run.value(kArch) : dominantArch(set);
    if (options.compileArch.isEmpty())
        return run.usage(QStringLiteral("no GPU of the pairs names its architecture; give --arch"));
    return Success;
}

void printTrained(Invocation &run, const costmodel::TrainingSet &set, const costmodel::TrainingOutcome &outcome,
    std::optional<int> heldOutWritten)
{
    const QString out = run.value(kOut);
    const costmodel::Manifest &m = outcome.model->manifest();
    if (run.json()) {
        QJsonObject result {{QStringLiteral("model"), out},
            {QStringLiteral("manifest"), costmodel::manifestPathFor(out)},
            {QStringLiteral("training_data"), m.trainingData}, {QStringLiteral("validation"), m.validation},
            {QStringLiteral("temperature"), m.temperature}, {QStringLiteral("hyper_parameters"), m.parameters.toJson()},
            {QStringLiteral("seconds"), outcome.seconds}};
        if (heldOutWritten)
            result.insert(QStringLiteral("heldout_forecasts"), *heldOutWritten);
        run.printJson(result);
        return;
    }
    printOutcome(run.out(), set, outcome);
    run.out() << "wrote " << out << " and " << costmodel::manifestPathFor(out) << '\n';
    if (heldOutWritten)
        run.out() << "stored " << *heldOutWritten << " held-out forecasts as '" << costmodel::kHeldOutForecasterName
                  << "'\n";
}

int runTrain(Invocation &run)
{
    if (run.args().size() != 1)
        return run.usage(QStringLiteral("give exactly one STORE"));
    auto given = run.checkOptions();
    if (!given)
        return run.usage(given.error());
    costmodel::TrainingOptions options;
    options.parameters.seed = given->uint64(kSeed);
    options.parameters.rounds = given->integer(kRounds);
    Progress progress(run.err(), run.json() || run.isSet(kQuiet));
    if (!progress.isQuiet())
        options.progress = [&progress](const QString &line) { progress.line(QStringLiteral("  ") + line); };

    const bool writeHeldOut = run.isSet(kWriteHeldOut);
    auto store = writeHeldOut ? run.existingStore(run.args().first()) : run.readStore(run.args().first());
    if (!store)
        return run.bad(store.error());
    auto set = costmodel::loadTrainingSet(**store);
    if (!set)
        return run.bad(set.error());
    std::unique_ptr<costmodel::CompileFeatureWorker> compiler;
    if (run.isSet(kCompileFeatures)) {
        if (const int code = useCompileFeatures(run, *set, options, compiler); code != Success)
            return code;
    }
    if (const QString csv = run.value(kFeaturesCsv); !csv.isEmpty()) {
        if (Status s = writeFeaturesCsv(csv, *set, options); !s)
            return run.bad(s.error());
    }
    auto outcome = costmodel::trainWithValidation(*set, options);
    if (!outcome)
        return run.bad(outcome.error());
    const QString out = run.value(kOut);
    if (const QString dir = QFileInfo(out).absolutePath(); !QDir().mkpath(dir))
        return run.bad(QStringLiteral("cannot create %1").arg(dir));
    if (Status s = outcome->model->save(out); !s)
        return run.bad(s.error());
    std::optional<int> written;
    if (writeHeldOut) {
        auto n = costmodel::storeHeldOutForecasts(**store, *outcome);
        if (!n)
            return run.bad(QStringLiteral("storing held-out forecasts: ") + n.error());
        written = *n;
    }
    printTrained(run, *set, *outcome, written);
    return Success;
}

} // namespace

Command trainCommand()
{
    Command c;
    c.name = QStringLiteral("train");
    c.summary = QStringLiteral("Train the cost model on a store's measured pairs (leave-one-operation-out "
                               "validation, then a final model on everything).");
    c.usage = QStringLiteral("STORE --out MODEL");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("a store with measured kernels")}};
    c.options = trainOptions();
    c.invoke = runTrain;
    return c;
}

} // namespace gpuf::cli
