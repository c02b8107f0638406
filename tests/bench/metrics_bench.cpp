// Benchmark for core/metrics: prints metrics_all_100k_ms and metrics_bootstrap200_100k_ms (DESIGN §10:
// all calibration metrics over 100 000 forecasts in < 50 ms).
#include "core/metrics/report.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using namespace gpuf;

// Seeded forecasts that look like a real evaluation: 7 forecasters × 3 repeats over shared pairs, pools of
// about 50 candidates, 5% parse failures, probabilities peaked around a noisy guess of the truth.
std::vector<metrics::ScoredRow> syntheticRows(std::size_t n)
{
    std::mt19937_64 engine(12345);
    std::normal_distribution<double> noise(0.0, 1.2);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<metrics::ScoredRow> rows(n);
    for (std::size_t i = 0; i < n; ++i) {
        metrics::ScoredRow &row = rows[i];
        const std::size_t pair = i / 21;
        row.pairId = qint64(pair);
        row.forecastId = qint64(i);
        row.forecasterId = qint64(i % 7);
        row.repeat = int((i / 7) % 3);
        row.poolKey = qint64(pair / 50);
        row.problemId = row.poolKey % 40;
        const double speedup = std::exp2(std::sin(double(pair) * 12.9898) * 3.0);
        row.trueSpeedup = speedup;
        row.trueBin = *bins::binOf(speedup);
        if (unit(engine) < 0.05)
            continue;
        const double guess = row.trueBin + noise(engine);
        const double width = 0.6 + unit(engine) * 1.5;
        double sum = 0.0;
        for (int b = 1; b <= bins::kBinCount; ++b) {
            const double z = (b - guess) / width;
            row.p[b - 1] = std::round(std::exp(-0.5 * z * z) * 100.0) / 100.0 + 1e-3;
            sum += row.p[b - 1];
        }
        for (double &v : row.p)
            v /= sum;
        row.parsed = true;
        row.predictedBin = bins::argmaxBin(row.p);
    }
    return rows;
}

double bestOfMs(
    int runs, const std::vector<metrics::ScoredRow> &rows, const metrics::MetricsOptions &options, double &checksum)
{
    double best = 1e300;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer timer;
        timer.start();
        const metrics::MetricsReport report = metrics::computeReport(rows, options);
        best = std::min(best, double(timer.nsecsElapsed()) / 1e6);
        checksum += report.scalar(metrics::Scalar::Ece) + report.interval(metrics::Scalar::Accuracy).low;
    }
    return best;
}

} // namespace

int main()
{
    const std::vector<metrics::ScoredRow> rows = syntheticRows(100000);
    double checksum = 0.0;
    metrics::MetricsOptions plain;
    const double allMs = bestOfMs(5, rows, plain, checksum);
    metrics::MetricsOptions bootstrap;
    bootstrap.bootstrapResamples = 200;
    const double bootstrapMs = bestOfMs(2, rows, bootstrap, checksum);
    std::printf("metrics_all_100k_ms %.1f\n", allMs);
    std::printf("metrics_bootstrap200_100k_ms %.1f\n", bootstrapMs);
    // Keeps the work observable so nothing is optimised away.
    std::fprintf(stderr, "checksum %.6f\n", checksum);
    return 0;
}
