// Offscreen tests of CalibrationView over a real store (the shipped sample bundle imported into a temporary file):
// its tabs, the forecaster and pair choices reaching every plot's data, the τ slider's operating point, the drill-down
// from a confusion cell into the shared Selection, the plots' export actions (through their file dialogs) and a
// palette switch.
#include "core/interop/interop.h"
#include "core/measure/measure_plan.h"
#include "core/metrics/selective.h"
#include "core/session/calibration_data.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/measurement_repo.h"
#include "core/store/scored_pairs.h"
#include "core/store/store.h"
#include "widgets/calibration/budget_curve_plot.h"
#include "widgets/calibration/calibration_view.h"
#include "widgets/calibration/confusion_plot.h"
#include "widgets/calibration/cumulative_reliability_plot.h"
#include "widgets/calibration/ordinal_view.h"
#include "widgets/calibration/reliability_plot.h"
#include "widgets/calibration/risk_coverage_plot.h"
#include "widgets/candidates/drill_pairs_view.h"
#include "widgets/common/color_scheme.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <cmath>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

using metrics::ScoredRow;

const QString kCostModel = u"costmodel"_s;
const QString kHeldOut = u"costmodel-heldout"_s;

// The combo box a view labels with `text` (its buddy), as a user finds it.
QComboBox *comboLabelled(const QWidget *view, const QString &text)
{
    for (QLabel *label : view->findChildren<QLabel *>()) {
        if (label->text() == text)
            return qobject_cast<QComboBox *>(label->buddy());
    }
    return nullptr;
}

void choose(QComboBox *box, const QString &text)
{
    const int index = box->findText(text);
    QVERIFY2(index >= 0, qPrintable(u"no entry '%1'"_s.arg(text)));
    box->setCurrentIndex(index);
}

// Counts worked out from the rows themselves, independently of the reports the plots draw.
int maxProbBucket(const ScoredRow &row)
{
    return metrics::reliabilityBucket(bins::confidence(bins::ConfidenceScore::MaxProb, row.p, *row.predictedBin));
}

struct Expected
{
    std::vector<ScoredRow> rows; // the forecaster's rows
    std::array<qint64, metrics::kReliabilityBuckets> bucketCounts {};
    std::array<std::array<qint64, bins::kBinCount>, bins::kBinCount> confusion {}; // [true - 1][predicted - 1]
};

Expected expectedFor(const CalibrationSnapshot &snapshot, RowId forecaster, metrics::Comparison comparison)
{
    Expected e;
    for (const ScoredRow &row : snapshot.metrics.rowsFor(comparison)) {
        if (row.forecasterId != forecaster)
            continue;
        e.rows.push_back(row);
        if (!row.parsed || !row.predictedBin)
            continue;
        ++e.bucketCounts[std::size_t(maxProbBucket(row))];
        ++e.confusion[std::size_t(row.trueBin - 1)][std::size_t(*row.predictedBin - 1)];
    }
    return e;
}

RowId forecasterId(const CalibrationSnapshot &snapshot, const QString &name)
{
    for (const ScoredPairsForecaster &f : snapshot.pairs.forecasters) {
        if (f.name == name)
            return f.id;
    }
    return 0;
}

// What the view shows for a forecaster: its name, as every view and the command line show it (never a second,
// display name).
QString labelOf(const CalibrationSnapshot &snapshot, const QString &name)
{
    for (const ScoredPairsForecaster &f : snapshot.pairs.forecasters) {
        if (f.name == name)
            return f.name;
    }
    return name;
}

// Every axis of every axis rect (a confusion plot has one per forecaster) in `color`, ticks and labels included.
bool axesDrawnIn(const PlotWidget *plot, const QColor &color)
{
    int axes = 0;
    for (QCPAxisRect *rect : plot->plot()->axisRects()) {
        for (QCPAxis *axis : rect->axes()) {
            if (axis->basePen().color() != color || axis->tickLabelColor() != color)
                return false;
            ++axes;
        }
    }
    return axes > 0;
}

// Accepts the next file dialog with `path` once it is open (the export actions ask for the file in one).
void acceptNextFileDialog(const QString &path, bool *seen)
{
    auto *timer = new QTimer;
    timer->setInterval(5);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, path, seen]() {
        auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        *seen = true;
        dialog->selectFile(path);
        static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept is protected; QDialog's is the public slot
        timer->deleteLater();
    });
    timer->start();
}

} // namespace

