// Benchmark for the built-in cost model (DESIGN §10: ≥ 10 000 forecasts/s on one core with features cached).
// Prints: feature extraction per kernel (the measured corpus), forecasts per second with cached features — the
// probabilities alone (what ranking a pool needs), batched, and complete forecasts with their SHAP explanation — and
// training time (leave-one-operation-out on one core, and one fit) on the measured corpus in resources/.
#include "core/features/pair_features.h"
#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/forecasters/costmodel/costmodel_training.h"
#include "core/interop/corpus.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <gpuf_config.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>
#include <numeric>

using namespace gpuf;

namespace {

double seconds(const QElapsedTimer &t) { return double(t.nsecsElapsed()) / 1e9; }

struct Pair
{
    const Kernel *reference;
    const Kernel *candidate;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    auto store = Store::open(dir.filePath(QStringLiteral("corpus.gpuf")));
    if (!store) {
        std::fprintf(stderr, "%s\n", qPrintable(store.error()));
        return 1;
    }
    const QString root = QStringLiteral(GPUF_SOURCE_DIR);
    const QStringList results
        = QDir(root + QStringLiteral("/resources/measurements")).entryList({QStringLiteral("corpus-*.jsonl")});
    for (const QString &file : results) {
        auto imported = interop::importCorpus(**store, root + QStringLiteral("/resources/corpus"),
            root + QStringLiteral("/resources/measurements/") + file);
        if (!imported) {
            std::fprintf(stderr, "%s\n", qPrintable(imported.error()));
            return 1;
        }
    }
    auto kernels = KernelRepo(**store).list();
    auto set = costmodel::loadTrainingSet(**store);
    auto model = costmodel::CostModel::builtIn();
    if (!kernels || !set || !model) {
        std::fprintf(stderr, "setup failed\n");
        return 1;
    }

    // Feature extraction, every kernel of the corpus, best of 3 passes.
    double extractBest = 1e300;
    double checksum = 0.0;
    for (int pass = 0; pass < 3; ++pass) {
        QElapsedTimer t;
        t.start();
        for (const Kernel &k : std::as_const(*kernels))
            checksum += features::extractKernelFeatures(k.source, k.language, k.parameters).values[0];
        extractBest = std::min(extractBest, seconds(t));
    }
    std::printf("costmodel_feature_extraction_us_per_kernel %.1f\n", extractBest * 1e6 / double(kernels->size()));

    // Every ordered pair of kernels of one problem: the shape of a ranking request.
    std::vector<Pair> pairs;
    for (const Kernel &a : std::as_const(*kernels)) {
        for (const Kernel &b : std::as_const(*kernels)) {
            if (a.problemId == b.problemId && a.id != b.id)
                pairs.push_back({&a, &b});
        }
    }
    Hardware h200 = hardwarePreset(QStringLiteral("H200")).value_or(Hardware {});
    const std::optional<Hardware> hardware = h200;
    costmodel::CostModelForecaster forecaster(*model, QStringLiteral("built-in"));
    bins::Distribution p;
    for (const Pair &pair : pairs) // warm the feature cache
        (void)forecaster.probabilities(*pair.reference, *pair.candidate, hardware, p);

    const int rounds = 20;
    QElapsedTimer t;
    t.start();
    for (int r = 0; r < rounds; ++r) {
        for (const Pair &pair : pairs) {
            if (!forecaster.probabilities(*pair.reference, *pair.candidate, hardware, p))
                return 1;
            checksum += p[3];
        }
    }
    std::printf("costmodel_forecasts_per_s_one_core %.0f\n", double(rounds) * double(pairs.size()) / seconds(t));

    // Batched: the rows of every pair built and predicted in one call.
    std::vector<float> rows(pairs.size() * std::size_t(features::kPairColumnCount));
    const features::HardwareRow hw = features::hardwareRow(hardware);
    t.restart();
    for (int r = 0; r < rounds; ++r) {
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            features::fillPairRow(*forecaster.cache().features(*pairs[i].reference),
                *forecaster.cache().features(*pairs[i].candidate), hw,
                std::span<float>(rows).subspan(
                    i * std::size_t(features::kPairColumnCount), std::size_t(features::kPairColumnCount)));
        }
        auto many = forecaster.model().predictMany(rows);
        if (!many)
            return 1;
        checksum += (*many)[0][3];
    }
    std::printf(
        "costmodel_batched_forecasts_per_s_one_core %.0f\n", double(rounds) * double(pairs.size()) / seconds(t));

    // Complete forecasts: distribution, SHAP explanation, reasoning text and response JSON.
    const std::size_t explained = std::min<std::size_t>(pairs.size(), 2000);
    t.restart();
    for (std::size_t i = 0; i < explained; ++i) {
        const Forecast f = forecaster.forecast(*pairs[i].reference, *pairs[i].candidate, hardware, Forecast {});
        checksum += f.reasoning.size();
    }
    std::printf("costmodel_explained_forecasts_per_s_one_core %.0f\n", double(explained) / seconds(t));

    // Training on the measured corpus: leave-one-operation-out with nested calibration on one core, then one fit.
    costmodel::TrainingOptions options;
    options.parallel = false;
    t.restart();
    auto outcome = costmodel::trainWithValidation(*set, options);
    if (!outcome)
        return 1;
    std::printf("costmodel_training_looo_s_one_core %.2f\n", seconds(t));
    std::printf("costmodel_training_pairs %lld\n", qint64(set->pairs.size()));
    const auto all = costmodel::trainingFeatures(*set);
    std::vector<int> every(std::size_t(set->pairs.size()));
    std::iota(every.begin(), every.end(), 0);
    std::vector<float> labels;
    const costmodel::Matrix data = costmodel::pairMatrix(*set, all, every, &labels);
    t.restart();
    auto booster = costmodel::Booster::train(data, labels, {}, features::pairColumnNames(), options.parameters);
    if (!booster)
        return 1;
    std::printf("costmodel_training_one_fit_s %.2f\n", seconds(t));
    std::fprintf(stderr, "checksum %.6f (%zu pairs, %lld kernels)\n", checksum, pairs.size(), qint64(kernels->size()));
    return 0;
}
