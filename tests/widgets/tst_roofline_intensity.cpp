// What the roofline says of a kernel's intensity and bound, as the user reads it: naive and tiled SGEMM share their x
// at the spec's ideal bytes, and the naive one, far below the compute roof, is not called compute-bound; measured DRAM
// bytes (a profiler's counters) move a point to its true intensity, and the axis title, labels and hover text say
// which points rest on which bytes.
#include "core/domain/hardware.h"
#include "core/domain/roofline.h"
#include "core/interop/corpus.h"
#include "core/measure/roofline_data.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "widgets/measure/roofline_view.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QApplication>
#include <QDir>
#include <QJsonDocument>
#include <QLocale>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

const QString kH200 = u"NVIDIA H200"_s;
const QString kH100 = u"NVIDIA H100 80GB HBM3"_s;
const QString kSmall = u"1024x1024x1024"_s; // 12 582 912 ideal bytes, 2 147 483 648 FLOPs: 170.67 FLOP/B
const QString kWide = u"2048x2048x1024"_s; // 33 554 432 ideal bytes, 8 589 934 592 FLOPs: 256 FLOP/B
const QString kOdd = u"1000x1200x777"_s; // 11 637 600 ideal bytes, 1 864 800 000 FLOPs: 160.2 FLOP/B

Measurement timed(RowId kernel, RowId hardware, const QString &caseName, double ns, const char *counters = "{}")
{
    Measurement m;
    m.kernelId = kernel;
    m.hardwareId = hardware;
    m.caseName = caseName;
    m.status = MeasurementStatus::Ok;
    m.runtime = RuntimeStats {ns, ns, ns, 0.0, 0.001, 50};
    m.counters = QJsonDocument::fromJson(counters).object();
    return m;
}

// The point of `series` labelled `label` (a graph holds its points sorted by intensity, not in the cases' order).
RooflineView::PlottedPoint pointOf(const RooflineView &view, const QString &series, const QString &label)
{
    for (const RooflineView::PlottedPoint &p : view.plottedPoints()) {
        if (p.series == series && p.label == label)
            return p;
    }
    return {u"(none)"_s, {}, 0.0, 0.0, {}};
}

QString lineOf(const RooflineView &view, const QString &start)
{
    for (const QString &line : view.lines()) {
        if (line.startsWith(start))
            return line;
    }
    return u"(no line starting with %1 in: %2)"_s.arg(start, view.lines().join(u'\n'));
}

} // namespace

class TestRooflineIntensity : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    QHash<QString, RowId> m_kernel; // sgemm variants by name

    Result<RooflineData> read(const QString &kernel, const QString &gpu)
    {
        auto store = Store::open(m_path, Store::Mode::ReadOnly);
        if (!store)
            return Error {store.error()};
        return readRooflineData(**store, m_kernel.value(kernel), gpu);
    }

private Q_SLOTS:
    void initTestCase();
    void dramCounterNames();
    void naiveAndTiledShareTheirIdealX();
    void nearTheComputeRoofIsComputeBound();
    void measuredDramBytesMoveThePoints();
};