class TestCalibrationView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;

    struct Fixture
    {
        StoreSession session;
        Selection selection;
        CalibrationData data {&session};
        CalibrationView view {&data, &selection};
    };

    std::unique_ptr<Fixture> load()
    {
        auto f = std::make_unique<Fixture>();
        CalibrationRequest request;
        request.bootstrapResamples = 20; // intervals drawn, cheaply
        f->data.setRequest(request);
        f->view.resize(1100, 760);
        f->view.show();
        f->session.open(m_path);
        return f;
    }

    static bool loaded(const Fixture &f) { return f.data.snapshot()->generation > 0 && !f.data.isLoading(); }

    // Every plot draws exactly `forecasters` (by name, in order) with the data of their rows under `comparison`.
    static void checkPlots(const Fixture &f, const QStringList &forecasters, metrics::Comparison comparison);

private Q_SLOTS:
    void initTestCase();
    void tabsAndChoices();
    void choosingForecastersUpdatesEveryPlot();
    void pairsChoiceUpdatesEveryPlot();
    void sliderUpdatesOperatingPoint();
    void confusionDrillDownReachesSelection();
    void exportActionsWriteFiles_data();
    void exportActionsWriteFiles();
    void paletteSwitchRecolours();
    void replayedTruthsAreMarked();
};

void TestCalibrationView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_path = m_dir.filePath(u"sample.gpuf"_s);
    auto store = Store::open(m_path);
    QVERIFY2(store.ok(), qPrintable(store.error()));
    const QString bundle = QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl");
    auto report = interop::importFiles(**store, {bundle});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QVERIFY(report->total(u"forecast"_s).added > 1000);
    QVERIFY(report->total(u"measurement"_s).added > 100);
}

void TestCalibrationView::tabsAndChoices()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 30000);
    QVERIFY2(f->data.snapshot()->error.isEmpty(), qPrintable(f->data.snapshot()->error));
    QTabWidget *tabs = f->view.tabs();
    QCOMPARE(tabs->count(), 6);
    const QList<QWidget *> plots {f->view.reliabilityPlot(), f->view.confusionPlot(), f->view.riskCoveragePlot(),
        f->view.budgetCurvePlot(), f->view.cumulativeReliabilityPlot(), f->view.ordinalView()};
    const QStringList titles {u"Reliability"_s, u"Confusion"_s, u"Risk–coverage"_s, u"Ranking utility"_s,
        u"Cumulative reliability"_s, u"Ordinal"_s};
    for (int i = 0; i < tabs->count(); ++i) {
        QCOMPARE(tabs->widget(i), plots[i]);
        QCOMPARE(tabs->tabText(i), titles[i]);
    }
    QComboBox *first = comboLabelled(&f->view, u"&Forecaster:"_s);
    QComboBox *second = comboLabelled(&f->view, u"Compare &with:"_s);
    QComboBox *pairs = comboLabelled(&f->view, u"&Pairs:"_s);
    QVERIFY(first && second && pairs);
    const auto snapshot = f->data.snapshot();
    QStringList shown;
    for (int i = 0; i < first->count(); ++i)
        shown.append(first->itemText(i));
    shown.sort();
    // The sample's demo student is a forecaster of kind 'human': offered like the cost models.
    QStringList expected {labelOf(*snapshot, kCostModel), labelOf(*snapshot, kHeldOut),
        labelOf(*snapshot, u"student:Demo Student (made up)"_s)};
    expected.sort();
    QCOMPARE(shown, expected);
    // The bundle gives them display names too; the views still show the one name the CLI takes.
    QVERIFY(!shown.contains(u"Built-in cost model"_s));
    QCOMPARE(second->count(), 4);
    QCOMPARE(second->itemData(0).value<RowId>(), RowId(0)); // "(none)"
    QCOMPARE(pairs->count(), 2);
    // Without a second forecaster every plot shows one series: the first one's.
    const QString firstName = first->currentText() == labelOf(*snapshot, kCostModel) ? kCostModel : kHeldOut;
    checkPlots(*f, {firstName}, metrics::Comparison::AllPairs);
}

