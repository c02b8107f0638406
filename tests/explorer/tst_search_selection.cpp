// The explorer's window with a replay search run to its end from its Searches dock, offscreen: choosing a node in the
// lineage tree or the step view shows it everywhere — its forecast in the Forecast dock (bin, distribution, the
// forecaster's reasoning), its measurement, and in the diff view the node against its parent.
#include "../search/search_fixture.h"
#include "app/explorer/main_window.h"
#include "core/search/search_setup.h"
#include "core/session/forecast_pair_loader.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/support/session_open.h"
#include "widgets/diff/diff_document.h"
#include "widgets/diff/diff_view.h"
#include "widgets/evidence/evidence_dialog.h"
#include "widgets/forecast/distribution_plot.h"
#include "widgets/forecast/forecast_detail.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/forecast/forecast_rows_model.h"
#include "widgets/plots/plot_qcustomplot.h"
#include "widgets/search/lineage_canvas.h"
#include "widgets/search/lineage_view.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/search_follower.h"
#include "widgets/search/search_models.h"
#include "widgets/search/search_steering.h"
#include "widgets/search/searches_panel.h"
#include "widgets/search/step_view.h"

#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::search;

namespace {

// The explorer's main window on a store, with the parts the tests drive.
struct Explorer
{
    Settings settings;
    StoreSession session;
    std::unique_ptr<MainWindow> window;
    SearchesPanel *panel = nullptr;
    SearchController *controller = nullptr;
    Selection *selection = nullptr;
    ForecastPanel *forecasts = nullptr;
    DiffView *diff = nullptr;

    // The window's forecaster is chosen before the window reads the settings.
    explicit Explorer(const QString &forecaster = {})
    {
        if (!forecaster.isEmpty())
            settings.setForecasterName(forecaster);
        window = std::make_unique<MainWindow>(&settings, &session);
        window->resize(1600, 1000);
        window->show();
        panel = window->context().panels.searches;
        controller = window->context().searches;
        selection = window->context().selection;
        forecasts = window->context().panels.forecast;
        diff = window->context().diff;
    }

    // Opens `path` and shows its search `name` once the dock has read the search's log; false if that did not happen.
    bool showSearch(const QString &path, const QString &name)
    {
        if (!panel || !controller || !selection || !forecasts || !diff)
            return false;
        return test::openSession(session, path)
            && QTest::qWaitFor([&] { return !panel->isLoading() && panel->searchModel()->rowCount() > 0; }, 20000)
            && panel->showSearchNamed(name) && QTest::qWaitFor([&] { return panel->follower()->state() != nullptr; });
    }
};

} // namespace

