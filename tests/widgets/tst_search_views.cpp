// The live search views, offscreen, on the fixed selective log (tests/search/search_log_builder.h): what the lineage
// tree draws and where, its clicks, zoom and pan; the progress curves; the per-step tables' rows and text; the
// calibration figures; the event tail's rows, its bound and its following of the end.
#include "../search/search_log_builder.h"

#include "core/search/lineage.h"
#include "widgets/common/color_scheme.h"
#include "widgets/plots/plot_qcustomplot.h"
#include "widgets/search/bin_colors.h"
#include "widgets/search/event_tail.h"
#include "widgets/search/lineage_canvas.h"
#include "widgets/search/lineage_view.h"
#include "widgets/search/progress_plot.h"
#include "widgets/search/search_calibration_view.h"
#include "widgets/search/step_models.h"
#include "widgets/search/step_view.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include <cmath>

using namespace gpuf;
using namespace gpuf::search;
using gpuf::testing::fixedSelectiveLog;

namespace {

SearchState fold(const QList<SearchEvent> &events)
{
    auto state = foldEvents(events);
    if (!state)
        qFatal("the log does not fold: %s", qPrintable(state.error()));
    return *state;
}

// The displayed text of one row of a model, columns joined by " | ".
QString rowText(const QAbstractItemModel *model, int row)
{
    QStringList cells;
    for (int c = 0; c < model->columnCount(); ++c)
        cells << model->index(row, c).data().toString();
    return cells.join(QStringLiteral(" | "));
}

bool closeColor(const QColor &a, const QColor &b, int tolerance = 40)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) <= tolerance;
}

} // namespace

class TestSearchViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void lineageShowsEveryNode();
    void lineageColoursFollowThePalette();
    void lineageClicksZoomAndPan();
    void lineageCullsWhenZoomedIn();
    void lineageFollowsGrowthUntilTheUserZooms();
    void lineageShowsTheMeasuredLineageAlone();
    void stepTablesSayWhenScoresAreUnknown();
    void legendNamesEveryMark();
    void progressCurvesAndAxis();
    void progressOverlaysAndExport();
    void stepTablesShowTheLatestStep();
    void stepTablesShowAChosenStep();
    void stepTablesUpdateIncrementally();
    void calibrationFigures();
    void eventTailIsBoundedAndFollowsTheEnd();
};

void TestSearchViews::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale::c());
    applyColorScheme(ColorScheme::Light);
}

void TestSearchViews::lineageShowsEveryNode()
{
    LineageView view;
    view.resize(900, 600);
    view.setSearch(fold(fixedSelectiveLog()));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    LineageCanvas *canvas = view.canvas();
    QCOMPARE(canvas->lineage().nodes.size(), 12);
    QCOMPARE(
        canvas->lineage().bestPath, (QStringList {QStringLiteral("seed"), QStringLiteral("a"), QStringLiteral("e")}));
    // Steps go left to right; children sit right of their parent, in the parent's order top to bottom.
    const auto at = [canvas](const char *id) { return canvas->nodePosition(QLatin1StringView(id)); };
    QVERIFY(at("seed").x() < at("a").x());
    QVERIFY(at("a").x() < at("e").x());
    QVERIFY(at("e").x() < at("h").x());
    QCOMPARE(at("a").x(), at("d").x());
    QVERIFY(at("a").y() < at("b").y());
    QVERIFY(at("b").y() < at("c").y());
    QVERIFY(at("h").y() < at("k").y());
    // Fitted: every node inside the widget.
    for (const LineageNode &n : canvas->lineage().nodes)
        QVERIFY2(canvas->rect().contains(canvas->nodePosition(n.id).toPoint()), qPrintable(n.id));
    canvas->grab();
    QCOMPARE(canvas->paintedNodes(), 12);
    QCOMPARE(canvas->paintedEdges(), 11);
    // Measured: the 7 proposals with a speedup, as many as the live line's successful GPU evaluations (the seed's 1×
    // needs none).
    QVERIFY2(view.summaryText().contains(QStringLiteral("12 node(s), 7 measured, 8 in the archive")),
        qPrintable(view.summaryText()));
    const SearchState folded = fold(fixedSelectiveLog());
    QCOMPARE(folded.gpuEvaluations - folded.unsuccessfulEvaluations, 7);
    QVERIFY(view.summaryText().contains(QStringLiteral("best 3.50×")));
    // The tooltip names the node, its kernel and what is known of it.
    const QString tip = canvas->toolTipFor(QStringLiteral("e"));
    QVERIFY(tip.startsWith(QStringLiteral("e\n")));
    QVERIFY(tip.contains(QStringLiteral("Speedup: 3.50× (bin 7)")));
    QVERIFY(tip.contains(QStringLiteral("Forecast: bin 7 at 80% (expected bin 7.00)")));
    QVERIFY(tip.contains(QStringLiteral("best so far")));
    QVERIFY(canvas->toolTipFor(QStringLiteral("i")).contains(QStringLiteral("forecast only")));
    QVERIFY(canvas->toolTipFor(QStringLiteral("b")).contains(QStringLiteral("vetoed")));
    QVERIFY(canvas->toolTipFor(QStringLiteral("nope")).isEmpty());
    // Hovering shows it.
    const QPoint e = canvas->nodePosition(QStringLiteral("e")).toPoint();
    QHelpEvent help(QEvent::ToolTip, e, canvas->mapToGlobal(e));
    QApplication::sendEvent(canvas, &help);
    QTRY_COMPARE(QToolTip::text(), tip);
}