void TestCalibrationView::checkPlots(const Fixture &f, const QStringList &forecasters, metrics::Comparison comparison)
{
    const std::shared_ptr<const CalibrationSnapshot> snapshot = f.data.snapshot();
    const ReliabilityPlot *reliability = f.view.reliabilityPlot();
    const ConfusionPlot *confusion = f.view.confusionPlot();
    const RiskCoveragePlot *risk = f.view.riskCoveragePlot();
    const BudgetCurvePlot *budget = f.view.budgetCurvePlot();
    for (const PlotWidget *plot : std::initializer_list<const PlotWidget *> {reliability, confusion, risk, budget})
        QCOMPARE(plot->input().series.size(), forecasters.size());
    for (int k = 0; k < forecasters.size(); ++k) {
        const RowId id = forecasterId(*snapshot, forecasters[k]);
        QVERIFY(id != 0);
        const Expected e = expectedFor(*snapshot, id, comparison);
        QVERIFY(!e.rows.empty());
        for (const PlotWidget *plot :
            std::initializer_list<const PlotWidget *> {reliability, confusion, risk, budget}) {
            QCOMPARE(plot->input().series[k].forecasterId, id);
            QCOMPARE(plot->input().series[k].name, labelOf(*snapshot, forecasters[k]));
            QCOMPARE(plot->input().series[k].rows->size(), e.rows.size());
        }

        // Reliability: one count bar per non-empty bucket, holding that bucket's count.
        int bar = 0;
        for (int b = 0; b < metrics::kReliabilityBuckets; ++b) {
            if (e.bucketCounts[std::size_t(b)] == 0)
                continue;
            QVERIFY(bar < reliability->countBars(k)->data()->size());
            QCOMPARE(reliability->countBars(k)->data()->at(bar)->value, double(e.bucketCounts[std::size_t(b)]));
            ++bar;
        }
        QCOMPARE(reliability->countBars(k)->data()->size(), bar);

        // Confusion (counts): every cell, true bin on the value axis.
        QCOMPARE(confusion->normalisation(), metrics::ConfusionNormalisation::None);
        for (int t = 1; t <= bins::kBinCount; ++t) {
            for (int p = 1; p <= bins::kBinCount; ++p)
                QCOMPARE(confusion->colorMap(k)->data()->cell(p - 1, t - 1),
                    double(e.confusion[std::size_t(t - 1)][std::size_t(p - 1)]));
        }

        // Risk–coverage: the curve ends at full coverage with the rows' overall mismatch rate.
        const QCPGraph *curve = risk->curve(k);
        QVERIFY(curve && !curve->data()->isEmpty());
        const metrics::ThresholdOutcome all = metrics::applyThreshold(
            e.rows, bins::ConfidenceScore::MaxProb, -std::numeric_limits<double>::infinity(), {});
        QCOMPARE((curve->data()->constEnd() - 1)->key, 1.0);
        QVERIFY(std::abs((curve->data()->constEnd() - 1)->value - all.binaryMismatch) < 1e-12);

        // Ranking utility: one pooled curve, over this forecaster's pools.
        QVERIFY(budget->pooledCurve(k));
        QCOMPARE(budget->curves(k).pooled.pools, int(f.view.budgetCurvePlot()->input().series[k].report->pools.size()));
        QVERIFY(budget->curves(k).pooled.pools > 0);
    }
    QVERIFY(!reliability->accuracyBars(int(forecasters.size())));
    QVERIFY(!confusion->colorMap(int(forecasters.size())));
    QVERIFY(!risk->curve(int(forecasters.size())));
    QVERIFY(!budget->pooledCurve(int(forecasters.size())));
}

void TestCalibrationView::choosingForecastersUpdatesEveryPlot()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 30000);
    QComboBox *first = comboLabelled(&f->view, u"&Forecaster:"_s);
    QComboBox *second = comboLabelled(&f->view, u"Compare &with:"_s);
    const auto snapshot = f->data.snapshot();
    const QString costModel = labelOf(*snapshot, kCostModel);
    const QString heldOut = labelOf(*snapshot, kHeldOut);

    choose(first, heldOut);
    checkPlots(*f, {kHeldOut}, metrics::Comparison::AllPairs);
    choose(second, costModel);
    checkPlots(*f, {kHeldOut, kCostModel}, metrics::Comparison::AllPairs);
    choose(first, costModel);
    choose(second, heldOut);
    checkPlots(*f, {kCostModel, kHeldOut}, metrics::Comparison::AllPairs);
    // The same forecaster twice is drawn once.
    choose(second, costModel);
    checkPlots(*f, {kCostModel}, metrics::Comparison::AllPairs);
    second->setCurrentIndex(0);
    checkPlots(*f, {kCostModel}, metrics::Comparison::AllPairs);

    // The programmatic entry point does the same, and the boxes follow it.
    f->view.setForecasters(forecasterId(*snapshot, kHeldOut), forecasterId(*snapshot, kCostModel));
    QCOMPARE(first->currentText(), heldOut);
    QCOMPARE(second->currentText(), costModel);
    checkPlots(*f, {kHeldOut, kCostModel}, metrics::Comparison::AllPairs);
}

