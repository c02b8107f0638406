// The roofline arithmetic (core/domain/roofline.h) and the peak-rate table (core/domain/hardware.h) against figures
// worked out by hand in the comments, for corpus kernels' real specs.
#include "core/domain/hardware.h"
#include "core/domain/roofline.h"
#include "core/interop/corpus.h"

#include <QJsonDocument>
#include <QTest>

using namespace gpuf;

namespace {

QJsonObject corpusSpec(const char *operation, const char *variant)
{
    auto spec = interop::corpusVariantSpec(
        QStringLiteral(GPUF_CORPUS_DIR "/") + QLatin1StringView(operation), QLatin1StringView(variant));
    return spec ? *spec : QJsonObject {};
}

PeakRates h100() { return *datasheetPeakRates(QStringLiteral("NVIDIA H100 80GB HBM3")); }

} // namespace

class TestRoofline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void datasheetRates_data();
    void datasheetRates();
    void derivedRates();
    void axpyIsMemoryBound();
    void sgemmIsComputeBound();
    void wmmaUsesTheTensorCeiling();
    void pythonWorkFromCounters();
    void precision_data();
    void precision();
    void plausibility_data();
    void plausibility();
    void badInput();
};

void TestRoofline::datasheetRates_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("bandwidth");
    QTest::addColumn<double>("fp32");
    QTest::addColumn<double>("bf16");
    QTest::addColumn<double>("fp8");
    QTest::newRow("A100") << "NVIDIA A100-SXM4-80GB" << 2039.0 << 19.5 << 312.0 << 0.0;
    QTest::newRow("L40S") << "NVIDIA L40S" << 864.0 << 91.6 << 362.05 << 733.0;
    QTest::newRow("H100") << "NVIDIA H100 80GB HBM3" << 3350.0 << 67.0 << 989.5 << 1979.0;
    QTest::newRow("H200") << "NVIDIA H200" << 4800.0 << 67.0 << 989.5 << 1979.0;
    QTest::newRow("B200 by alias") << "b200" << 7700.0 << 75.0 << 2250.0 << 4500.0;
}

void TestRoofline::datasheetRates()
{
    QFETCH(QString, name);
    QFETCH(double, bandwidth);
    QFETCH(double, fp32);
    QFETCH(double, bf16);
    QFETCH(double, fp8);
    const std::optional<PeakRates> rates = datasheetPeakRates(name);
    QVERIFY(rates);
    QVERIFY(rates->fromDatasheet);
    QVERIFY(!rates->source.isEmpty());
    QCOMPARE(rates->bandwidthGBs, bandwidth);
    QCOMPARE(rates->tflops(Precision::Fp32), fp32);
    QCOMPARE(rates->tflops(Precision::Bf16), bf16);
    QCOMPARE(rates->tflops(Precision::Fp16), bf16); // FP16 and BF16 tensor rates are equal on all five
    QCOMPARE(rates->tflops(Precision::Fp8), fp8);
}

void TestRoofline::derivedRates()
{
    // An RTX 4090 is no preset: 2 × 10.501 GHz × 384 bits / 8 = 1008.096 GB/s;
    // FP32 = 128 SMs × 128 lanes (cc 8.9) × 2 × 2.52 GHz = 82 575.36 GFLOP/s = 82.57536 TFLOP/s.
    Hardware h;
    h.name = QStringLiteral("NVIDIA GeForce RTX 4090");
    h.computeCapability = QStringLiteral("8.9");
    h.smCount = 128;
    h.clockGhz = 2.52;
    h.memoryClockGhz = 10.501;
    h.busWidthBits = 384;
    const PeakRates rates = peakRatesOf(h);
    QVERIFY(!rates.fromDatasheet);
    QVERIFY(qFuzzyCompare(rates.bandwidthGBs, 1008.096));
    QVERIFY(qFuzzyCompare(rates.fp32Tflops, 82.57536));
    QCOMPARE(rates.fp16TensorTflops, 0.0); // not derivable: left unknown rather than guessed

    // A detected H100 SXM takes the datasheet row, not its clocks.
    Hardware h100;
    h100.name = QStringLiteral("NVIDIA H100 80GB HBM3");
    h100.memoryClockGhz = 2.619;
    h100.busWidthBits = 5120;
    QCOMPARE(peakRatesOf(h100).bandwidthGBs, 3350.0);

    // Nothing known: no bandwidth, and a roofline says so instead of dividing by zero.
    QVERIFY(!peakRatesOf(Hardware {}).hasBandwidth());
}

