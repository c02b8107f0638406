// The physics prior (core/forecasters/roofline_prior.h) against figures computed by hand from the H100 SXM
// datasheet (3350 GB/s, 67 TFLOPS FP32, 989.5 TFLOPS FP16 tensor; 132 SMs × 2048 threads): the floor ratio of a
// memory-bound pair, a launch too small to keep the memory busy, a compute-bound pair in another precision, a pair
// without stated work, the log-normal over the bins, and the forecaster registered and run through makeBackend.
#include "core/forecasters/backend_factory.h"
#include "core/forecasters/forecaster_reads.h"
#include "core/forecasters/roofline_prior.h"
#include "core/store/forecast_repo.h"
#include "core/store/store.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

constexpr double kN = 16777216.0; // the case's n

Kernel kernel(const QString &bytes, const QString &flops, const QJsonValue &grid, const QString &dtype = u"f32"_s)
{
    Kernel k;
    k.language = u"cuda"_s;
    k.source
        = u"extern \"C\" __global__ void k(const float* x, float* y, int n) { y[threadIdx.x] = x[threadIdx.x]; }"_s;
    const QJsonObject spec {{u"bytes_moved"_s, bytes}, {u"flops"_s, flops},
        {u"buffers"_s,
            QJsonArray {
                QJsonObject {{u"name"_s, u"x"_s}, {u"dtype"_s, dtype}, {u"count"_s, u"n"_s}, {u"role"_s, u"input"_s}},
                QJsonObject {
                    {u"name"_s, u"y"_s}, {u"dtype"_s, dtype}, {u"count"_s, u"n"_s}, {u"role"_s, u"output"_s}}}},
        {u"cases"_s, QJsonArray {QJsonObject {{u"name"_s, u"16M"_s}, {u"vars"_s, QJsonObject {{u"n"_s, kN}}}}}},
        {u"launches"_s,
            QJsonArray {QJsonObject {
                {u"entry"_s, u"k"_s}, {u"grid"_s, QJsonArray {grid, 1, 1}}, {u"block"_s, QJsonArray {256, 1, 1}}}}}};
    k.parameters = {{u"spec"_s, spec}};
    return k;
}

std::optional<Hardware> h100() { return hardwarePreset(u"NVIDIA H100 80GB HBM3"_s); }

bool near(double a, double b, double relative = 1e-9) { return std::abs(a - b) <= relative * std::abs(b); }

} // namespace