void TestCalibrationView::pairsChoiceUpdatesEveryPlot()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 30000);
    const auto snapshot = f->data.snapshot();
    // The two forecasters do not forecast the same pairs, or the choice would prove nothing.
    QVERIFY(snapshot->metrics.samePairRows.size() < snapshot->metrics.rows.size());
    f->view.setForecasters(forecasterId(*snapshot, kCostModel), forecasterId(*snapshot, kHeldOut));
    choose(comboLabelled(&f->view, u"&Pairs:"_s), u"on the pairs both forecast"_s);
    // "Both" is the two forecasters shown: their pairs in common are read for them.
    QTRY_VERIFY_WITH_TIMEOUT(loaded(*f) && f->data.snapshot()->request.compared.size() == 2, 30000);
    checkPlots(*f, {kCostModel, kHeldOut}, metrics::Comparison::ComparedPairs);
    // Both series hold the same pairs (ScoredRow::pairId, which the store's rows key by candidate).
    std::array<QSet<qint64>, 2> pairIds;
    for (int k = 0; k < 2; ++k) {
        for (const ScoredRow &row : *f->view.reliabilityPlot()->input().series[k].rows)
            pairIds[std::size_t(k)].insert(row.pairId);
    }
    QVERIFY(!pairIds[0].isEmpty());
    QCOMPARE(pairIds[0], pairIds[1]);
    f->view.setComparison(metrics::Comparison::AllPairs);
    checkPlots(*f, {kCostModel, kHeldOut}, metrics::Comparison::AllPairs);
}

void TestCalibrationView::sliderUpdatesOperatingPoint()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 30000);
    const auto snapshot = f->data.snapshot();
    f->view.setForecasters(forecasterId(*snapshot, kCostModel), forecasterId(*snapshot, kHeldOut));
    f->view.tabs()->setCurrentWidget(f->view.riskCoveragePlot());
    RiskCoveragePlot *risk = f->view.riskCoveragePlot();
    QSlider *slider = risk->thresholdSlider();
    const metrics::MetricsOptions options = snapshot->request.options();
    QString previous;
    for (int value : {0, 250, 500, 750, 1000}) {
        slider->setValue(value);
        const double tau = double(value) / RiskCoveragePlot::kSliderSteps;
        QCOMPARE(risk->threshold(), tau);
        const QString text = risk->operatingPointText();
        for (int k = 0; k < 2; ++k) {
            const QString name = k == 0 ? kCostModel : kHeldOut;
            const Expected e = expectedFor(*snapshot, forecasterId(*snapshot, name), metrics::Comparison::AllPairs);
            const metrics::ThresholdOutcome outcome
                = metrics::applyThreshold(e.rows, bins::ConfidenceScore::MaxProb, tau, options);
            const QString coverage = u"%1: coverage %2%"_s.arg(
                labelOf(*snapshot, name), QString::number(100.0 * outcome.coverage, 'f', 1));
            QVERIFY2(text.contains(coverage), qPrintable(text + u" lacks "_s + coverage));
            const QString sent = u"%1 GPU measurements"_s.arg(QLocale().toString(outcome.total - outcome.predicted));
            QVERIFY2(text.contains(sent), qPrintable(text + u" lacks "_s + sent));
            QCOMPARE(risk->operatingMarker(k)->data()->at(0)->key, outcome.coverage);
        }
        QVERIFY2(text != previous, qPrintable(text)); // every step moves the operating point on this data
        previous = text;
    }
}