void TestRoofline::axpyIsMemoryBound()
{
    // axpy, case n=16M: n = 16 777 216.
    //   bytes = 12·n = 201 326 592, flops = 2·n = 33 554 432, intensity = 2/12 = 0.1667 FLOP/B.
    // H100 (3350 GB/s, FP32 67 TFLOP/s): ridge = 67 000 / 3350 = 20 FLOP/B, so the roof at 0.1667 is the memory slope:
    //   roof = 0.1667 × 3350 GB/s = 558.33 GFLOP/s = 0.55833 TFLOP/s.
    // Measured median 82 400 ns (the recorded v0_naive run on an H100):
    //   achieved bandwidth = 201 326 592 B / 82 400 ns = 2443.28 GB/s,
    //   achieved rate = 33 554 432 / 82 400 ns = 407.21 GFLOP/s = 0.40721 TFLOP/s,
    //   fraction of roof = 0.40721 / 0.55833 = 0.72934 (= 2443.28 / 3350),
    //   floor = 201 326 592 B / 3350 GB/s = 60 097.5 ns < 82 400 ns: plausible.
    auto work = specCaseWork(corpusSpec("axpy", "v0_naive"), QStringLiteral("n=16M"));
    QVERIFY2(work, qPrintable(work.error()));
    QCOMPARE(*work->bytes, 201326592.0);
    QCOMPARE(*work->flops, 33554432.0);
    auto p = rooflinePoint(*work, 82400.0, h100(), Precision::Fp32);
    QVERIFY2(p, qPrintable(p.error()));
    QVERIFY(qFuzzyCompare(*p->intensity, 1.0 / 6.0));
    QVERIFY(qAbs(p->achievedGBs - 2443.28) < 0.01);
    QVERIFY(qAbs(*p->achievedTflops - 0.407214) < 1e-6);
    QVERIFY(qAbs(*p->roofTflops - 0.558333) < 1e-6);
    QVERIFY(qAbs(p->fractionOfRoof - 0.72934) < 1e-5);
    QCOMPARE(p->bound, RooflinePoint::Bound::Memory);
    QVERIFY(qFuzzyCompare(p->ridgeIntensity, 20.0));
    QVERIFY(qAbs(p->floorNs - 60097.49) < 0.01);
    QVERIFY(!p->implausible);

    // The same bytes in 50 000 ns would be 4026.5 GB/s, more than the memory can move: implausible.
    auto fast = rooflinePoint(*work, 50000.0, h100(), Precision::Fp32);
    QVERIFY(fast && fast->implausible);
    QVERIFY(fast->fractionOfRoof > 1.0);
}

void TestRoofline::sgemmIsComputeBound()
{
    // sgemm, case 1024x1024x1024 (M = N = K = 1024 = 2^10):
    //   bytes = 4·(MK + KN + MN) = 4·3·2^20 = 12 582 912, flops = 2·M·N·K = 2^31 = 2 147 483 648,
    //   intensity = 2^31 / (12·2^20) = 170.667 FLOP/B, right of the H100 FP32 ridge (20): compute-bound,
    //   roof = min(67, 170.667 × 3.35) = min(67, 571.73) = 67 TFLOP/s.
    // In 100 000 ns: 2^31 / 100 000 ns = 21 474.8 GFLOP/s = 21.4748 TFLOP/s, 21.4748 / 67 = 0.320520 of the roof;
    //   bandwidth 12 582 912 / 100 000 = 125.829 GB/s; floor 12 582 912 / 3350 = 3756.09 ns.
    auto work = specCaseWork(corpusSpec("sgemm", "v0_naive"), QStringLiteral("1024x1024x1024"));
    QVERIFY2(work, qPrintable(work.error()));
    QCOMPARE(*work->bytes, 12582912.0);
    QCOMPARE(*work->flops, 2147483648.0);
    auto p = rooflinePoint(*work, 100000.0, h100(), Precision::Fp32);
    QVERIFY2(p, qPrintable(p.error()));
    QVERIFY(qAbs(*p->intensity - 170.6667) < 1e-3);
    QCOMPARE(p->bound, RooflinePoint::Bound::Compute);
    QCOMPARE(*p->roofTflops, 67.0);
    QVERIFY(qAbs(*p->achievedTflops - 21.474836) < 1e-5);
    QVERIFY(qAbs(p->fractionOfRoof - 0.320520) < 1e-5);
    QVERIFY(qAbs(p->achievedGBs - 125.82912) < 1e-5);
    QVERIFY(qAbs(p->floorNs - 3756.09) < 0.01);
    QVERIFY(!p->implausible);
}

