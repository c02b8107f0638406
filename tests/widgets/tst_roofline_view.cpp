// Where a kernel stands against the hardware, as the user sees it: the roofline view's points, labels, arrows and
// lines for a corpus kernel and its parent; its empty states; and an implausible time (faster than its bytes can
// move) marked in the candidate table, the forecast panel and the per-kernel marks a search's tree draws.
#include "core/domain/hardware.h"
#include "core/interop/corpus.h"
#include "core/measure/measurement_mapping.h"
#include "core/measure/roofline_data.h"
#include "core/session/pair_forecasts.h"
#include "core/session/selection.h"
#include "core/session/store_change.h"
#include "core/session/store_session.h"
#include "core/store/candidate_rows.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/plausibility_marks.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/support/session_open.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/forecast/forecast_detail.h"
#include "widgets/measure/roofline_loader.h"
#include "widgets/measure/roofline_view.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

const QString kH100 = u"NVIDIA H100 80GB HBM3"_s;

// The axpy case n=16M: 12·n = 201 326 592 bytes and 2·n = 33 554 432 FLOPs (intensity 1/6), whose floor on the
// H100's datasheet bandwidth (3350 GB/s) is 201 326 592 / 3350 = 60 097.5 ns.
Measurement run(RowId kernel, RowId hardware, const QString &caseName, double ns, const QJsonObject &counters = {})
{
    Measurement m;
    m.kernelId = kernel;
    m.hardwareId = hardware;
    m.caseName = caseName;
    m.status = MeasurementStatus::Ok;
    m.runtime = RuntimeStats {ns, ns, ns, 0.0, 0.001, 50};
    m.counters = counters;
    return m;
}

} // namespace

class TestRooflineView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    QHash<QString, RowId> m_kernel; // axpy variants by name
    RowId m_h100 = 0;
    RowId m_mystery = 0;
    RowId m_noWork = 0; // a kernel of a problem whose spec states no bytes_moved or flops
    RowId m_failed = 0;

private Q_SLOTS:
    void initTestCase();
    void rooflineOfCorpusKernelAndParent();
    void followsTheGpuChoice();
    void emptyStates();
    void implausibleInCandidateTable();
    void implausibleInForecastPanel();
    void implausibleMarksForTheSearchTree();
    void workerVerdictStoredAndReadBack();
    void panelFollowsSelectionAndGpu();
    void loaderReloadsOnlyOnChangesItDraws();
};