class TestRooflinePrior : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void memoryBoundFloorRatio()
    {
        QVERIFY(h100());
        const Kernel reference = kernel(u"12*n"_s, u"2*n"_s, u"n/256"_s);
        const Kernel candidate = kernel(u"20*n"_s, u"2*n"_s, u"n/256"_s); // an unfused second pass: 20 bytes/element
        const RooflineEstimate e = rooflineEstimate(reference, candidate, h100());
        QCOMPARE(e.cases, QStringList {u"16M"_s});
        // 12 n bytes ÷ 3350 GB/s = 60 097 ns; the 2 n FLOPs take 0.5 µs at 67 TFLOPS: memory-bound.
        QVERIFY2(near(*e.referenceFloorNs, 12.0 * kN / 3350.0), qPrintable(QString::number(*e.referenceFloorNs)));
        QVERIFY(near(*e.candidateFloorNs, 20.0 * kN / 3350.0));
        QVERIFY(near(e.speedup, 0.6));
        QCOMPARE(e.referenceReach, 1.0); // 16 M threads: more than half of the 270 336 the GPU holds
        QCOMPARE(e.candidateReach, 1.0);
        // Without a GPU named, the nominal H100's peaks: the same ratio.
        const RooflineEstimate nominal = rooflineEstimate(reference, candidate, std::nullopt);
        QVERIFY(near(nominal.speedup, 0.6));
        QVERIFY(nominal.peaks.startsWith(u"no GPU named"_s));
    }

    void tinyGridCannotKeepTheMemoryBusy()
    {
        const Kernel reference = kernel(u"12*n"_s, u"2*n"_s, u"n/256"_s);
        const Kernel candidate = kernel(u"12*n"_s, u"2*n"_s, 32); // 32 blocks × 256 = 8192 threads
        const RooflineEstimate e = rooflineEstimate(reference, candidate, h100());
        const double reach = 8192.0 / (132.0 * 2048.0 * 0.5);
        QVERIFY(near(e.candidateReach, reach));
        QVERIFY(near(e.speedup, reach));
        const bins::Distribution p = rooflineDistribution(e.speedup, 0.5);
        QVERIFY(p[0] > 0.999); // 0.06×: a severe slowdown
    }

    void computeBoundInAnotherPrecision()
    {
        // n = 4096 as a GEMM: 2 n³ FLOPs on 3 n² elements of 4 (FP32) or 2 (FP16) bytes.
        Kernel reference = kernel(u"12*n*n"_s, u"2*n*n*n"_s, u"n*n/256"_s);
        Kernel candidate = kernel(u"6*n*n"_s, u"2*n*n*n"_s, u"n*n/256"_s, u"f16"_s);
        for (Kernel *k : {&reference, &candidate}) {
            QJsonObject spec = k->parameters.value(u"spec"_s).toObject();
            spec.insert(u"cases"_s,
                QJsonArray {QJsonObject {{u"name"_s, u"16M"_s}, {u"vars"_s, QJsonObject {{u"n"_s, 4096}}}}});
            k->parameters = {{u"spec"_s, spec}};
        }
        const RooflineEstimate e = rooflineEstimate(reference, candidate, h100());
        const double flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
        QVERIFY(near(*e.referenceFloorNs, flops / 67e3)); // FP32 CUDA cores
        QVERIFY(near(*e.candidateFloorNs, flops / 989.5e3)); // FP16 tensor cores
        QVERIFY(near(e.speedup, 989.5 / 67.0));
        QCOMPARE(bins::argmaxBin(rooflineDistribution(e.speedup, 0.5)), 8);
    }

    void nothingStatedIsNoChange()
    {
        Kernel python;
        python.language = u"python"_s;
        python.source = u"def forward(x):\n    return x * 2\n"_s;
        const RooflineEstimate e = rooflineEstimate(python, python, h100());
        QVERIFY(e.cases.isEmpty());
        QVERIFY(!e.referenceFloorNs);
        QCOMPARE(e.speedup, 1.0);
    }

    void logNormalOverTheBins()
    {
        // By hand: Φ(0) − Φ(−1) = 0.341345 on each side of 1×, Φ(−1) − Φ(−2) = 0.135905 one bin further, Φ(−2) below.
        const bins::Distribution p = rooflineDistribution(1.0, 0.5);
        const double expected[] = {0.0227501319, 0.1359051220, 0.3413447461, 0.3413447461, 0.1359051220, 0.0214002339,
            0.0013182268, 0.0000316712};
        double sum = 0.0;
        for (int b = 0; b < 8; ++b) {
            QVERIFY2(std::abs(p[std::size_t(b)] - expected[b]) < 1e-9, qPrintable(QString::number(b + 1)));
            sum += p[std::size_t(b)];
        }
        QVERIFY(std::abs(sum - 1.0) < 1e-12);
        const bins::Distribution slower = rooflineDistribution(0.6, 0.5);
        QVERIFY(std::abs(slower[1] - 0.3828053124) < 1e-9); // bin 2, [0.5, 0.71): Φ(0.526) − Φ(−0.474)
    }

    void registeredAndRun()
    {
        QTemporaryDir dir;
        auto store = Store::open(dir.filePath(u"prior.gpuf"_s));
        QVERIFY2(store, qPrintable(store ? QString() : store.error()));
        auto found = resolveForecaster(**store, u"roofline"_s, {});
        QVERIFY(found && found->has_value());
        const Forecaster prior = **found;
        QCOMPARE(prior.kind, ForecasterKind::CostModel);
        QVERIFY(isRooflineForecaster(prior));
        QCOMPARE(prior.displayName, u"Physics prior (roofline)"_s);
        auto again = ensureRooflineForecaster(**store);
        QVERIFY(again);
        QCOMPARE(again->id, prior.id);

        auto backend = makeBackend(prior);
        QVERIFY2(backend, qPrintable(backend ? QString() : backend.error()));
        QSignalSpy finished(backend->get(), &ForecastBackend::finished);
        ForecastRequest request;
        request.id = 7;
        request.reference = kernel(u"12*n"_s, u"2*n"_s, u"n/256"_s);
        request.candidate = kernel(u"20*n"_s, u"2*n"_s, u"n/256"_s);
        request.reference.id = 1;
        request.candidate.id = 2;
        request.hardware = h100();
        (*backend)->start(request);
        QCOMPARE(finished.size(), 1);
        const auto f = finished.first().at(1).value<Forecast>();
        QCOMPARE(f.status, ForecastStatus::Ok);
        QCOMPARE(f.forecasterId, prior.id);
        const bins::Distribution expected = rooflineDistribution(0.6, 0.5);
        for (int b = 0; b < 8; ++b)
            QVERIFY(std::abs(f.probabilities[std::size_t(b)] - expected[std::size_t(b)]) < 1e-12);
        QCOMPARE(f.predictedBin, std::optional<int>(2));
        QVERIFY2(f.reasoning.contains(u"Estimated speedup 0.60×"_s), qPrintable(f.reasoning));
        QVERIFY(!f.cacheKey.isEmpty());

        // A forecaster of another kind under the name is refused, not run as the prior.
        QTemporaryDir other;
        auto taken = Store::open(other.filePath(u"taken.gpuf"_s));
        QVERIFY(taken);
        Forecaster imposter;
        imposter.name = u"roofline"_s;
        imposter.kind = ForecasterKind::Import;
        QVERIFY(ForecasterRepo(**taken).ensure(imposter));
        const auto refused = ensureRooflineForecaster(**taken);
        QVERIFY(!refused);
        QCOMPARE(refused.error(), u"the store's forecaster 'roofline' is not the roofline prior"_s);
    }
};

QTEST_GUILESS_MAIN(TestRooflinePrior)
#include "tst_roofline_prior.moc"