void TestRoofline::wmmaUsesTheTensorCeiling()
{
    // wmma_gemm, 2048x2048x2048, f16 inputs: bytes = 2·(MK + KN) + 4·MN = 8·2^22 = 33 554 432,
    //   flops = 2·2^33 = 17 179 869 184, intensity = 512 FLOP/B.
    // FP16 tensor roof on an H100: min(989.5, 512 × 3.35 = 1715.2) = 989.5 TFLOP/s (compute-bound);
    //   ridge = 989 500 / 3350 = 295.37 FLOP/B.
    const QJsonObject spec = corpusSpec("wmma_gemm", "v0_simt_naive");
    QCOMPARE(precisionOf(spec), Precision::Fp16);
    auto work = specCaseWork(spec, QStringLiteral("2048x2048x2048"));
    QVERIFY2(work, qPrintable(work.error()));
    QCOMPARE(*work->bytes, 33554432.0);
    auto p = rooflinePoint(*work, 1e6, h100(), Precision::Fp16);
    QVERIFY2(p, qPrintable(p.error()));
    QCOMPARE(*p->intensity, 512.0);
    QCOMPARE(*p->roofTflops, 989.5);
    QCOMPARE(p->bound, RooflinePoint::Bound::Compute);
    QVERIFY(qAbs(p->ridgeIntensity - 295.3731) < 1e-3);
}

void TestRoofline::pythonWorkFromCounters()
{
    // A Python problem's work comes with its measurement: cross_entropy 4096x32000 reported
    // bytes_moved = 4·4096·32000 + 12·4096 = 524 337 152 and flops = 6·4096·32000 = 786 432 000 → 1.499859 FLOP/B.
    const QJsonObject counters = QJsonDocument::fromJson(
        R"({"bytes_moved": 524337152.0, "flops": 786432000.0, "floor_us": 156.41, "implausible": false})")
                                     .object();
    const CaseWork work = counterCaseWork(counters);
    QCOMPARE(work.source, QStringLiteral("measurement"));
    QCOMPARE(*work.bytes, 524337152.0);
    auto p = rooflinePoint(work, 2.0e6, h100(), Precision::Bf16);
    QVERIFY2(p, qPrintable(p.error()));
    QVERIFY(qAbs(*p->intensity - 1.499859) < 1e-6);
    QCOMPARE(p->bound, RooflinePoint::Bound::Memory);
    // The worker's -1 means "no expression".
    QVERIFY(!counterCaseWork(QJsonObject {{QStringLiteral("bytes_moved"), -1.0}}).bytes);
}

void TestRoofline::precision_data()
{
    QTest::addColumn<QString>("description");
    QTest::addColumn<int>("precision");
    QTest::newRow("fp16 python") << "C = A @ B in float16 with float32 accumulation" << int(Precision::Fp16);
    QTest::newRow("bf16 python") << "logits [B, V] bfloat16" << int(Precision::Bf16);
    QTest::newRow("fp32 python") << "all float32" << int(Precision::Fp32);
}

void TestRoofline::precision()
{
    QFETCH(QString, description);
    QFETCH(int, precision);
    QCOMPARE(int(precisionOf(QJsonObject {}, description)), precision);
    QCOMPARE(precisionOf(corpusSpec("axpy", "v0_naive"), description), Precision::Fp32); // the spec's f32 buffers win
}

void TestRoofline::plausibility_data()
{
    QTest::addColumn<double>("timeNs");
    QTest::addColumn<QString>("counters");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<int>("state");
    QTest::addColumn<double>("floorNs");
    QTest::addColumn<bool>("fromWorker");
    const int plausible = int(Plausibility::State::Plausible);
    const int implausible = int(Plausibility::State::Implausible);
    const int unknown = int(Plausibility::State::Unknown);
    // The worker's verdict is taken as reported (it used its own peak, 3352.32 GB/s: floor 60.0559 µs for axpy).
    QTest::newRow("worker plausible") << 82400.0 << R"({"floor_us": 60.0559, "implausible": false})" << 0.0 << plausible
                                      << 60055.9 << true;
    QTest::newRow("worker implausible") << 40000.0 << R"({"floor_us": 60.0559, "implausible": true})" << 0.0
                                        << implausible << 60055.9 << true;
    // Without the worker's figures: 201 326 592 B / 3350 GB/s = 60 097.5 ns.
    QTest::newRow("computed plausible") << 82400.0 << "{}" << 201326592.0 << plausible << 60097.49 << false;
    QTest::newRow("computed implausible") << 40000.0 << "{}" << 201326592.0 << implausible << 60097.49 << false;
    QTest::newRow("no bytes") << 40000.0 << "{}" << 0.0 << unknown << 0.0 << false;
    QTest::newRow("zero time") << 0.0 << R"({"floor_us": 60.0559, "implausible": true})" << 201326592.0 << unknown
                               << 0.0 << false;
}