void TestRooflineView::initTestCase()
{
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    QLocale::setDefault(QLocale::c()); // figures as written below, whatever the machine's locale
    QVERIFY(m_dir.isValid());
    // The real axpy corpus operation, alone in a corpus folder of its own.
    const QString corpus = m_dir.filePath(u"corpus"_s);
    QVERIFY(QDir().mkpath(corpus + u"/axpy"_s));
    const QDir source(QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus/axpy"));
    for (const QString &file : source.entryList(QDir::Files))
        QVERIFY(QFile::copy(source.filePath(file), corpus + u"/axpy/"_s + file));
    m_path = m_dir.filePath(u"roofline.gpuf"_s);
    auto store = Store::open(m_path);
    QVERIFY2(store, qPrintable(store.error()));
    auto report = interop::importCorpus(**store, corpus);
    QVERIFY2(report, qPrintable(report.error()));
    auto kernels = KernelRepo(**store).list();
    QVERIFY(kernels);
    for (const Kernel &k : std::as_const(*kernels))
        m_kernel.insert(k.name, k.id);

    Hardware h100 = *hardwarePreset(kH100);
    QVERIFY(HardwareRepo(**store).ensure(h100));
    m_h100 = h100.id;
    Hardware mystery;
    mystery.name = u"Mystery GPU"_s; // no preset and no clocks: no bandwidth known
    QVERIFY(HardwareRepo(**store).ensure(mystery));
    m_mystery = mystery.id;

    MeasurementRepo measurements(**store);
    const QString big = u"n=16M"_s;
    const QString odd = u"n=30000001"_s;
    // v0_naive (reference) → v2_float4 (parent) → v3_float4_unroll (selected), both cases.
    for (const auto &[name, ns16, ns30] : {std::tuple {"v0_naive", 82400.0, 146000.0},
             std::tuple {"v2_float4", 70000.0, 125000.0}, std::tuple {"v3_float4_unroll", 65000.0, 118000.0}}) {
        for (Measurement m : {run(m_kernel.value(QLatin1StringView(name)), m_h100, big, ns16),
                 run(m_kernel.value(QLatin1StringView(name)), m_h100, odd, ns30)})
            QVERIFY(measurements.insert(m));
    }
    // v1_grid_stride: 40 000 ns for n=16M beats the 60 097.5 ns floor (no worker verdict: computed from the spec).
    for (Measurement m : {run(m_kernel.value(u"v1_grid_stride"_s), m_h100, big, 40000.0),
             run(m_kernel.value(u"v1_grid_stride"_s), m_h100, odd, 120000.0)})
        QVERIFY(measurements.insert(m));
    // v5_block32: gpuf-measure's own verdict (its peak from the clocks, 3352.32 GB/s: floor 60.0559 µs).
    Measurement flagged = run(m_kernel.value(u"v5_block32"_s), m_h100, big, 59000.0,
        QJsonDocument::fromJson(R"({"bytes_moved": 201326592, "floor_us": 60.0559, "implausible": true})").object());
    QVERIFY(measurements.insert(flagged));
    // v9_grid_2d measured only on a GPU whose bandwidth nothing tells.
    Measurement onMystery = run(m_kernel.value(u"v9_grid_2d"_s), m_mystery, big, 80000.0);
    QVERIFY(measurements.insert(onMystery));

    // A problem whose spec states no work, and a kernel whose time is zero.
    Problem bare;
    bare.name = u"bare"_s;
    QVERIFY(ProblemRepo(**store).insert(bare));
    Kernel k;
    k.problemId = bare.id;
    k.name = u"bare_kernel"_s;
    k.language = u"cuda"_s;
    k.source = u"__global__ void bare(float *x) {}\n"_s;
    k.origin = u"manual"_s;
    k.parameters = QJsonObject {{u"spec"_s,
        QJsonObject {{u"cases"_s, QJsonArray {QJsonObject {{u"name"_s, u"one"_s}, {u"vars"_s, QJsonObject {}}}}}}}};
    QVERIFY(KernelRepo(**store).insertOrGet(k));
    m_noWork = k.id;
    QVERIFY(ProblemRepo(**store).setReferenceKernel(bare.id, k.id));
    Measurement noWork = run(m_noWork, m_h100, u"one"_s, 1000.0);
    QVERIFY(measurements.insert(noWork));
    m_failed = m_kernel.value(u"v6_fp64_math"_s);
    Measurement incorrect;
    incorrect.kernelId = m_failed;
    incorrect.hardwareId = m_h100;
    incorrect.caseName = big;
    incorrect.status = MeasurementStatus::Incorrect;
    QVERIFY(measurements.insert(incorrect));
    // A zero time never reaches a store (the roofline's own refusal of one is tested in tst_roofline).
    Measurement zero = run(m_kernel.value(u"v6_fp64_math"_s), m_h100, big, 0.0);
    auto refused = measurements.insert(zero);
    QVERIFY(!refused);
    QCOMPARE(refused.error(), u"a measured runtime must be positive (got 0 ns)"_s);
}

void TestRooflineView::rooflineOfCorpusKernelAndParent()
{
    auto store = Store::open(m_path, Store::Mode::ReadOnly);
    QVERIFY(store);
    auto data = readRooflineData(**store, m_kernel.value(u"v3_float4_unroll"_s), kH100);
    QVERIFY2(data, qPrintable(data.error()));
    QVERIFY2(data->emptyReason.isEmpty(), qPrintable(data->emptyReason));
    QCOMPARE(data->series.size(), 3);
    QCOMPARE(data->series[1].name, u"v2_float4"_s);
    QCOMPARE(data->series[2].name, u"v0_naive"_s);

    RooflineView view;
    view.resize(900, 600);
    view.setData(*data);
    QVERIFY(view.message().isEmpty());
    QVERIFY(view.plot()->isVisibleTo(&view));
    QCOMPARE(view.peaksText(), u"NVIDIA H100 80GB HBM3: 3350 GB/s · FP32 67 TFLOP/s (NVIDIA H100 datasheet (SXM))"_s);
    // The memory slope and the FP32 ceiling (axpy is float32: no tensor roof).
    QCOMPARE(view.ceilingNames(), (QStringList {u"memory 3350 GB/s"_s, u"FP32 67 TFLOP/s"_s}));

    // Six points: three kernels × two cases, all at intensity 2n / 12n = 1/6 FLOP/B. The selected kernel's n=16M
    // point: 33 554 432 FLOP / 65 000 ns = 516.22 GFLOP/s = 0.51622 TFLOP/s.
    const QList<RooflineView::PlottedPoint> points = view.plottedPoints();
    QCOMPARE(points.size(), 6);
    QCOMPARE(points[0].series, u"v3_float4_unroll (selected)"_s);
    QCOMPARE(points[0].label, u"n=16M"_s);
    QVERIFY(qFuzzyCompare(points[0].intensity, 1.0 / 6.0));
    QVERIFY(qAbs(points[0].tflops - 0.516222) < 1e-6);
    QCOMPARE(points[2].series, u"v2_float4 (parent)"_s);
    QVERIFY(qAbs(points[2].tflops - 33554432.0 / 70000.0 / 1e3) < 1e-9);
    QCOMPARE(points[4].series, u"v0_naive (reference)"_s);
    QCOMPARE(points[5].label, u"n=30000001"_s);
    // One arrow per case from the parent's point to the kernel's.
    QCOMPARE(view.arrowCount(), 2);

    // A line per point: 201 326 592 B / 65 000 ns = 3097.3 GB/s, 3097.3 / 3350 = 92% of the memory roof.
    const QStringList lines = view.lines();
    QCOMPARE(lines.size(), 6);
    QCOMPARE(lines[0],
        u"v3_float4_unroll · n=16M: 0.167 FLOP/B at its ideal bytes · 3097 GB/s · 0.516 TFLOP/s · 92% of the memory "
        "roof (memory-bound: left of the ridge even at its ideal bytes)"_s);
    QVERIFY2(
        lines[4].startsWith(u"v0_naive · n=16M: 0.167 FLOP/B at its ideal bytes · 2443 GB/s"_s), qPrintable(lines[4]));

    // Zoomed to the points: intensity 1/6 ÷ 2.5 to 1/6 × 2.5, the same points and arrows.
    view.zoomBox()->setChecked(true);
    QVERIFY(qFuzzyCompare(view.plot()->xAxis->range().lower, 1.0 / 15.0));
    QVERIFY(qFuzzyCompare(view.plot()->xAxis->range().upper, 2.5 / 6.0));
    QCOMPARE(view.plottedPoints().size(), 6);
    QCOMPARE(view.arrowCount(), 2);
    view.zoomBox()->setChecked(false);
    QVERIFY(view.plot()->xAxis->range().lower < 0.05);

    // Dark palette: the plot is rebuilt with the palette's colours, the same points drawn.
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    view.setPalette(dark);
    QCOMPARE(view.plot()->xAxis->basePen().color(), QColor(0xee, 0xee, 0xee));
    QCOMPARE(view.plottedPoints().size(), 6);

    // Exported like every plot.
    const QString png = m_dir.filePath(u"roofline.png"_s);
    QVERIFY2(view.exportTo(png), "export failed");
    QVERIFY(QFileInfo(png).size() > 0);
}

void TestRooflineView::followsTheGpuChoice()
{
    // The implausible kernel v1: its point is labelled so, and its line says by how much.
    auto store = Store::open(m_path, Store::Mode::ReadOnly);
    QVERIFY(store);
    auto data = readRooflineData(**store, m_kernel.value(u"v1_grid_stride"_s), QString());
    QVERIFY2(data, qPrintable(data.error()));
    QCOMPARE(data->hardware.name, kH100); // no GPU chosen: the one it was measured on
    RooflineView view;
    view.setData(*data);
    QCOMPARE(view.plottedPoints().first().label, u"n=16M ⚠ implausible"_s);
    QVERIFY2(view.lines().first().endsWith(u"⚠ implausible: 40.0 µs is below the 60.1 µs floor"_s),
        qPrintable(view.lines().first()));
    // Its parent is the reference: drawn once, as the parent.
    QCOMPARE(data->series.size(), 2);
    QCOMPARE(view.arrowCount(), 2);
}

void TestRooflineView::emptyStates()
{
    auto store = Store::open(m_path, Store::Mode::ReadOnly);
    QVERIFY(store);
    RooflineView view;
    // Nothing selected.
    QVERIFY(view.message().startsWith(u"Choose a kernel in the Candidates table"_s));
    QVERIFY(!view.plot()->isVisibleTo(&view));

    // A spec without bytes_moved or flops.
    auto noWork = readRooflineData(**store, m_noWork, kH100);
    QVERIFY2(noWork, qPrintable(noWork.error()));
    view.setData(*noWork);
    QCOMPARE(view.message(),
        u"bare_kernel states no bytes_moved or flops (neither its problem's spec nor its measurements do): a roofline "
        "needs the bytes a case must move and the FLOPs it does."_s);
    QVERIFY(!view.plot()->isVisibleTo(&view));

    // A kernel whose only run failed: no time, and the line says why.
    auto failed = readRooflineData(**store, m_failed, kH100);
    QVERIFY2(failed, qPrintable(failed.error()));
    view.setData(*failed);
    QCOMPARE(
        view.message(), u"No case of v6_fp64_math on NVIDIA H100 80GB HBM3 has a time to place on the roofline."_s);
    QCOMPARE(view.lines().first(), u"v6_fp64_math · n=16M: incorrect, no time"_s);

    // An unknown GPU.
    auto unknown = readRooflineData(**store, m_kernel.value(u"v9_grid_2d"_s), u"Mystery GPU"_s);
    QVERIFY2(unknown, qPrintable(unknown.error()));
    view.setData(*unknown);
    QVERIFY2(view.message().startsWith(u"The peak memory bandwidth of Mystery GPU is not known"_s),
        qPrintable(view.message()));
    // A GPU the store does not know, and a kernel not measured on the chosen GPU.
    auto absent = readRooflineData(**store, m_kernel.value(u"v3_float4_unroll"_s), u"NVIDIA B200"_s);
    QVERIFY(absent);
    view.setData(*absent);
    QCOMPARE(view.message(), u"The store knows no GPU named NVIDIA B200."_s);
    auto elsewhere = readRooflineData(**store, m_kernel.value(u"v9_grid_2d"_s), kH100);
    QVERIFY(elsewhere);
    view.setData(*elsewhere);
    QCOMPARE(view.message(),
        u"v9_grid_2d has no measurement on NVIDIA H100 80GB HBM3 (it was measured on Mystery GPU): measure it to "
        "place it on the roofline."_s);
    // A kernel id that is not in the store is an error, not a crash.
    auto missing = readRooflineData(**store, 999999, kH100);
    QVERIFY(!missing);
    QCOMPARE(missing.error(), u"kernel 999999 is not in the store"_s);
}

void TestRooflineView::implausibleInCandidateTable()
{
    auto store = Store::open(m_path, Store::Mode::ReadOnly);
    QVERIFY(store);
    auto table = loadCandidateTable(**store);
    QVERIFY2(table, qPrintable(table.error()));
    auto shared = std::make_shared<const CandidateTable>(std::move(*table));
    CandidateTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
    model.setTable(shared);
    QVERIFY(applied.wait(5000));
    int h100 = -1;
    for (int i = 0; i < shared->hardware.size(); ++i)
        h100 = shared->hardware[i].id == m_h100 ? i : h100;
    model.setHardwareIndex(h100);
    QTRY_VERIFY(!model.isUpdating());

    QCOMPARE(model.headerData(PlausibilityColumn, Qt::Horizontal).toString(), u"Plausibility"_s);
    const auto index
        = [&](const QString &name, int column) { return model.index(model.viewRowOf(m_kernel.value(name)), column); };
    // Computed from the spec: 40 000 ns against the 60 097.5 ns floor.
    const QModelIndex v1 = index(u"v1_grid_stride"_s, PlausibilityColumn);
    QCOMPARE(v1.data().toString(), u"⚠ implausible"_s);
    QVERIFY(v1.data(CandidateTableModel::ImplausibleRole).toBool());
    QCOMPARE(v1.data(Qt::ToolTipRole).toString(),
        u"⚠ Implausible, faster than its bytes can move: n=16M: 40.0 µs, below the 60.1 µs its bytes need at peak "
        "bandwidth on NVIDIA H100 80GB HBM3.\nA broken or cheating kernel, a wrong bytes_moved, or data served from "
        "the "
        "L2 cache."_s);
    // The speedup it rests on carries the mark too.
    QVERIFY(index(u"v1_grid_stride"_s, SpeedupColumn).data().toString().endsWith(u" ⚠"_s));
    // gpuf-measure's own verdict.
    QVERIFY(index(u"v5_block32"_s, PlausibilityColumn).data(CandidateTableModel::ImplausibleRole).toBool());
    QVERIFY(index(u"v5_block32"_s, PlausibilityColumn).data(Qt::ToolTipRole).toString().contains(u"59.0 µs"_s));
    // Plausible ones are not marked.
    const QModelIndex v3 = index(u"v3_float4_unroll"_s, PlausibilityColumn);
    QCOMPARE(v3.data().toString(), QString());
    QVERIFY(!v3.data(CandidateTableModel::ImplausibleRole).toBool());
    QVERIFY(!index(u"v3_float4_unroll"_s, SpeedupColumn).data().toString().contains(u"⚠"_s));

    // Sorting by the column puts the implausible rows first.
    QSignalSpy sorted(&model, &CandidateTableModel::orderApplied);
    model.sort(PlausibilityColumn, Qt::DescendingOrder);
    QVERIFY(sorted.wait(5000));
    QVERIFY(model.index(0, PlausibilityColumn).data(CandidateTableModel::ImplausibleRole).toBool());
    QVERIFY(model.index(1, PlausibilityColumn).data(CandidateTableModel::ImplausibleRole).toBool());
    QVERIFY(!model.index(2, PlausibilityColumn).data(CandidateTableModel::ImplausibleRole).toBool());
}

void TestRooflineView::implausibleInForecastPanel()
{
    // A stored forecast for each pair, so the detail shows the measured truth beside it.
    {
        auto store = Store::open(m_path);
        QVERIFY(store);
        Forecaster f;
        f.name = u"roofline-test"_s;
        QVERIFY(ForecasterRepo(**store).ensure(f));
        for (const QString &name : {u"v1_grid_stride"_s, u"v3_float4_unroll"_s}) {
            Forecast fc;
            fc.forecasterId = f.id;
            fc.referenceKernelId = m_kernel.value(u"v0_naive"_s);
            fc.candidateKernelId = m_kernel.value(name);
            fc.hardwareId = m_h100;
            fc.probabilities = {0, 0, 0, 0.1, 0.8, 0.1, 0, 0};
            fc.predictedBin = 5;
            QVERIFY(ForecastRepo(**store).insert(fc));
        }
    }
    QAction measure(u"Measure on GPU"_s);
    ForecastDetail detail(&measure);
    auto reader = Store::open(m_path, Store::Mode::ReadOnly);
    QVERIFY(reader);
    const auto truthOf = [&](const QString &name) -> QString {
        auto pair = loadPairForecasts(**reader, m_kernel.value(name), m_kernel.value(u"v0_naive"_s));
        if (!pair || pair->forecasts.isEmpty())
            return u"(no pair: %1)"_s.arg(pair.error());
        ForecastRow row;
        row.kind = ForecastRow::Kind::Stored;
        row.forecasterId = pair->forecasts.first().forecasterId;
        row.hardwareId = m_h100;
        row.forecast = pair->forecasts.first();
        row.figures = figuresOf(row.forecast);
        detail.showRow(*pair, row, 0.5);
        return detail.truthText();
    };
    // v1: 82 400 / 40 000 = 2.06× and 146 000 / 120 000 = 1.2167×, geometric mean 1.58× (bin 5): a hit on a time that
    // cannot be true.
    const QString v1 = truthOf(u"v1_grid_stride"_s);
    QVERIFY2(v1.startsWith(u"1.58× on NVIDIA H100 80GB HBM3 (bin 5, 2 case(s)): hit"_s), qPrintable(v1));
    QVERIFY2(v1.endsWith(u" ⚠ implausible: n=16M: 40.0 µs, below the 60.1 µs its bytes need at peak bandwidth on "
                         "NVIDIA H100 80GB HBM3 — faster than its bytes can move (a broken or cheating kernel?)"_s),
        qPrintable(v1));
    const QString v3 = truthOf(u"v3_float4_unroll"_s);
    QVERIFY2(!v3.contains(u"implausible"_s), qPrintable(v3));
    QVERIFY2(v3.startsWith(u"1.25× on NVIDIA H100 80GB HBM3"_s), qPrintable(v3));
}

void TestRooflineView::implausibleMarksForTheSearchTree()
{
    auto store = Store::open(m_path, Store::Mode::ReadOnly);
    QVERIFY(store);
    const RowId v1 = m_kernel.value(u"v1_grid_stride"_s);
    const RowId v3 = m_kernel.value(u"v3_float4_unroll"_s);
    auto marks = readImplausibleMarks(**store, {v1, v3});
    QVERIFY2(marks, qPrintable(marks.error()));
    QVERIFY(hasImplausibleTime(*marks, v1));
    QVERIFY(hasImplausibleTime(*marks, v1, m_h100));
    QVERIFY(!hasImplausibleTime(*marks, v1, m_mystery));
    QVERIFY(!hasImplausibleTime(*marks, v3));
    const ImplausibleMark mark = marks->value(v1).first(); // a copy: value() returns a temporary list
    QCOMPARE(mark.hardwareId, m_h100);
    QCOMPARE(mark.cases.size(), 1);
    QCOMPARE(mark.cases.first().caseName, u"n=16M"_s);
    QVERIFY(!mark.cases.first().fromWorker);
    QVERIFY(qAbs(mark.cases.first().floorNs - 60097.49) < 0.01);
    // Every kernel: v1 and v5 (the worker's verdict), nothing else.
    auto all = readImplausibleMarks(**store);
    QVERIFY(all);
    QCOMPARE(all->size(), 2);
    QVERIFY(all->value(m_kernel.value(u"v5_block32"_s)).first().cases.first().fromWorker);
}

void TestRooflineView::workerVerdictStoredAndReadBack()
{
    // A case result as gpuf-measure sends it (docs/measure-protocol.md): its floor_us and implausible are kept in the
    // measurement's counters and read back as the worker's own verdict.
    const QJsonObject caseResult = QJsonDocument::fromJson(R"({"name": "n=16M", "status": "ok",
        "timing": {"method": "cuda_events", "n": 40, "median_us": 55.0, "mean_us": 55.1, "min_us": 54.8,
                   "std_us": 0.2, "rel_std_error": 0.001, "flush_l2": false},
        "bytes_moved": 201326592, "floor_us": 60.0559, "implausible": true, "achieved_bandwidth_gbs": 3660.5,
        "flops": 33554432})")
                                       .object();
    const RowId kernel = m_kernel.value(u"v7_float4_streaming"_s);
    Measurement m = measure::measurementFromCase(caseResult, measure::CaseContext {}, kernel, m_h100);
    QCOMPARE(m.counters.value(u"floor_us"_s).toDouble(), 60.0559);
    QCOMPARE(m.counters.value(u"implausible"_s).toBool(), true);
    {
        auto store = Store::open(m_path);
        QVERIFY(store);
        QVERIFY(MeasurementRepo(**store).insert(m));
    }
    auto store = Store::open(m_path, Store::Mode::ReadOnly);
    QVERIFY(store);
    auto marks = readImplausibleMarks(**store, {kernel});
    QVERIFY2(marks, qPrintable(marks.error()));
    QVERIFY(hasImplausibleTime(*marks, kernel, m_h100));
    const ImplausibleCase c = marks->value(kernel).first().cases.first();
    QVERIFY(c.fromWorker);
    QVERIFY(qAbs(c.floorNs - 60055.9) < 0.01);
    QVERIFY(qAbs(c.timeNs - 55000.0) < 0.01);
    // The roofline keeps the worker's floor too.
    auto data = readRooflineData(**store, kernel, kH100);
    QVERIFY(data);
    QVERIFY(data->series.first().cases.first().point->implausible);
    QVERIFY(qAbs(data->series.first().cases.first().point->floorNs - 60055.9) < 0.01);
}