class TestSearchSelection : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    QString m_pilotPath; // the same store and search, run to its end headless: what the seeded replay forecasts
    QString m_livePath; // the same again, not yet run: for watching a forecast arrive

    // The rows of the Forecast dock's table that name `forecaster`, with their predicted bins.
    static QStringList rowsOf(const ForecastPanel *panel, const QString &forecaster)
    {
        const QAbstractItemModel *model = panel->model();
        QStringList rows;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, ForecastRowsModel::ForecasterColumn).data().toString() == forecaster)
                rows << model->index(row, ForecastRowsModel::PredictedBinColumn).data().toString();
        }
        return rows;
    }

    // A stored kernel's source (read on a connection of the test's own).
    QString sourceOf(RowId kernelId)
    {
        auto store = Store::open(m_path, Store::Mode::ReadOnly);
        auto kernel = KernelRepo(**store).find(kernelId);
        return kernel && *kernel ? (*kernel)->source : QString();
    }

    RowId storedParentOf(RowId kernelId)
    {
        auto store = Store::open(m_path, Store::Mode::ReadOnly);
        auto kernel = KernelRepo(**store).find(kernelId);
        return kernel && *kernel ? (*kernel)->parentId : 0;
    }

    std::optional<Forecast> forecastOf(RowId kernelId, RowId forecastId)
    {
        auto store = Store::open(m_path, Store::Mode::ReadOnly);
        auto forecasts = ForecastRepo(**store).forCandidate(kernelId);
        for (const Forecast &f : forecasts ? *forecasts : QList<Forecast> {}) {
            if (f.id == forecastId)
                return f;
        }
        return std::nullopt;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("select.gpuf"));
        const QString error = testing::makeWorldStore(m_path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        SearchConfig config;
        config.mode = Mode::Selective;
        config.problem = QStringLiteral("sgemm");
        config.steps = 3;
        config.parentsPerStep = 2;
        config.measurementsPerParent = 2;
        config.proposalsPerParent = 4;
        config.seed = 7;
        config.gpu = search::GpuSource::replay();
        config.forecaster = QStringLiteral("costmodel");
        auto store = Store::open(m_path, Store::Mode::ExistingOnly);
        QVERIFY(store);
        auto created = createSearch(**store, QStringLiteral("sel"), config);
        QVERIFY2(created, qPrintable(created ? QString() : created.error()));
        store->reset();
        m_pilotPath = m_dir.filePath(QStringLiteral("pilot.gpuf"));
        m_livePath = m_dir.filePath(QStringLiteral("live.gpuf"));
        QVERIFY(QFile::copy(m_path, m_pilotPath));
        QVERIFY(QFile::copy(m_path, m_livePath));
    }

    void aNodeIsShownEverywhere()
    {
        Explorer explorer;
        QVERIFY(explorer.showSearch(m_path, QStringLiteral("sel")));
        auto *const window = explorer.window.get();
        auto *const panel = explorer.panel;
        auto *const controller = explorer.controller;
        auto *const selection = explorer.selection;
        auto *const forecasts = explorer.forecasts;
        auto *const diff = explorer.diff;
        controller->run(QStringLiteral("sel"));
        QTRY_VERIFY_WITH_TIMEOUT(panel->follower()->state() && panel->follower()->state()->finished, 30000);
        const SearchState &state = *panel->follower()->state();

        // A node forecast and measured, whose parent is a node of the search other than the seed.
        const Candidate *node = nullptr;
        for (const Candidate &c : state.candidates) {
            const Candidate *parent = state.candidate(c.parentId);
            if (c.forecastId > 0 && c.reward && c.kernelId > 0 && parent && !parent->seedNode && parent->kernelId > 0
                && parent->kernelId != c.kernelId)
                node = &c;
        }
        QVERIFY2(node, "the search measured a forecast grandchild of the seed");
        const RowId parentKernel = state.candidate(node->parentId)->kernelId;
        const std::optional<Forecast> stored = forecastOf(node->kernelId, node->forecastId);
        QVERIFY(stored);

        // Clicked in the lineage tree: the window's selection is the node against its problem's reference.
        auto *dock = window->context().docks.searches;
        QVERIFY(dock);
        dock->show();
        dock->raise();
        bool tabShown = false;
        for (QTabWidget *tabs : panel->findChildren<QTabWidget *>()) {
            for (int i = 0; i < tabs->count(); ++i) {
                if (tabs->widget(i)->isAncestorOf(panel->lineageView()) || tabs->widget(i) == panel->lineageView()) {
                    tabs->setCurrentIndex(i);
                    tabShown = true;
                }
            }
        }
        QVERIFY(tabShown);
        LineageCanvas *canvas = panel->lineageView()->canvas();
        QTRY_VERIFY(canvas->isVisible() && canvas->lineage().find(node->nodeId));
        // Close enough that no other node's mark overlaps this one's (fitted, a tree of hundreds of nodes packs them).
        canvas->fitToView();
        for (int i = 0; i < 4; ++i)
            canvas->zoomIn();
        canvas->centreOn(node->nodeId);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodePosition(node->nodeId).toPoint());
        QCOMPARE(panel->lineageView()->selectedNode(), node->nodeId);
        QCOMPARE(selection->candidateId(), node->kernelId);
        QCOMPARE(selection->baselineId(), panel->follower()->referenceKernelId());

        // The Forecast dock: the forecast the search stored — its bin, its distribution, its reasoning — and the
        // node's measurement.
        ForecastDetail *detail = forecasts->detail();
        QTRY_VERIFY_WITH_TIMEOUT(detail->showsPlot() && detail->plot()->predictedBin() == node->predictedBin, 20000);
        QVERIFY2(detail->predictedText().startsWith(QString::number(node->predictedBin) + QStringLiteral(" — ")),
            qPrintable(detail->predictedText()));
        QCOMPARE(detail->confidenceText().isEmpty(), false);
        QCPBars *bars = detail->plot()->predictedBars();
        QVERIFY(bars && !bars->data()->isEmpty());
        QCOMPARE(bars->data()->begin()->mainValue(), stored->probabilities[size_t(node->predictedBin - 1)]);
        QCOMPARE(detail->reasoningView()->toPlainText(), stored->reasoning);
        QVERIFY2(!stored->reasoning.isEmpty(), "the cost model says why");
        QVERIFY2(!detail->truthText().contains(QStringLiteral("not measured")), qPrintable(detail->truthText()));
        QVERIFY2(detail->truthText().contains(QString::number(*node->reward, 'f', 2)), qPrintable(detail->truthText()));

        // Against its parent in the search, the diff's "parent" chosen while the node is shown (not the parent the
        // kernel's row names): the diff shows the search parent's code on the left, the node's on the right.
        QVERIFY2(storedParentOf(node->kernelId) != parentKernel, "a replayed kernel's row names its recorded parent");
        selection->setBaselineKind(Selection::Baseline::Parent);
        QCOMPARE(selection->candidateId(), node->kernelId);
        QTRY_COMPARE(selection->baselineId(), parentKernel);
        // Clicked again with "parent" chosen: the same pair.
        QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodePosition(node->nodeId).toPoint());
        QCOMPARE(selection->baselineId(), parentKernel);
        QTRY_VERIFY_WITH_TIMEOUT(diff->document() && diff->document()->request.right.source == sourceOf(node->kernelId)
                && diff->document()->request.left.source == sourceOf(parentKernel),
            20000);
        QVERIFY(!diff->document()->request.left.source.isEmpty());
        QVERIFY(diff->document()->request.left.source != diff->document()->request.right.source);
        QVERIFY(diff->hunkCount() > 0);

        // Chosen in the step view instead: the same node, everywhere.
        selection->setBaselineKind(Selection::Baseline::Reference);
        Q_EMIT panel->lineageView()->nodeActivated(state.candidates.front().nodeId);
        QTRY_VERIFY(selection->candidateId() != node->kernelId);
        Q_EMIT panel->stepView()->nodeActivated(node->nodeId);
        QCOMPARE(selection->candidateId(), node->kernelId);
        QTRY_COMPARE(panel->lineageView()->selectedNode(), node->nodeId);
        QTRY_VERIFY_WITH_TIMEOUT(detail->showsPlot() && detail->plot()->predictedBin() == node->predictedBin, 20000);

        // Its menu opens the evidence behind its speedup (issue 28): the window's Evidence dialog, on its kernel; a
        // node never measured offers none, saying why.
        std::unique_ptr<QMenu> menu(panel->steering()->menuFor(node->nodeId, window));
        auto *evidence = menu->findChild<QAction *>(QStringLiteral("showNodeEvidence"));
        QVERIFY(evidence && evidence->isEnabled());
        evidence->trigger();
        auto *dialog = window->findChild<EvidenceDialog *>();
        QVERIFY(dialog);
        QCOMPARE(dialog->candidateId(), node->kernelId);
        QTRY_VERIFY(dialog->isVisible());
        for (const Candidate &c : state.candidates) {
            if (c.status != CandidateStatus::Evaluated && c.kernelId > 0) {
                std::unique_ptr<QMenu> other(panel->steering()->menuFor(c.nodeId, window));
                auto *none = other->findChild<QAction *>(QStringLiteral("showNodeEvidence"));
                QVERIFY(none && !none->isEnabled());
                QVERIFY(!none->toolTip().isEmpty());
                break;
            }
        }
    }

    // A kernel shown in the Forecast dock while a search runs: when the search forecasts it, the dock shows that
    // forecast at once — mid-search, with nothing clicked. The replay is seeded, so the same search run to its end in
    // another copy of the store says which kernel this one forecasts at which step.
    void aForecastArrivesWhileShown()
    {
        auto pilot = Store::open(m_pilotPath, Store::Mode::ExistingOnly);
        QVERIFY(pilot);
        const Status ran = testing::runToEnd(**pilot, QStringLiteral("sel"));
        QVERIFY2(ran, qPrintable(ran ? QString() : ran.error()));
        auto finished = foldStoredSearch(**pilot, QStringLiteral("sel"));
        QVERIFY2(
            finished && finished->finished, qPrintable(finished ? QStringLiteral("not finished") : finished.error()));
        const Candidate *node = nullptr; // forecast after the first step, so the search is still running then
        for (const Candidate &c : finished->candidates) {
            if (!node && c.forecastId > 0 && c.kernelId > 0 && c.step >= 1 && c.step < finished->config.steps - 1)
                node = &c;
        }
        QVERIFY2(node, "the search forecast a kernel in a middle step");

        Explorer explorer(QStringLiteral("costmodel"));
        QVERIFY(explorer.showSearch(m_livePath, QStringLiteral("sel")));
        auto *const panel = explorer.panel;
        auto *const controller = explorer.controller;
        auto *const selection = explorer.selection;
        auto *const forecasts = explorer.forecasts;
        const RowId reference = panel->follower()->referenceKernelId();
        QVERIFY(reference > 0);

        // The pair the search will forecast, shown before it runs: no forecast of the cost model yet.
        selection->setPair(node->kernelId, reference);
        ForecastDetail *detail = forecasts->detail();
        QVERIFY(forecasts->loader()->isLoading());
        QTRY_VERIFY_WITH_TIMEOUT(!forecasts->loader()->isLoading(), 20000);
        QVERIFY2(rowsOf(forecasts, QStringLiteral("costmodel")).isEmpty(),
            qPrintable(rowsOf(forecasts, QStringLiteral("costmodel")).join(QLatin1Char(','))));

        // Step by step up to the node's step: the search pauses after it, mid-search.
        int stepped = 0;
        while (panel->follower()->state()->completedSteps() <= node->step) {
            const int before = panel->follower()->state()->completedSteps();
            controller->step(QStringLiteral("sel"));
            QTRY_VERIFY_WITH_TIMEOUT(
                panel->follower()->state()->completedSteps() > before && panel->follower()->state()->paused, 30000);
            QVERIFY(++stepped <= finished->config.steps);
        }
        const SearchState &state = *panel->follower()->state();
        QVERIFY2(!state.finished, "the forecast arrived before the search's end");
        const Candidate *live = nullptr;
        for (const Candidate &c : state.candidates) {
            if (c.kernelId == node->kernelId && c.forecastId > 0)
                live = &c;
        }
        QVERIFY2(live, "this run forecast the same kernel");
        QCOMPARE(selection->candidateId(), node->kernelId);
        QCOMPARE(selection->baselineId(), reference);
        // The dock shows it without anything clicked: its row, its bin and its distribution, its reasoning.
        QTRY_VERIFY_WITH_TIMEOUT(!rowsOf(forecasts, QStringLiteral("costmodel")).isEmpty(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(detail->showsPlot() && detail->plot()->predictedBin() == live->predictedBin, 20000);
        QVERIFY2(detail->predictedText().startsWith(QString::number(live->predictedBin) + QStringLiteral(" — ")),
            qPrintable(detail->predictedText()));
        const std::optional<Forecast> stored = [&]() -> std::optional<Forecast> {
            auto store = Store::open(m_livePath, Store::Mode::ReadOnly);
            auto all = ForecastRepo(**store).forCandidate(node->kernelId);
            for (const Forecast &f : all ? *all : QList<Forecast> {}) {
                if (f.id == live->forecastId)
                    return f;
            }
            return std::nullopt;
        }();
        QVERIFY(stored);
        QCOMPARE(detail->reasoningView()->toPlainText(), stored->reasoning);
        controller->stop(QStringLiteral("sel"));
    }
};

QTEST_MAIN(TestSearchSelection)
#include "tst_search_selection.moc"
