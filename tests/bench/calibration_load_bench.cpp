// calibration_load_bench: a store with 100 000 forecasts (5 forecasters × 20 000 measured candidates) → the time to
// load the scored pairs (loadScoredPairs) and to compute every forecaster's report on all pairs and on the same
// pairs (computeStoreMetrics), as the calibration views do on each reload. Prints `<name> <value> ms` lines.
#include "core/metrics/from_store.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/scored_pairs.h"
#include "core/store/store.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <random>

using namespace gpuf;

namespace {

[[noreturn]] void die(const QString &message)
{
    std::fprintf(stderr, "calibration_load_bench: %s\n", qPrintable(message));
    std::exit(1);
}

template<typename T>
T check(Result<T> r)
{
    if (!r)
        die(r.error());
    return std::move(*r);
}

void report(const char *name, double ms)
{
    std::printf("%s %.1f ms\n", name, ms);
    std::fflush(stdout);
}

void measure(Store &store, RowId kernel, RowId hardware, const QString &caseName, double ns)
{
    Measurement m;
    m.kernelId = kernel;
    m.hardwareId = hardware;
    m.caseName = caseName;
    m.runtime = RuntimeStats {ns, ns, ns, 0.0, 0.001, 10};
    check(MeasurementRepo(store).insert(m));
}

// Candidates with log-normal speedups over the reference, each measured on two cases; forecasters that see the
// true bin through noise, with a parse failure now and then.
void fill(Store &store, int candidates, int forecasters)
{
    std::mt19937_64 random(20260531);
    std::normal_distribution<double> logSpeedup(0.0, 0.8), noise(0.0, 1.0);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    if (!store.database().transaction())
        die(QStringLiteral("no transaction"));
    Hardware hardware;
    hardware.name = QStringLiteral("bench GPU");
    const RowId h = check(HardwareRepo(store).ensure(hardware));
    Problem problem;
    problem.name = QStringLiteral("bench");
    const RowId p = check(ProblemRepo(store).insert(problem));
    const auto kernel = [&](int i) {
        Kernel k;
        k.problemId = p;
        k.source = QStringLiteral("__global__ void k%1() {}\n").arg(i);
        k.language = QStringLiteral("cuda");
        k.origin = QStringLiteral("manual");
        return check(KernelRepo(store).insertOrGet(k));
    };
    const RowId reference = kernel(-1);
    if (const Status set = ProblemRepo(store).setReferenceKernel(p, reference); !set)
        die(set.error());
    measure(store, reference, h, QStringLiteral("small"), 1000.0);
    measure(store, reference, h, QStringLiteral("large"), 8000.0);
    std::vector<RowId> ids;
    std::vector<int> bins;
    for (int i = 0; i < candidates; ++i) {
        const RowId id = kernel(i);
        const double s = std::exp(logSpeedup(random));
        measure(store, id, h, QStringLiteral("small"), 1000.0 / s);
        measure(store, id, h, QStringLiteral("large"), 8000.0 / s);
        ids.push_back(id);
        bins.push_back(bins::binOf(s).value_or(4));
    }
    for (int f = 0; f < forecasters; ++f) {
        Forecaster forecaster;
        forecaster.name = QStringLiteral("model-%1").arg(f);
        forecaster.kind = ForecasterKind::Import;
        const RowId fid = check(ForecasterRepo(store).ensure(forecaster));
        for (std::size_t i = 0; i < ids.size(); ++i) {
            Forecast fc;
            fc.forecasterId = fid;
            fc.referenceKernelId = reference;
            fc.candidateKernelId = ids[i];
            fc.hardwareId = h;
            if (unit(random) < 0.03) {
                fc.status = ForecastStatus::ParseFailed;
            } else {
                const int guess = std::clamp(int(std::lround(bins[i] + noise(random) * (0.5 + f * 0.3))), 1, 8);
                for (int b = 1; b <= 8; ++b)
                    fc.probabilities[b - 1] = std::exp(-std::abs(b - guess) * 1.2);
                fc.probabilities = bins::renormalised(fc.probabilities).value();
                fc.predictedBin = guess;
            }
            check(ForecastRepo(store).insert(fc));
        }
    }
    if (!store.database().commit())
        die(QStringLiteral("commit failed"));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int forecasters = 5;
    const int candidates = (argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 100000) / forecasters;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.gpuf"));
    {
        auto store = check(Store::open(path));
        fill(*store, candidates, forecasters);
    }
    auto store = check(Store::open(path, Store::Mode::ReadOnly, Store::Check::Header));
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer timer;
        timer.start();
        const ScoredPairs pairs = check(loadScoredPairs(*store));
        const double loadMs = timer.nsecsElapsed() / 1e6;
        const metrics::StoreMetrics metrics = metrics::computeStoreMetrics(pairs);
        const double totalMs = timer.nsecsElapsed() / 1e6;
        if (pairs.pairs.size() != qsizetype(candidates) * forecasters || metrics.reports.size() != forecasters)
            die(QStringLiteral("unexpected row count %1").arg(pairs.pairs.size()));
        if (run == 2) { // the first runs warm SQLite's page cache
            report("calibration_pairs_load_100k_ms", loadMs);
            report("calibration_reports_100k_ms", totalMs - loadMs);
            report("calibration_load_100k_ms", totalMs);
        }
    }
    QElapsedTimer timer;
    timer.start();
    const ScoredPairs pairs = check(loadScoredPairs(*store));
    metrics::MetricsOptions options;
    options.bootstrapResamples = 200;
    const metrics::StoreMetrics metrics = metrics::computeStoreMetrics(pairs, options);
    if (!metrics.reports.front().report.hasIntervals)
        die(QStringLiteral("no intervals"));
    report("calibration_load_100k_bootstrap200_ms", timer.nsecsElapsed() / 1e6);
    return 0;
}