void TestSearchViews::lineageColoursFollowThePalette()
{
    LineageCanvas canvas;
    canvas.resize(700, 500);
    canvas.setLineage(buildLineage(fold(fixedSelectiveLog())));
    canvas.zoomBy(3.0, canvas.nodePosition(QStringLiteral("a"))); // nodes large enough to sample their fill
    const QPoint a = canvas.nodePosition(QStringLiteral("a")).toPoint();
    QImage light = canvas.grab().toImage();
    QVERIFY2(closeColor(light.pixelColor(a), binColor(6, false)), qPrintable(light.pixelColor(a).name()));
    canvas.setPalette(darkPalette());
    QImage dark = canvas.grab().toImage();
    QVERIFY2(closeColor(dark.pixelColor(a), binColor(6, true)), qPrintable(dark.pixelColor(a).name()));
    QVERIFY(!closeColor(light.pixelColor(a), dark.pixelColor(a)));
    // The background follows too.
    QVERIFY(closeColor(dark.pixelColor(2, canvas.height() - 2), darkPalette().color(QPalette::Base)));
}

void TestSearchViews::lineageClicksZoomAndPan()
{
    LineageView view;
    view.resize(900, 600);
    view.setSearch(fold(fixedSelectiveLog()));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    LineageCanvas *canvas = view.canvas();
    QSignalSpy activated(&view, &LineageView::nodeActivated);
    QSignalSpy menu(&view, &LineageView::nodeContextMenuRequested);
    const QPoint b = canvas->nodePosition(QStringLiteral("b")).toPoint();
    QTest::mouseClick(canvas, Qt::LeftButton, {}, b);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.first().first().toString(), QStringLiteral("b"));
    QCOMPARE(view.selectedNode(), QStringLiteral("b"));
    // A click on empty space selects nothing new.
    QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(3, canvas->height() - 3));
    QCOMPARE(activated.size(), 1);
    // Right click: the context menu request names the node and a global position.
    QContextMenuEvent context(QContextMenuEvent::Mouse, canvas->nodePosition(QStringLiteral("h")).toPoint(),
        canvas->mapToGlobal(canvas->nodePosition(QStringLiteral("h")).toPoint()));
    QApplication::sendEvent(canvas, &context);
    QCOMPARE(menu.size(), 1);
    QCOMPARE(menu.first().first().toString(), QStringLiteral("h"));
    // Selection from outside.
    view.selectNode(QStringLiteral("k"));
    QCOMPARE(view.selectedNode(), QStringLiteral("k"));
    view.selectNode(QStringLiteral("no such node"));
    QCOMPARE(view.selectedNode(), QString());

    // Zoom: the wheel zooms around the pointer, keeping the node under it in place.
    const double before = canvas->zoom();
    const QPointF e = canvas->nodePosition(QStringLiteral("e"));
    QWheelEvent wheel(
        e, canvas->mapToGlobal(e), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(canvas, &wheel);
    QVERIFY(canvas->zoom() > before * 1.5);
    QVERIFY((canvas->nodePosition(QStringLiteral("e")) - e).manhattanLength() < 1.0);
    QTest::keyClick(canvas, Qt::Key_Minus);
    QVERIFY(canvas->zoom() < before * 1.5);
    QTest::keyClick(canvas, Qt::Key_0);
    QCOMPARE(canvas->zoom(), before);
    // Pan: a drag moves every node by the drag, and selects nothing.
    const QPointF seed = canvas->nodePosition(QStringLiteral("seed"));
    const QPoint start(canvas->width() / 2, 5);
    QTest::mousePress(canvas, Qt::LeftButton, {}, start);
    QTest::mouseMove(canvas, start + QPoint(30, 20));
    QTest::mouseMove(canvas, start + QPoint(60, 40));
    QTest::mouseRelease(canvas, Qt::LeftButton, {}, start + QPoint(60, 40));
    QCOMPARE(canvas->nodePosition(QStringLiteral("seed")), seed + QPointF(60, 40));
    QCOMPARE(activated.size(), 1);
}