void TestRooflineView::panelFollowsSelectionAndGpu()
{
    StoreSession session;
    Selection selection;
    RooflinePanel panel(&session, &selection);
    QVERIFY(test::openSession(session, m_path));
    QVERIFY(panel.view()->message().startsWith(u"Choose a kernel in the Candidates table"_s));
    // The window's kernel and GPU: the kernel's points on the H100.
    selection.setHardwareName(kH100);
    selection.setPair(m_kernel.value(u"v3_float4_unroll"_s), m_kernel.value(u"v0_naive"_s));
    QTRY_COMPARE(panel.view()->data().kernelId, m_kernel.value(u"v3_float4_unroll"_s));
    QVERIFY(panel.view()->message().isEmpty());
    QCOMPARE(panel.view()->plottedPoints().size(), 6);
    // Another GPU chosen in the window: the same kernel against that GPU, which has no known bandwidth.
    selection.setHardwareName(u"Mystery GPU"_s);
    QTRY_VERIFY(panel.view()->message().startsWith(u"The peak memory bandwidth of Mystery GPU is not known"_s));
    // No kernel: the empty state again.
    selection.setPair(0, 0);
    QTRY_VERIFY(panel.view()->message().startsWith(u"Choose a kernel in the Candidates table"_s));
    session.close();
    QTRY_COMPARE(panel.view()->message(), u"No store is open."_s);
}