void TestRooflineIntensity::initTestCase()
{
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    QLocale::setDefault(QLocale::c());
    QVERIFY(m_dir.isValid());
    const QString corpus = m_dir.filePath(u"corpus"_s);
    QVERIFY(QDir().mkpath(corpus + u"/sgemm"_s));
    const QDir source(QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus/sgemm"));
    for (const QString &file : source.entryList(QDir::Files))
        QVERIFY(QFile::copy(source.filePath(file), corpus + u"/sgemm/"_s + file));
    m_path = m_dir.filePath(u"sgemm.gpuf"_s);
    auto store = Store::open(m_path);
    QVERIFY2(store, qPrintable(store.error()));
    auto report = interop::importCorpus(**store, corpus);
    QVERIFY2(report, qPrintable(report.error()));
    auto kernels = KernelRepo(**store).list();
    QVERIFY(kernels);
    for (const Kernel &k : std::as_const(*kernels))
        m_kernel.insert(k.name, k.id);
    Hardware h200 = *hardwarePreset(kH200);
    Hardware h100 = *hardwarePreset(kH100);
    QVERIFY(HardwareRepo(**store).ensure(h200));
    QVERIFY(HardwareRepo(**store).ensure(h100));

    MeasurementRepo runs(**store);
    const RowId naive = m_kernel.value(u"v0_naive"_s);
    const RowId tiled = m_kernel.value(u"v2_smem_tile"_s);
    // The sample store's H200 medians; no run has DRAM counters, as no shipped measurement does.
    // The naive kernel's third case (160 FLOP/B) sorts before its first (171): labels and hover text must follow the
    // points, not the cases' order.
    for (Measurement m : {timed(naive, h200.id, kSmall, 332560.0), timed(naive, h200.id, kWide, 1202880.0),
             timed(naive, h200.id, kOdd, 286304.0), timed(tiled, h200.id, kSmall, 261072.0),
             timed(tiled, h200.id, kWide, 963120.0),
             timed(m_kernel.value(u"v7_double_buffer"_s), h200.id, kWide, 242736.0)})
        QVERIFY(runs.insert(m));
    // Profiled runs on the H100: the naive kernel moved 1 GiB through DRAM (gpuf's counter name), the tiled one
    // 48 MiB read and 4 MiB written (Nsight Compute's metric names); the tiled kernel's wide case is not profiled.
    for (Measurement m : {timed(naive, h100.id, kSmall, 400000.0, R"({"dram_bytes": 1073741824})"),
             timed(tiled, h100.id, kSmall, 300000.0,
                 R"({"dram__bytes_read.sum": 50331648, "dram__bytes_write.sum": 4194304})"),
             timed(tiled, h100.id, kWide, 900000.0)})
        QVERIFY(runs.insert(m));
}

void TestRooflineIntensity::dramCounterNames()
{
    const auto bytes = [](const char *json) { return measuredDramBytes(QJsonDocument::fromJson(json).object()); };
    QCOMPARE(bytes(R"({"dram_bytes": 1000})"), std::optional<double>(1000.0));
    QCOMPARE(bytes(R"({"dram__bytes.sum": 2000})"), std::optional<double>(2000.0));
    QCOMPARE(bytes(R"({"dram__bytes_read.sum": 300, "dram__bytes_write.sum": 200})"), std::optional<double>(500.0));
    // Half a read/write pair, a count that is not positive, a string, or nothing: not measured.
    QCOMPARE(bytes(R"({"dram__bytes_read.sum": 300})"), std::nullopt);
    QCOMPARE(bytes(R"({"dram_bytes": 0})"), std::nullopt);
    QCOMPARE(bytes(R"({"dram_bytes": -1})"), std::nullopt);
    QCOMPARE(bytes(R"({"dram_bytes": "1000"})"), std::nullopt);
    QCOMPARE(bytes(R"({"bytes_moved": 1000})"), std::nullopt);
    // A worker's counters carry both the ideal bytes and the measured ones.
    const CaseWork work = counterCaseWork(
        QJsonDocument::fromJson(R"({"bytes_moved": 1000, "flops": 5000, "dram_bytes": 4000})").object());
    QCOMPARE(work.bytes, std::optional<double>(1000.0));
    QCOMPARE(work.dramBytes, std::optional<double>(4000.0));
}

void TestRooflineIntensity::naiveAndTiledShareTheirIdealX()
{
    auto data = read(u"v2_smem_tile"_s, kH200);
    QVERIFY2(data, qPrintable(data.error()));
    RooflineView view;
    view.resize(1000, 600);
    view.setData(*data);
    QVERIFY(view.message().isEmpty());
    QCOMPARE(view.plot()->xAxis->label(), u"Algorithmic intensity: spec FLOP ÷ ideal bytes_moved (FLOP/byte)"_s);

    // Both kernels at 2 147 483 648 / 12 582 912 = 170.67 FLOP/B on the small case: the x cannot tell them apart.
    QCOMPARE(view.plottedPoints().size(), 5);
    const RooflineView::PlottedPoint tiledSmall = pointOf(view, u"v2_smem_tile (selected)"_s, kSmall);
    const RooflineView::PlottedPoint naiveSmall = pointOf(view, u"v0_naive (parent)"_s, kSmall);
    // Every point rests on ideal bytes: the axis says so, no label needs to.
    QCOMPARE(tiledSmall.label, kSmall);
    QVERIFY(qFuzzyCompare(tiledSmall.intensity, 2147483648.0 / 12582912.0));
    QVERIFY(qFuzzyCompare(naiveSmall.intensity, tiledSmall.intensity));
    // Each label sits at its own case's point: 1 864 800 000 FLOP / 286 304 ns = 6.51 TFLOP/s.
    const RooflineView::PlottedPoint naiveOdd = pointOf(view, u"v0_naive (parent)"_s, kOdd);
    QVERIFY(qFuzzyCompare(naiveOdd.intensity, 1864800000.0 / 11637600.0));
    QVERIFY(qAbs(naiveOdd.tflops - 1864800000.0 / 286304.0 / 1e3) < 1e-9);
    QVERIFY2(naiveOdd.detail.startsWith(u"v0_naive · 1000x1200x777: 160 FLOP/B at its ideal bytes"_s),
        qPrintable(naiveOdd.detail));

    // The naive kernel: 2 147 483 648 FLOP / 332 560 ns = 6.46 TFLOP/s, 10% of the 67 TFLOP/s roof; memory would
    // explain 332 560 ns if it moved 332 560 / (12 582 912 / 4800) = 127 times its ideal bytes.
    const QString naive = lineOf(view, u"v0_naive · 1024x1024x1024"_s);
    QCOMPARE(naive,
        u"v0_naive · 1024x1024x1024: 171 FLOP/B at its ideal bytes · 38 GB/s · 6.46 TFLOP/s · 10% of the compute roof "
        "(bound not known: right of the ridge only at its ideal bytes, far below the compute roof; memory would "
        "explain its time if it moved 127× its ideal bytes, and its DRAM bytes are not measured)"_s);
    for (const QString &line : view.lines())
        QVERIFY2(!line.contains(u"compute-bound"_s), qPrintable(line));
    // The tiled kernel: 8.23 TFLOP/s, 12% of the roof, 100× its ideal bytes.
    QVERIFY2(lineOf(view, u"v2_smem_tile · 1024x1024x1024"_s)
                 .contains(u"8.23 TFLOP/s · 12% of the compute roof (bound not known"_s),
        qPrintable(lineOf(view, u"v2_smem_tile · 1024x1024x1024"_s)));
    QVERIFY(lineOf(view, u"v2_smem_tile · 1024x1024x1024"_s).contains(u"if it moved 100× its ideal bytes"_s));

    // Hovering a point shows its line and the bytes its x rests on.
    QCOMPARE(naiveSmall.detail,
        naive
            + u"\nx: its FLOPs over the 0.0126 GB it must move at least (the spec's bytes_moved); its DRAM bytes are "
              "not measured, so it may sit further left"_s);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    const QPoint at(int(view.plot()->xAxis->coordToPixel(tiledSmall.intensity)),
        int(view.plot()->yAxis->coordToPixel(tiledSmall.tflops)));
    QCOMPARE(view.hoverText(at), tiledSmall.detail);
    QVERIFY2(tiledSmall.detail.startsWith(u"v2_smem_tile · 1024x1024x1024: "_s), qPrintable(tiledSmall.detail));
}

void TestRooflineIntensity::nearTheComputeRoofIsComputeBound()
{
    // v7 on the wide case: 8 589 934 592 FLOP / 242 736 ns = 35.4 TFLOP/s, 53% of the roof: compute-bound even though
    // only its ideal bytes are known (memory would need 34.7 times them).
    auto data = read(u"v7_double_buffer"_s, kH200);
    QVERIFY2(data, qPrintable(data.error()));
    RooflineView view;
    view.setData(*data);
    QCOMPARE(lineOf(view, u"v7_double_buffer · 2048x2048x1024"_s),
        u"v7_double_buffer · 2048x2048x1024: 256 FLOP/B at its ideal bytes · 138 GB/s · 35.4 TFLOP/s · 53% of the "
        "compute roof (compute-bound: near the compute roof)"_s);
    // Its reference, the naive kernel, at 7.14 TFLOP/s on the same case: not called so.
    QVERIFY2(lineOf(view, u"v0_naive · 2048x2048x1024"_s).contains(u"11% of the compute roof (bound not known"_s),
        qPrintable(lineOf(view, u"v0_naive · 2048x2048x1024"_s)));
}

void TestRooflineIntensity::measuredDramBytesMoveThePoints()
{
    auto data = read(u"v2_smem_tile"_s, kH100);
    QVERIFY2(data, qPrintable(data.error()));
    RooflineView view;
    view.resize(1000, 600);
    view.setData(*data);
    QCOMPARE(view.plot()->xAxis->label(),
        u"Intensity: FLOP ÷ measured DRAM bytes, else ÷ ideal bytes_moved where labelled (FLOP/byte)"_s);
    const QList<RooflineView::PlottedPoint> points = view.plottedPoints();
    QCOMPARE(points.size(), 3);
    // The tiled kernel's small case: 2 147 483 648 / 54 525 952 = 39.4 FLOP/B; its wide case rests on ideal bytes.
    QCOMPARE(points[0].label, kSmall);
    QVERIFY(qFuzzyCompare(points[0].intensity, 2147483648.0 / 54525952.0));
    QCOMPARE(points[1].label, kWide + u" · ideal bytes"_s);
    QVERIFY(qFuzzyCompare(points[1].intensity, 256.0));
    // The naive kernel moved 1 GiB: 2 FLOP/B, far left of its tiled sibling.
    QCOMPARE(points[2].series, u"v0_naive (parent)"_s);
    QCOMPARE(points[2].label, kSmall);
    QVERIFY(qFuzzyCompare(points[2].intensity, 2.0));

    // 1 GiB in 400 µs = 2684 GB/s; the memory roof at 2 FLOP/B is 6.7 TFLOP/s and it does 5.37: 80%.
    QCOMPARE(lineOf(view, u"v0_naive · 1024x1024x1024"_s),
        u"v0_naive · 1024x1024x1024: 2 FLOP/B at its measured DRAM bytes (171 at its ideal bytes) · 2684 GB/s of DRAM "
        "traffic · 5.37 TFLOP/s · 80% of the memory roof (memory-bound at its measured DRAM bytes)"_s);
    // The tiled kernel is right of the H100's ridge (20 FLOP/B) at its measured bytes but does 7.16 of 67 TFLOP/s.
    QCOMPARE(lineOf(view, u"v2_smem_tile · 1024x1024x1024"_s),
        u"v2_smem_tile · 1024x1024x1024: 39.4 FLOP/B at its measured DRAM bytes (171 at its ideal bytes) · 182 GB/s of "
        "DRAM traffic · 7.16 TFLOP/s · 11% of the compute roof (not DRAM-bound: right of the ridge at its measured "
        "DRAM bytes, yet far below the compute roof)"_s);
    QVERIFY2(points[2].detail.endsWith(
                 u"\nx: its FLOPs over the 1.07 GB it was measured moving through DRAM (ideal: 0.0126 GB)"_s),
        qPrintable(points[2].detail));

    // The naive kernel alone: every point measured.
    auto naive = read(u"v0_naive"_s, kH100);
    QVERIFY2(naive, qPrintable(naive.error()));
    view.setData(*naive);
    QCOMPARE(view.plot()->xAxis->label(), u"Operational intensity: FLOP ÷ measured DRAM bytes (FLOP/byte)"_s);
    QCOMPARE(view.plottedPoints().size(), 1);
    QCOMPARE(view.plottedPoints().first().label, kSmall);
}

QTEST_MAIN(TestRooflineIntensity)
#include "tst_roofline_intensity.moc"