void TestSearchViews::lineageCullsWhenZoomedIn()
{
    LineageCanvas canvas;
    canvas.resize(600, 400);
    canvas.setLineage(buildLineage(fold(fixedSelectiveLog())));
    canvas.grab();
    QCOMPARE(canvas.paintedNodes(), 12);
    // Zoomed on the seed at the left edge: the later steps fall outside and are not drawn.
    canvas.zoomBy(8.0, canvas.nodePosition(QStringLiteral("seed")));
    canvas.grab();
    QVERIFY(canvas.paintedNodes() > 0);
    QVERIFY2(canvas.paintedNodes() < 12, qPrintable(QString::number(canvas.paintedNodes())));
}

void TestSearchViews::lineageFollowsGrowthUntilTheUserZooms()
{
    const QList<SearchEvent> events = fixedSelectiveLog();
    const qsizetype firstStepEnd = 30;
    LineageView view;
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    SearchState state = fold(events.mid(0, firstStepEnd));
    view.setSearch(state);
    const double early = view.canvas()->zoom();
    for (const SearchEvent &e : events.mid(firstStepEnd))
        QVERIFY(applyEvent(state, e));
    view.applyEvents(state, events.mid(firstStepEnd));
    // Untouched, the view refits as the tree grows: every node stays in sight.
    QCOMPARE(view.canvas()->lineage().nodes.size(), 12);
    for (const LineageNode &n : view.canvas()->lineage().nodes)
        QVERIFY2(view.canvas()->rect().contains(view.canvas()->nodePosition(n.id).toPoint()), qPrintable(n.id));
    QVERIFY(view.canvas()->zoom() <= early);
    // Once the user zooms, new events leave the zoom and the place alone.
    view.canvas()->zoomIn();
    const double chosen = view.canvas()->zoom();
    const QPointF seed = view.canvas()->nodePosition(QStringLiteral("seed"));
    view.applyEvents(state, events.mid(events.size() - 1));
    QCOMPARE(view.canvas()->zoom(), chosen);
    QCOMPARE(view.canvas()->nodePosition(QStringLiteral("seed")), seed);
    // A search set afresh is fitted again.
    view.setSearch(state);
    QVERIFY(view.canvas()->zoom() < chosen);
    for (const LineageNode &n : view.canvas()->lineage().nodes)
        QVERIFY2(view.canvas()->rect().contains(view.canvas()->nodePosition(n.id).toPoint()), qPrintable(n.id));
}