void TestRooflineView::loaderReloadsOnlyOnChangesItDraws()
{
    StoreSession session;
    Selection selection;
    RooflineLoader loader(&session, &selection);
    QSignalSpy loaded(&loader, &RooflineLoader::loaded);
    QVERIFY(test::openSession(session, m_path));
    selection.setHardwareName(kH100);
    selection.setPair(m_kernel.value(u"v3_float4_unroll"_s), m_kernel.value(u"v0_naive"_s));
    QTRY_COMPARE(loaded.size(), 1);
    QVERIFY(!loader.isLoading());

    // A reload starts its read at once (isLoading); none of these touches v3, its parent v2 or its reference v0.
    using Kind = StoreChange::Kind;
    const RowId other = m_kernel.value(u"v9_grid_2d"_s);
    for (const StoreChange &change : {StoreChange::of(Kind::Measurements, {other}),
             StoreChange::of(Kind::Forecasts, {m_kernel.value(u"v3_float4_unroll"_s)}),
             StoreChange::of(Kind::Forecasters, {1}), StoreChange::of(Kind::Lessons, {1}),
             StoreChange::of(Kind::Searches, {1}, {other})}) {
        session.announce(change);
        session.flushChanges();
        QVERIFY2(!loader.isLoading(), qPrintable(u"reloaded on change kind %1"_s.arg(int(change.kind))));
    }
    QCOMPARE(loaded.size(), 1);

    // A measurement of the parent, of the reference, a deletion: each may move a point, so the roofline is read again.
    for (const StoreChange &change : {StoreChange::of(Kind::Measurements, {m_kernel.value(u"v2_float4"_s)}),
             StoreChange::of(Kind::Measurements, {m_kernel.value(u"v0_naive"_s), other}),
             StoreChange::of(Kind::Removed)}) {
        const qsizetype before = loaded.size();
        session.announce(change);
        session.flushChanges();
        QVERIFY2(loader.isLoading(), qPrintable(u"no reload on change kind %1"_s.arg(int(change.kind))));
        QTRY_COMPARE(loaded.size(), before + 1);
    }
    QCOMPARE(loaded.last().first().value<RooflineData>().kernelId, m_kernel.value(u"v3_float4_unroll"_s));
}

QTEST_MAIN(TestRooflineView)
#include "tst_roofline_view.moc"