void TestCalibrationView::confusionDrillDownReachesSelection()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 30000);
    const auto snapshot = f->data.snapshot();
    const RowId costModel = forecasterId(*snapshot, kHeldOut); // thousands of forecasts: full cells
    f->view.setForecasters(costModel);
    f->view.tabs()->setCurrentWidget(f->view.confusionPlot());
    ConfusionPlot *confusion = f->view.confusionPlot();
    QVERIFY(QTest::qWaitForWindowExposed(&f->view));
    confusion->plot()->replot(QCustomPlot::rpImmediateRefresh);

    // The list sits in a dock behind another tab, as in the main window.
    QMainWindow window;
    auto *other = new QDockWidget(u"Candidates"_s, &window);
    other->setWidget(new QLabel(u"the candidate table"_s));
    auto *dock = new QDockWidget(u"Drill-down"_s, &window);
    auto *list = new DrillPairsView(nullptr, &f->selection);
    dock->setWidget(list);
    window.addDockWidget(Qt::BottomDockWidgetArea, other);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    window.tabifyDockWidget(other, dock);
    window.resize(900, 500);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    other->raise();
    QTRY_VERIFY(list->visibleRegion().isEmpty());

    // The fullest off-diagonal cell: a cell a researcher would click to see what went wrong.
    const Expected e = expectedFor(*snapshot, costModel, metrics::Comparison::AllPairs);
    int trueBin = 0, predictedBin = 0;
    qint64 most = 0;
    for (int t = 1; t <= bins::kBinCount; ++t) {
        for (int p = 1; p <= bins::kBinCount; ++p) {
            const qint64 n = e.confusion[std::size_t(t - 1)][std::size_t(p - 1)];
            if (t != p && n > most) {
                most = n;
                trueBin = t;
                predictedBin = p;
            }
        }
    }
    QVERIFY(most > 1);
    // The cell's forecasts as (reference, candidate, hardware), in the rows' order.
    QList<std::tuple<RowId, RowId, RowId>> expected;
    for (const ScoredRow &row : e.rows) {
        if (row.parsed && row.trueBin == trueBin && row.predictedBin == predictedBin)
            expected.append({RowId(row.poolKey), RowId(row.pairId), RowId(row.hardwareId)});
    }
    QCOMPARE(expected.size(), most);
    // A problem chosen in the tree narrows the candidate table, never the cell's pairs.
    f->selection.setScope(snapshot->pairs.problems.first().id);

    QSignalSpy filtered(&f->selection, &Selection::filterChanged);
    QSignalSpy drilled(&f->selection, &Selection::drillPairsChanged);
    QTest::mouseClick(confusion->plot(), Qt::LeftButton, {}, confusion->cellCenter(0, trueBin, predictedBin));
    QCOMPARE(drilled.count(), 1);
    QCOMPARE(filtered.count(), 0); // the candidate table is not turned into a list of kernels
    const QList<DrillPair> pairs = f->selection.drillPairs();
    QCOMPARE(pairs.size(), most); // exactly as many as the cell says
    QList<std::tuple<RowId, RowId, RowId>> got;
    for (const DrillPair &p : pairs) {
        QCOMPARE(p.trueBin, trueBin);
        QCOMPARE(p.predictedBin, std::optional<int>(predictedBin));
        QVERIFY(!p.hardwareName.isEmpty()); // the sample's forecasts name their GPU
        got.append({p.referenceId, p.candidateId, p.hardwareId});
    }
    QCOMPARE(got, expected);
    QVERIFY2(
        f->selection.drillDescription().startsWith(u"true bin %1, predicted bin %2 (%3): %4 forecast"_s.arg(trueBin)
                                                       .arg(predictedBin)
                                                       .arg(labelOf(*snapshot, kHeldOut))
                                                       .arg(most)),
        qPrintable(f->selection.drillDescription()));
    // The first pair opens: the candidate and the kernel it was forecast against.
    QCOMPARE(f->selection.candidateId(), std::get<1>(expected.first()));
    QCOMPARE(f->selection.baselineId(), std::get<0>(expected.first()));

    // The list comes to the front with every pair, its bins as the cell says, the first row current.
    QTRY_VERIFY(!list->visibleRegion().isEmpty());
    QCOMPARE(list->model()->rowCount(), int(most));
    QAbstractItemModel *shown = list->tableView()->model();
    for (int row = 0; row < shown->rowCount(); ++row) {
        QVERIFY(shown->index(row, DrillPairsModel::TrueBinColumn)
                    .data()
                    .toString()
                    .startsWith(QString::number(trueBin) + u" · "_s));
        QVERIFY(shown->index(row, DrillPairsModel::PredictedBinColumn)
                    .data()
                    .toString()
                    .startsWith(QString::number(predictedBin) + u" · "_s));
    }
    QCOMPARE(list->tableView()->currentIndex().row(), 0);
    QVERIFY2(list->summaryText().contains(u": %1 forecast"_s.arg(most)), qPrintable(list->summaryText()));
    // Choosing another row shows that pair.
    const int last = shown->rowCount() - 1;
    list->tableView()->setCurrentIndex(shown->index(last, 0));
    const DrillPair &lastPair = pairs[last];
    QCOMPARE(f->selection.candidateId(), lastPair.candidateId);
    QCOMPARE(f->selection.baselineId(), lastPair.referenceId);
}