void TestSearchViews::lineageShowsTheMeasuredLineageAlone()
{
    LineageView view;
    view.resize(700, 500);
    view.setSearch(fold(fixedSelectiveLog()));
    view.selectNode(QStringLiteral("e"));
    view.setScope(LineageScope::Measured);
    QCOMPARE(view.canvas()->lineage().nodes.size(), 8);
    QVERIFY(!view.canvas()->lineage().find(QStringLiteral("i")));
    QCOMPARE(view.selectedNode(), QStringLiteral("e")); // the selection survives the switch
    // The summary still counts the whole search.
    QVERIFY(view.summaryText().startsWith(QStringLiteral("12 node(s)")));
    view.setScope(LineageScope::All);
    QCOMPARE(view.canvas()->lineage().nodes.size(), 12);
}

void TestSearchViews::legendNamesEveryMark()
{
    LineageLegend legend;
    legend.resize(500, 100);
    const QStringList entries = legend.entries();
    for (const char *text : {"seed", "measured", "forecast only", "deferred", "failed", "injected", "in progress",
             "best path", "pinned", "vetoed"})
        QVERIFY2(entries.contains(QLatin1StringView(text)), text);
    QCOMPARE(entries.filter(QRegularExpression(QStringLiteral("^\\d: "))).size(), 8);
    // Narrow: the entries wrap onto more lines, so the legend grows.
    QVERIFY(legend.heightForWidth(300) > legend.heightForWidth(1400));
}

void TestSearchViews::progressCurvesAndAxis()
{
    ProgressPlot plot;
    plot.setSearch(fold(fixedSelectiveLog()), QStringLiteral("selective"));
    QCOMPARE(plot.series().size(), 1);
    QCPGraph *g = plot.graph(0);
    QVERIFY(g);
    QCOMPARE(g->lineStyle(), QCPGraph::lsStepLeft);
    QCOMPARE(g->data()->size(), 9);
    QCOMPARE((g->data()->constEnd() - 1)->key, 8.0);
    QCOMPARE((g->data()->constEnd() - 1)->value, 3.5);
    QCOMPARE(plot.plot()->xAxis->label(), QStringLiteral("GPU evaluations"));
    plot.axisChooser()->setCurrentIndex(1);
    QCOMPARE(plot.axis(), ProgressPlot::Axis::Candidates);
    QCOMPARE(plot.graph(0)->data()->size(), 4);
    QCOMPARE((plot.graph(0)->data()->constEnd() - 1)->key, 10.0);
    QCOMPARE(plot.plot()->xAxis->label(), QStringLiteral("candidates considered"));
}

void TestSearchViews::progressOverlaysAndExport()
{
    ProgressPlot plot;
    const SearchState state = fold(fixedSelectiveLog());
    ProgressSeries other {QStringLiteral("standard, same seed"), progressCurve(state), false};
    other.curve.byEvaluations = {{0, 1.0}, {4, 1.8}, {8, 2.0}};
    plot.setSeries({other});
    plot.setSearch(state, QStringLiteral("selective (this search)"));
    // The live series goes first and keeps the overlays.
    QCOMPARE(plot.series().size(), 2);
    QCOMPARE(plot.series().first().name, QStringLiteral("selective (this search)"));
    QCOMPARE(plot.plot()->legend->itemCount(), 2);
    // The legend has a row of its own above the curves, so it hides none of them.
    plot.resize(600, 400);
    plot.plot()->replot();
    QCOMPARE(plot.plot()->plotLayout()->element(0, 0), plot.plot()->legend);
    QVERIFY(plot.plot()->legend->outerRect().bottom() <= plot.plot()->axisRect()->outerRect().top());
    QCOMPARE(plot.graph(1)->name(), QStringLiteral("standard, same seed"));
    QCOMPARE(plot.graph(1)->data()->size(), 3);
    QVERIFY(plot.seriesColor(0) != plot.seriesColor(1));
    // A new state replaces the live curve only.
    plot.applyEvents(state, fixedSelectiveLog().mid(0, 1));
    QCOMPARE(plot.series().size(), 2);
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("progress.png"));
    QVERIFY(plot.exportTo(png));
    QVERIFY(QFileInfo(png).size() > 0);
    QVERIFY(!plot.exportTo(dir.filePath(QStringLiteral("progress.txt"))));
}