void TestRoofline::plausibility()
{
    QFETCH(double, timeNs);
    QFETCH(QString, counters);
    QFETCH(double, bytes);
    QFETCH(int, state);
    QFETCH(double, floorNs);
    QFETCH(bool, fromWorker);
    const QJsonObject object = QJsonDocument::fromJson(counters.toUtf8()).object();
    const Plausibility p
        = plausibilityOf(timeNs, object, bytes > 0 ? std::optional<double>(bytes) : std::nullopt, 3350.0);
    QCOMPARE(int(p.state), state);
    QVERIFY(qAbs(p.floorNs - floorNs) < 0.01);
    QCOMPARE(p.fromWorker, fromWorker);
}

void TestRoofline::badInput()
{
    // A spec without bytes_moved or flops: no work, and the roofline says why.
    QJsonObject spec = corpusSpec("axpy", "v0_naive");
    spec.remove(QStringLiteral("bytes_moved"));
    spec.remove(QStringLiteral("flops"));
    auto work = specCaseWork(spec, QStringLiteral("n=16M"));
    QVERIFY(work && !work->bytes && !work->flops);
    auto none = rooflinePoint(*work, 82400.0, h100(), Precision::Fp32);
    QVERIFY(!none);
    QVERIFY2(none.error().contains(QStringLiteral("no bytes_moved")), qPrintable(none.error()));

    // A case the spec does not have, and an expression over a variable the case does not bind.
    const QJsonObject axpy = corpusSpec("axpy", "v0_naive");
    auto missing = specCaseWork(axpy, QStringLiteral("n=1"));
    QVERIFY(!missing);
    QVERIFY2(missing.error().contains(QStringLiteral("no case named 'n=1'")), qPrintable(missing.error()));
    QJsonObject wrong = axpy;
    wrong.insert(QStringLiteral("bytes_moved"), QStringLiteral("12*rows"));
    auto unbound = specCaseWork(wrong, QStringLiteral("n=16M"));
    QVERIFY(!unbound);
    QVERIFY2(unbound.error().contains(QStringLiteral("bytes_moved of case 'n=16M'")), qPrintable(unbound.error()));

    // A zero time and an unknown GPU.
    auto good = specCaseWork(axpy, QStringLiteral("n=16M"));
    QVERIFY(good);
    auto zero = rooflinePoint(*good, 0.0, h100(), Precision::Fp32);
    QVERIFY(!zero);
    QVERIFY2(zero.error().contains(QStringLiteral("no rate can be computed")), qPrintable(zero.error()));
    auto unknownGpu = rooflinePoint(*good, 82400.0, peakRatesOf(Hardware {}), Precision::Fp32);
    QVERIFY(!unknownGpu);
    QVERIFY2(unknownGpu.error().contains(QStringLiteral("peak memory bandwidth is not known")),
        qPrintable(unknownGpu.error()));

    // Bytes but no arithmetic (a transpose): the bandwidth fraction stands in, and there is no intensity.
    auto transpose = specCaseWork(corpusSpec("transpose", "v0_naive"), QStringLiteral("4096x8192"));
    QVERIFY2(transpose, qPrintable(transpose.error()));
    auto copy = rooflinePoint(*transpose, 200000.0, h100(), Precision::Fp32);
    QVERIFY(copy);
    QVERIFY(!copy->intensity);
    // 8 × 4096 × 8192 = 268 435 456 B in 200 000 ns = 1342.18 GB/s = 0.40065 of 3350.
    QVERIFY(qAbs(copy->fractionOfRoof - 0.400650) < 1e-5);
}

QTEST_GUILESS_MAIN(TestRoofline)
#include "tst_roofline.moc"