void TestCalibrationView::exportActionsWriteFiles_data()
{
    QTest::addColumn<int>("tab");
    QTest::addColumn<QString>("suffix");
    for (int tab = 0; tab < 5; ++tab) { // the four plots and the cumulative reliability; the Ordinal tab has no plot
        for (const char *suffix : {"png", "svg", "pdf"})
            QTest::addRow("tab %d %s", tab, suffix) << tab << QString::fromLatin1(suffix);
    }
}

void TestCalibrationView::exportActionsWriteFiles()
{
    QFETCH(int, tab);
    QFETCH(QString, suffix);
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 30000);
    const auto snapshot = f->data.snapshot();
    f->view.setForecasters(forecasterId(*snapshot, kCostModel), forecasterId(*snapshot, kHeldOut));
    f->view.tabs()->setCurrentIndex(tab);
    auto *plot = qobject_cast<PlotWidget *>(f->view.tabs()->widget(tab));
    QVERIFY(plot);
    QToolButton *button = nullptr;
    for (QToolButton *b : plot->findChildren<QToolButton *>()) {
        if (b->text() == QLatin1StringView("Export"))
            button = b;
    }
    QVERIFY(button && button->menu());
    QAction *action = nullptr;
    const QString prefix = suffix == QLatin1StringView("png") ? u"PNG"_s
        : suffix == QLatin1StringView("svg")                  ? u"SVG"_s
                                                              : u"PDF"_s;
    for (QAction *a : button->menu()->actions()) {
        if (a->text().startsWith(prefix))
            action = a;
    }
    QVERIFY(action);

    QTemporaryDir out;
    QVERIFY(out.isValid());
    const QString path = out.filePath(u"plot"_s); // the action adds the suffix the format needs
    bool dialogSeen = false;
    acceptNextFileDialog(path, &dialogSeen);
    action->trigger();
    QVERIFY(dialogSeen);
    QFile file(path + u'.' + suffix);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    QVERIFY2(file.size() > 1000, qPrintable(QString::number(file.size())));
    const QByteArray content = file.readAll();
    if (suffix == QLatin1StringView("png"))
        QVERIFY(content.startsWith("\x89PNG\r\n\x1a\n"));
    else if (suffix == QLatin1StringView("pdf"))
        QVERIFY(content.startsWith("%PDF-"));
    else
        QVERIFY(content.contains("<svg") && content.contains("</svg>"));
}

void TestCalibrationView::paletteSwitchRecolours()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 30000);
    const auto snapshot = f->data.snapshot();
    f->view.setForecasters(forecasterId(*snapshot, kCostModel), forecasterId(*snapshot, kHeldOut));
    f->view.setPalette(lightPalette());
    const QList<PlotWidget *> plots {f->view.reliabilityPlot(), f->view.confusionPlot(), f->view.riskCoveragePlot(),
        f->view.budgetCurvePlot(), f->view.cumulativeReliabilityPlot()};
    for (PlotWidget *plot : plots) {
        QVERIFY(!plot->colors().dark);
        QVERIFY(axesDrawnIn(plot, lightPalette().color(QPalette::Text)));
    }
    const QColor lightBars = f->view.reliabilityPlot()->accuracyBars(0)->pen().color();
    const QColor lightCurve = f->view.riskCoveragePlot()->curve(0)->pen().color();

    f->view.setPalette(darkPalette()); // reaches every tab, shown or not
    for (PlotWidget *plot : plots) {
        QVERIFY(plot->colors().dark);
        QVERIFY(axesDrawnIn(plot, darkPalette().color(QPalette::Text)));
    }
    QVERIFY(f->view.reliabilityPlot()->accuracyBars(0)->pen().color() != lightBars);
    QVERIFY(f->view.riskCoveragePlot()->curve(0)->pen().color() != lightCurve);
    // The two series stay apart in the dark palette too.
    QVERIFY(f->view.riskCoveragePlot()->curve(0)->pen().color() != f->view.riskCoveragePlot()->curve(1)->pen().color());
}