void TestSearchViews::stepTablesShowTheLatestStep()
{
    StepView view;
    QAbstractItemModelTester parentsTester(view.parentsModel());
    QAbstractItemModelTester proposalsTester(view.proposalsModel());
    const QList<SearchEvent> events = fixedSelectiveLog();
    view.setSearch(fold(events), events);
    QVERIFY(view.followsLatest());
    QCOMPARE(view.shownStep(), 2);
    const QAbstractItemModel *shown = view.proposalsView()->model();
    QCOMPARE(shown->rowCount(), 6);
    QCOMPARE(rowText(shown, 0),
        QStringLiteral("h | e | pool | 6 | 90% | 2.48× | measured: selected | 2.20× | 6 | ok, joined the archive"));
    QCOMPARE(rowText(shown, 1),
        QStringLiteral(
            "i | e | pool | 4 | 60% | 1.22× | deferred: ranked below the GPU budget | — | — | not measured"));
    QCOMPARE(rowText(shown, 2),
        QStringLiteral("j | e | pool | — | — | — | deferred: duplicate of measured code | — | — | not measured"));
    QCOMPARE(rowText(shown, 3),
        QStringLiteral("g | a | pool | failed | — | — | measured: from the queue (confidence below τ) (proposed in "
                       "step 1) | 0.90× | 3 | ok, joined the archive"));
    QCOMPARE(shown->index(4, StepProposalsModel::DecisionColumn).data().toString(),
        QStringLiteral("measured: forced by the user (proposed in step 0)"));
    QCOMPARE(rowText(shown, 5),
        QStringLiteral(
            "k | e | manual | — | — | — | measured: injected by the user | 1.50× | 5 | ok, joined the archive"));
    QCOMPARE(rowText(view.parentsView()->model(), 0),
        QStringLiteral("e | 3.50× | 3.500 | %1 | %2 | 0 | 0.400 | 1 of 4")
            .arg(2.3 * 0.4 * std::sqrt(3.0), 0, 'f', 3)
            .arg(3.5 + 2.3 * 0.4 * std::sqrt(3.0), 0, 'f', 3));
    QVERIFY(view.summaryText().contains(QStringLiteral("4 sent to the GPU")));
    QVERIFY(view.summaryText().contains(QStringLiteral("τ = 0.5")));
    // Sorting by speedup (raw numbers) puts the best first when descending.
    view.proposalsView()->sortByColumn(StepProposalsModel::SpeedupColumn, Qt::DescendingOrder);
    QCOMPARE(shown->index(0, StepProposalsModel::NodeColumn).data().toString(), QStringLiteral("h"));
    QCOMPARE(shown->index(1, StepProposalsModel::NodeColumn).data().toString(), QStringLiteral("k"));
    // Selection from outside selects the row; a double click reports the node.
    view.selectNode(QStringLiteral("g"));
    const QModelIndexList selected = view.proposalsView()->selectionModel()->selectedRows();
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.first().data(StepProposalsModel::NodeIdRole).toString(), QStringLiteral("g"));
}

void TestSearchViews::stepTablesShowAChosenStep()
{
    StepView view;
    const QList<SearchEvent> events = fixedSelectiveLog();
    view.setSearch(fold(events), events);
    view.showStep(0);
    QVERIFY(!view.followsLatest());
    const QAbstractItemModel *shown = view.proposalsView()->model();
    QCOMPARE(shown->rowCount(), 4);
    QCOMPARE(rowText(shown, 0),
        QStringLiteral("a | seed | pool | 6 | 70% | 2.34× | measured: selected | 2.50× | 6 | ok, joined the archive"));
    QCOMPARE(shown->index(1, StepProposalsModel::ConfidenceColumn).data().toString(), QStringLiteral("40% (< τ)"));
    QCOMPARE(shown->index(1, StepProposalsModel::DecisionColumn).data().toString(),
        QStringLiteral("measured: confidence below τ"));
    QCOMPARE(shown->index(2, StepProposalsModel::DecisionColumn).data().toString(),
        QStringLiteral("deferred: ranked below the GPU budget (measured in step 2)"));
    QCOMPARE(rowText(shown, 3), QStringLiteral("d | seed | — | — | — | — | no code | — | — | no code"));
    QCOMPARE(
        view.parentsView()->model()->index(0, StepParentsModel::NodeColumn).data().toString(), QStringLiteral("seed"));
    // Step 1's parent, a: Q 2.5, U = 1.3 · 0.5 · √2, first of three by score.
    view.showStep(1);
    QCOMPARE(rowText(view.parentsView()->model(), 0),
        QStringLiteral("a | 2.50× | 2.500 | 0.919 | 3.419 | 0 | 0.500 | 1 of 3"));
    QCOMPARE(view.proposalsView()->model()->index(2, StepProposalsModel::DecisionColumn).data().toString(),
        QStringLiteral("queued: no forecast to trust (measured in step 2)"));
    // "Latest" brings the view back to the step in progress.
    view.setFollowLatest(true);
    QCOMPARE(view.shownStep(), 2);
}

void TestSearchViews::stepTablesUpdateIncrementally()
{
    const QList<SearchEvent> events = fixedSelectiveLog();
    StepView whole;
    whole.setSearch(fold(events), events);
    StepView live;
    QAbstractItemModelTester tester(live.proposalsModel());
    const qsizetype half = events.size() / 2;
    live.setSearch(fold(events.mid(0, half)), events.mid(0, half));
    const int stepThen = live.shownStep();
    QVERIFY(stepThen < 2);
    QList<SearchEvent> rest = events.mid(half);
    SearchState state = fold(events.mid(0, half));
    // A few events at a time, as the engine delivers them.
    while (!rest.isEmpty()) {
        const QList<SearchEvent> batch = rest.mid(0, 5);
        rest = rest.mid(batch.size());
        for (const SearchEvent &e : batch)
            QVERIFY(applyEvent(state, e));
        live.applyEvents(state, batch);
    }
    QCOMPARE(live.shownStep(), 2);
    QCOMPARE(live.proposalsModel()->rowCount(), whole.proposalsModel()->rowCount());
    for (int r = 0; r < live.proposalsModel()->rowCount(); ++r)
        QCOMPARE(rowText(live.proposalsModel(), r), rowText(whole.proposalsModel(), r));
    QCOMPARE(rowText(live.parentsModel(), 0), rowText(whole.parentsModel(), 0));
}

void TestSearchViews::stepTablesSayWhenScoresAreUnknown()
{
    // A log whose second step_started is out of place: the fold stops there, and the view says why instead of
    // showing made-up scores.
    QList<SearchEvent> events = fixedSelectiveLog();
    const SearchState state = fold(events);
    for (SearchEvent &e : events) {
        if (e.kind == QLatin1StringView("step_started") && e.payload.value(QStringLiteral("step")).toInt() == 1) {
            e.payload.insert(QStringLiteral("step"), 5);
            break;
        }
    }
    StepView view;
    view.setSearch(state, events);
    view.showStep(1);
    QCOMPARE(
        view.parentsView()->model()->index(0, StepParentsModel::NodeColumn).data().toString(), QStringLiteral("a"));
    QCOMPARE(view.parentsView()->model()->index(0, StepParentsModel::QColumn).data().toString(), QStringLiteral("—"));
    QVERIFY2(view.summaryText().contains(QStringLiteral("PUCT scores unknown: event")), qPrintable(view.summaryText()));
    QVERIFY(view.summaryText().contains(QStringLiteral("step 5 started where step 1 was due")));
    // Step 0 was scored before the log went wrong.
    view.showStep(0);
    QCOMPARE(
        view.parentsView()->model()->index(0, StepParentsModel::QColumn).data().toString(), QStringLiteral("1.000"));
}