void TestCalibrationView::replayedTruthsAreMarked()
{
    // A copy of the store in which one candidate's runtimes on one GPU are replayed (as "Measure ▸ Replay" stores
    // them): the same numbers, so the same truths, but marked as resting on replays in the status and drill-downs.
    const QString path = m_dir.filePath(u"replayed.gpuf"_s);
    QVERIFY(QFile::copy(m_path, path));
    RowId candidate = 0, hardware = 0;
    QSet<RowId> expectedCandidates;
    qint64 expectedTruths = 0;
    {
        auto store = Store::open(path);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        auto before = loadScoredPairs(**store);
        QVERIFY2(before.ok(), qPrintable(before.error()));
        for (const ScoredPair &pair : before->pairs) {
            if (pair.truth == TruthSource::Measured && pair.hardwareId != 0) {
                candidate = pair.candidateId;
                hardware = pair.hardwareId;
                break;
            }
        }
        QVERIFY(candidate != 0);
        for (const ScoredPair &pair : before->pairs) {
            if (pair.truth == TruthSource::Measured && pair.hardwareId == hardware
                && (pair.candidateId == candidate || pair.referenceId == candidate)) {
                ++expectedTruths;
                expectedCandidates.insert(pair.candidateId);
            }
        }
        auto rows = measure::replayRows(**store, candidate, hardware);
        QVERIFY2(rows.ok(), qPrintable(rows.error()));
        Transaction transaction(**store);
        QVERIFY(transaction.begin());
        for (Measurement &m : *rows)
            QVERIFY(MeasurementRepo(**store).insert(m).ok());
        QVERIFY(transaction.commit());
    }

    Fixture f;
    f.view.resize(1100, 760);
    f.view.show();
    f.session.open(path);
    QTRY_VERIFY_WITH_TIMEOUT(loaded(f), 30000);
    const auto snapshot = f.data.snapshot();
    QCOMPARE(snapshot->pairs.replayedTruths(), expectedTruths);
    QVERIFY2(
        f.view.statusText().contains(u"↺ %1 scored forecast"_s.arg(expectedTruths)), qPrintable(f.view.statusText()));

    // The drill-down into the cell that holds the candidate says how many of its pairs rest on replays.
    const RowId costModel = forecasterId(*snapshot, kCostModel);
    f.view.setForecasters(costModel);
    f.view.tabs()->setCurrentWidget(f.view.confusionPlot());
    ConfusionPlot *confusion = f.view.confusionPlot();
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    confusion->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const Expected e = expectedFor(*snapshot, costModel, metrics::Comparison::AllPairs);
    const auto row = std::find_if(e.rows.begin(), e.rows.end(), [&](const ScoredRow &r) {
        return RowId(r.pairId) == candidate && r.hardwareId == qint64(hardware) && r.parsed;
    });
    QVERIFY(row != e.rows.end());
    QList<RowId> ids;
    for (const ScoredRow &r : e.rows) {
        if (r.parsed && r.trueBin == row->trueBin && r.predictedBin == row->predictedBin && !ids.contains(r.pairId))
            ids.append(RowId(r.pairId));
    }
    const int replayedInCell
        = int(std::count_if(ids.cbegin(), ids.cend(), [&](RowId id) { return expectedCandidates.contains(id); }));
    QVERIFY(replayedInCell >= 1);
    QTest::mouseClick(
        confusion->plot(), Qt::LeftButton, {}, confusion->cellCenter(0, row->trueBin, *row->predictedBin));
    QList<RowId> listed;
    for (const DrillPair &p : f.selection.drillPairs()) {
        if (!listed.contains(p.candidateId))
            listed.append(p.candidateId);
    }
    QCOMPARE(listed, ids);
    QVERIFY2(f.selection.drillDescription().endsWith(
                 u" · %1 with a truth replayed from stored runtimes ↺"_s.arg(replayedInCell)),
        qPrintable(f.selection.drillDescription()));
}

QTEST_MAIN(TestCalibrationView)
#include "tst_calibration_view.moc"