void TestSearchViews::calibrationFigures()
{
    SearchCalibrationView view;
    const QList<SearchEvent> events = fixedSelectiveLog();
    view.setSearch(fold(events), events);
    QCOMPARE(view.figuresText(),
        QStringLiteral(
            "Cumulative, 6 measured forecast(s): accuracy 80% · ECE %1 · Brier %2\nStep 2, 3 forecast(s): accuracy "
            "100% · ECE %3 · Brier %4")
            .arg(view.tracker().total().ece, 0, 'f', 3)
            .arg(view.tracker().total().brier, 0, 'f', 3)
            .arg(view.tracker().steps()[2].atStep.ece, 0, 'f', 3)
            .arg((0.01 + 0.4375 + 0.12) / 3.0, 0, 'f', 3));
    QCPGraph *accuracy = view.cumulativeGraph(SearchCalibrationView::Accuracy);
    QCOMPARE(accuracy->data()->size(), 3);
    QCOMPARE(accuracy->data()->at(0)->value, 0.5);
    QCOMPARE(accuracy->data()->at(2)->value, 0.8);
    QCOMPARE(view.stepGraph(SearchCalibrationView::Ece)->data()->at(0)->value, 0.35);
    // A standard search makes no forecasts, and says so.
    testing::SearchLogBuilder standard(Mode::Standard);
    standard.init();
    view.setSearch(fold(standard.events), standard.events);
    QCOMPARE(view.figuresText(), QStringLiteral("This search makes no forecasts (standard mode)"));
    QCOMPARE(view.cumulativeGraph(SearchCalibrationView::Accuracy)->data()->size(), 0);
}

void TestSearchViews::eventTailIsBoundedAndFollowsTheEnd()
{
    EventTailView tail;
    QAbstractItemModelTester tester(tail.model());
    tail.model()->setCapacity(10);
    tail.resize(700, 200);
    tail.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tail));
    const QList<SearchEvent> events = fixedSelectiveLog();
    const qsizetype half = events.size() / 2;
    tail.setSearch(fold(events.mid(0, half)), events.mid(0, half));
    QCOMPARE(tail.model()->rowCount(), 10);
    QCOMPARE(tail.model()->index(9, EventTailModel::SequenceColumn).data().toString(), QString::number(half - 1));
    QTRY_VERIFY(tail.followsEnd());
    // The user scrolls up: new events do not pull the view down.
    tail.view()->verticalScrollBar()->setValue(0);
    QVERIFY(!tail.followsEnd());
    const SearchState state = fold(events);
    tail.applyEvents(state, events.mid(half, 3));
    QCOMPARE(tail.model()->rowCount(), 10);
    QVERIFY(!tail.followsEnd());
    // Back at the end, it follows again.
    tail.view()->scrollToBottom();
    tail.applyEvents(state, events.mid(half + 3));
    QTRY_VERIFY(tail.followsEnd());
    QCOMPARE(tail.model()->rowCount(), 10);
    QCOMPARE(tail.model()->totalEvents(), events.size());
    QCOMPARE(tail.statusText(), QStringLiteral("The newest 10 of %1 events").arg(events.size()));
    const QAbstractItemModel *m = tail.model();
    QCOMPARE(m->index(9, EventTailModel::KindColumn).data().toString(), QStringLiteral("node_vetoed"));
    QCOMPARE(m->index(9, EventTailModel::NodeColumn).data().toString(), QStringLiteral("b"));
    // The whole log at capacity 1000: every row, with the summaries people read.
    tail.model()->setCapacity(1000);
    tail.setSearch(state, events);
    QCOMPARE(m->rowCount(), events.size());
    QStringList texts;
    for (int r = 0; r < m->rowCount(); ++r)
        texts << rowText(m, r).section(QStringLiteral(" | "), 2);
    QVERIFY(texts.contains(QStringLiteral("evaluation_completed | 0 | a | 2.50× (replay)")));
    QVERIFY(texts.contains(QStringLiteral("forecast_completed | 0 | a | bin 6 at 70% (expected bin 5.90)")));
    QVERIFY(
        texts.contains(QStringLiteral("candidate_deferred | 0 | c | trusted forecast, ranked below the GPU budget")));
    // An answer that names only its request still shows its node.
    QVERIFY(texts.contains(QStringLiteral("mutation_completed | 0 | a | code from pool")));
    QVERIFY(texts.contains(QStringLiteral("evaluation_completed | 1 | f | incorrect (replay)")));
    // Events without a step of their own belong to the step in progress: g, proposed in step 1, measured in step 2.
    QVERIFY(texts.contains(QStringLiteral("evaluation_completed | 2 | g | 0.90× (replay)")));
    QVERIFY(texts.contains(QStringLiteral("measure_forced |  | c | ")));
}

QTEST_MAIN(TestSearchViews)
#include "tst_search_views.moc"
