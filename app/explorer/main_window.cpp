// MainWindow; see main_window.h.
#include "app/explorer/main_window.h"

#include "app/explorer/help_menu.h"

#include "app/explorer/context_menus.h"
#include "app/explorer/dock_layouts.h"
#include "app/explorer/start_here.h"
#include "core/forecasters/forecast_queue.h"
#include "core/measure/measure_queue.h"
#include "core/session/calibration_data.h"
#include "core/session/candidate_source.h"
#include "core/session/kernel_pair_loader.h"
#include "core/session/sample_store.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "gpuf_config.h"
#include "widgets/calibration/calibration_view.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/drill_pairs_view.h"
#include "widgets/candidates/kernel_actions.h"
#include "widgets/candidates/kernel_drop_target.h"
#include "widgets/candidates/new_problem_dialog.h"
#include "widgets/candidates/problem_tree.h"
#include "widgets/common/color_scheme.h"
#include "widgets/common/help_window.h"
#include "widgets/diff/diff_view.h"
#include "widgets/diff/source_viewer.h"
#include "widgets/diff/syntax_highlighting.h"
#include "widgets/evidence/evidence_actions.h"
#include "widgets/forecast/forecast_controller.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/lessons/lessons_panel.h"
#include "widgets/measure/device_panel.h"
#include "widgets/measure/measure_controller.h"
#include "widgets/measure/measure_panel.h"
#include "widgets/measure/roofline_view.h"
#include "widgets/overview/store_overview.h"
#include "widgets/overview/welcome_page.h"
#include "widgets/search/compare_panel.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/searches_panel.h"
#include "widgets/session/deletion_controller.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

namespace gpuf {

MainWindow::MainWindow(Settings *settings, StoreSession *session, QWidget *parent)
    : QMainWindow(parent)
{
    ExplorerContext &c = m_context;
    c.session = session;
    c.settings = settings;
    c.selection = new Selection(this);
    c.candidates = new CandidateSource(session, this);
    c.pairLoader = new KernelPairLoader(session, c.selection, settings, this);
    c.measureQueue = new MeasureQueue({}, this);
    c.measures = new MeasureController(c.measureQueue, session, c.selection, settings, this);
    c.forecastQueue = new ForecastQueue({}, this);
    c.forecasts = new ForecastController(c.forecastQueue, session, c.selection, c.candidates, settings, this);
    c.calibration = new CalibrationData(session, this);
    c.deletion = new DeletionController(session, c.selection, this);
    c.searches = new SearchController(session, this);
    c.syntax = std::make_shared<const SyntaxHighlighting>();
    setObjectName(QStringLiteral("MainWindow"));
    setDockNestingEnabled(true);
    createCentral();
    createDocks();
    createMenus();
    createFirstUseParts();
    // Right-click menus and the Delete/Copy keys of the tree and the tables (measure, forecast, compare, copy, delete).
    auto *kernelActions = new KernelActions(c.candidates, c.selection, c.deletion, this);
    connect(kernelActions, &KernelActions::exportCaseRequested, this, &MainWindow::exportCaseDialog);
    new ContextMenus({c.panels.problems, c.panels.candidates, c.panels.forecast, c.panels.metrics, c.measures,
                         c.forecasts, kernelActions, c.deletion, c.candidates, c.selection, c.panels.lessons,
                         new EvidenceActions(c.session, c.selection, this)},
        this);
    connect(m_context.deletion, &DeletionController::notice, this,
        [this](const QString &text) { statusBar()->showMessage(text, 8000); });

    createStatusBar();
    connect(m_context.settings, &Settings::recentStoresChanged, this, &MainWindow::updateRecentMenu);

    m_defaultLayout = saveState(Settings::kDockLayoutVersion);
    const QByteArray layout = m_context.settings->dockLayout();
    if (!layout.isEmpty())
        restoreState(layout, Settings::kDockLayoutVersion);
    updateRecentMenu();
    updateTitleAndStatus();
}

// The status bar (the store and its counts; the work in progress) and what the session's opening says in it.
void MainWindow::createStatusBar()
{
    m_storeLabel = new QLabel(this);
    m_storeLabel->setObjectName(QStringLiteral("storeStatus"));
    m_workLabel = new QLabel(this);
    statusBar()->addWidget(m_storeLabel, 1);
    statusBar()->addPermanentWidget(m_workLabel);

    connect(m_context.session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) {
        m_context.settings->addRecentStore(snapshot.path);
        updateTitleAndStatus();
    });
    connect(m_context.session, &StoreSession::snapshotChanged, this, &MainWindow::updateTitleAndStatus);
    connect(m_context.session, &StoreSession::openFailed, this,
        [this](const QString &path, const QString &message, const QString &details) {
            updateTitleAndStatus();
            m_context.settings->removeRecentStore(path);
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open store"), message, QMessageBox::Ok, this);
            box->setObjectName(QStringLiteral("openFailedBox"));
            // SQLite's report on a damaged file runs to a hundred lines: behind "Show Details", so the box fits the
            // screen.
            if (!details.isEmpty())
                box->setDetailedText(details);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open(); // not exec(): nothing blocks on the user
        });
    connect(m_context.session, &StoreSession::busyChanged, this,
        [this](bool busy, const QString &what) { m_workLabel->setText(busy ? what : QString()); });
}

QDockWidget *MainWindow::addDock(
    const QString &title, const QString &objectName, QWidget *widget, Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    widget->setParent(dock);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::createCentral()
{
    m_context.diff = new DiffView(m_context.syntax, this);
    m_context.welcome = new WelcomePage(this);
    m_central = new QStackedWidget(this);
    m_central->addWidget(m_context.welcome);
    m_central->addWidget(m_context.diff);
    // The start-here strip above the welcome page or the diff, on the first start (start_here.h).
    auto *central = new QWidget(this);
    auto *column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_startHere = new StartHereStrip(this));
    column->addWidget(m_central, 1);
    setCentralWidget(central);
    connect(m_context.pairLoader, &KernelPairLoader::pairLoaded, m_context.diff, &DiffView::setPair);
    connect(
        m_context.pairLoader, &KernelPairLoader::annotationsLoaded, m_context.diff, &DiffView::setForecastAnnotations);
    connect(m_context.pairLoader, &KernelPairLoader::cleared, m_context.diff, &DiffView::clear);
    connect(m_context.pairLoader, &KernelPairLoader::failed, this,
        [this](const QString &message) { statusBar()->showMessage(message, 8000); });
    connect(m_context.diff, &DiffView::openSourceRequested, this,
        [this](const DiffSide &side) { SourceViewer::showWindow(side, m_context.syntax, this); });
    // A refresh of the same store (after a measurement, an import) keeps what the user is looking at.
    connect(m_context.session, &StoreSession::opening, m_context.selection, [this]() { m_context.selection->clear(); });
    connect(m_context.session, &StoreSession::closed, m_context.selection, [this]() { m_context.selection->clear(); });

    auto *drops = new KernelDropTarget(this);
    connect(drops, &KernelDropTarget::filesDropped, this,
        [this](const QStringList &files) { showAddKernelDialog(files, {}); });
    connect(
        drops, &KernelDropTarget::textDropped, this, [this](const QString &text) { showAddKernelDialog({}, text); });
    connect(drops, &KernelDropTarget::dropRefused, this,
        [this](const QString &message) { statusBar()->showMessage(message, 8000); });
}

void MainWindow::createDocks()
{
    ExplorerContext &c = m_context;
    ExplorerContext::Docked &p = c.panels;
    ExplorerContext::Docks &d = c.docks;
    setDockCorners(this);
    p.problems = new ProblemTree(c.candidates, c.selection);
    d.problems = addDock(tr("Problems"), QStringLiteral("ProblemsDock"), p.problems, Qt::LeftDockWidgetArea);
    p.overview = new StoreOverview(c.session);
    d.overview = addDock(tr("Store"), QStringLiteral("StoreOverviewDock"), p.overview, Qt::LeftDockWidgetArea);
    tabifyDockWidget(d.problems, d.overview);
    d.problems->raise();
    p.candidates = new CandidateBrowser(c.candidates, c.selection);
    d.candidates = addDock(tr("Candidates"), QStringLiteral("CandidatesDock"), p.candidates, Qt::BottomDockWidgetArea);
    p.measurements = new MeasurePanel(c.measures, c.settings);
    d.measurements
        = addDock(tr("Measurements"), QStringLiteral("MeasurementsDock"), p.measurements, Qt::BottomDockWidgetArea);
    p.metrics = new MetricsTable(c.calibration, c.selection);
    d.metrics = addDock(tr("Metrics"), QStringLiteral("MetricsDock"), p.metrics, Qt::BottomDockWidgetArea);
    // Plots need width: the calibration view and the GPU panel share the bottom area with the tables.
    p.calibration = new CalibrationView(c.calibration, c.selection);
    d.calibration
        = addDock(tr("Calibration"), QStringLiteral("CalibrationDock"), p.calibration, Qt::BottomDockWidgetArea);
    p.device = new DevicePanel(c.measureQueue);
    d.device = addDock(tr("GPU"), QStringLiteral("DeviceDock"), p.device, Qt::BottomDockWidgetArea);
    // Beside the table rather than behind it: a candidate and its forecast are read together.
    p.forecast = new ForecastPanel(c.forecasts, c.measureQueue, c.session, c.selection, c.settings);
    p.forecast->setCalibration(c.calibration);
    d.forecast = addDock(tr("Forecast"), QStringLiteral("ForecastDock"), p.forecast, Qt::RightDockWidgetArea);
    p.drillPairs = new DrillPairsView(c.candidates, c.selection);
    d.drillPairs = addDock(tr("Drill-down"), QStringLiteral("DrillPairsDock"), p.drillPairs, Qt::BottomDockWidgetArea);
    p.searches = new SearchesPanel(c.session, c.searches, c.selection);
    p.searches->setSettings(c.settings); // New Search… remembers its last choices
    d.searches = addDock(tr("Searches"), QStringLiteral("SearchesDock"), p.searches, Qt::BottomDockWidgetArea);
    // Search strategies on one space at equal GPU budget: `gpuf search compare` with its curves drawn.
    p.compare = new ComparePanel(c.session);
    d.compare = addDock(tr("Compare"), QStringLiteral("CompareDock"), p.compare, Qt::BottomDockWidgetArea);
    // Lessons: predict before reveal on each step of a lesson, students scored like any forecaster.
    p.lessons = new LessonsPanel(c.session, c.selection, c.syntax);
    d.lessons = addDock(tr("Lessons"), QStringLiteral("LessonsDock"), p.lessons, Qt::BottomDockWidgetArea);
    // Where the selected kernel stands against the GPU: a plot, so it shares the wide bottom area.
    p.roofline = new RooflinePanel(c.session, c.selection);
    d.roofline = addDock(tr("Roofline"), QStringLiteral("RooflineDock"), p.roofline, Qt::BottomDockWidgetArea);
    for (QDockWidget *dock : {d.measurements, d.metrics, d.calibration, d.device, d.drillPairs, d.searches, d.compare,
             d.lessons, d.roofline})
        tabifyDockWidget(d.candidates, dock);
    d.candidates->raise();
    connect(
        p.lessons, &LessonsPanel::notice, this, [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    connect(c.forecasts, &ForecastController::notice, this,
        [this](const QString &text) { statusBar()->showMessage(text, 8000); });

    // Queued kernels show as pending in the table.
    connect(c.measures, &MeasureController::pendingKernelsChanged, c.candidates, &CandidateSource::setPendingIds);
    connect(c.measureQueue, &MeasureQueue::notice, this,
        [this](const QString &text) { statusBar()->showMessage(text, 8000); });
}

void MainWindow::arrangeLayout(DockLayout layout)
{
    // Sizes only hold once the window has its own: before the first show they are scaled away.
    arrangeDocks(this, m_context.docks, layout);
}

void MainWindow::createMenus()
{
    createFileMenu();
    ExplorerContext::Actions &a = m_context.actions;
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_context.deletion->undoAction());
    edit->addAction(m_context.deletion->redoAction());

    QMenu *measure = menuBar()->addMenu(tr("&Measure"));
    measure->addAction(m_context.measures->measureSelectedAction());
    measure->addAction(m_context.measures->measureLowConfidenceAction());

    QMenu *forecast = menuBar()->addMenu(tr("F&orecast"));
    forecast->addAction(m_context.forecasts->forecastSelectedAction());
    forecast->addAction(m_context.forecasts->forecastProblemAction());
    forecast->addAction(m_context.forecasts->reforecastSelectedAction());
    forecast->addAction(m_context.forecasts->cancelAction());
    forecast->addSeparator();
    forecast->addMenu(m_context.forecasts->forecasterMenu());
    forecast->addMenu(m_context.forecasts->hardwareMenu());
    a.endpoints = forecast->addAction(tr("&Endpoints…"), this, &MainWindow::showEndpointsDialog);
    forecast->addActions(m_context.forecasts->costModelActions()); // retrain the cost model / back to the built-in one
    createDiffMenu();
    createViewMenu();
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    populateHelpMenu(help, this);
    help->addAction(tr("&Start Here"), m_startHere, &StartHereStrip::reveal);
}

void MainWindow::createFileMenu()
{
    ExplorerContext::Actions &a = m_context.actions;
    QMenu *file = menuBar()->addMenu(tr("&File"));
    a.newStore = file->addAction(tr("&New Store…"), QKeySequence::New, this, &MainWindow::newStoreDialog);
    a.openStore = file->addAction(tr("&Open Store…"), QKeySequence::Open, this, &MainWindow::openStoreDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    a.openSample = file->addAction(tr("Open &Sample Store"), this, [this]() { openSampleStore(m_context.session); });
    file->addSeparator();
    a.importFiles
        = file->addAction(tr("&Import…"), QKeySequence(Qt::CTRL | Qt::Key_I), this, &MainWindow::importDialog);
    a.exportBundle
        = file->addAction(tr("&Export Bundle…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportDialog);
    file->addSeparator();
    a.newProblem = file->addAction(tr("New &Problem…"), this, [this]() {
        if (!m_context.session->isOpen()) {
            statusBar()->showMessage(tr("Open or create a store first: a problem is stored in it."), 8000);
            return;
        }
        auto *dialog = new NewProblemDialog(m_context.session, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &NewProblemDialog::problemCreated, this, [this](RowId problemId, RowId, const QString &text) {
            m_context.selection->setScope(problemId);
            statusBar()->showMessage(text, 10000);
        });
        dialog->open();
    });
    a.addKernelFromFile = file->addAction(tr("Add &Kernel from File…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
        this, &MainWindow::addKernelFromFileDialog);
    a.addKernelFromClipboard = file->addAction(tr("Add Kernel from Clip&board"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V), this, &MainWindow::addKernelFromClipboard);
    file->addSeparator();
    a.closeStore = file->addAction(tr("&Close Store"), QKeySequence::Close, m_context.session, &StoreSession::close);
    a.quit = file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::createDiffMenu()
{
    ExplorerContext::Actions &a = m_context.actions;
    QMenu *diff = menuBar()->addMenu(tr("&Diff"));
    diff->addAction(m_context.diff->nextHunkAction());
    diff->addAction(m_context.diff->previousHunkAction());
    diff->addSeparator();
    diff->addAction(m_context.diff->ignoreWhitespaceAction());
    diff->addAction(m_context.diff->expandAllAction());
    diff->addAction(m_context.diff->swapSidesAction());
    diff->addAction(m_context.diff->showAnnotationsAction());
    diff->addSeparator();
    a.compareWithReference = diff->addAction(tr("Compare with &Reference"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
        [this]() { m_context.selection->setBaselineKind(Selection::Baseline::Reference); });
    a.compareWithParent = diff->addAction(tr("Compare with &Parent"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
        this, [this]() { m_context.selection->setBaselineKind(Selection::Baseline::Parent); });
    diff->addSeparator();
    diff->addAction(m_context.diff->copyPatchAction());
    diff->addAction(m_context.diff->exportPatchAction());
    diff->addAction(m_context.diff->openBaselineAction());
    diff->addAction(m_context.diff->openCandidateAction());
}

void MainWindow::createViewMenu()
{
    ExplorerContext::Actions &a = m_context.actions;
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : m_context.docks.all())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    a.reloadStore
        = m_viewMenu->addAction(tr("&Reload Store"), QKeySequence::Refresh, m_context.session, &StoreSession::refresh);
    QMenu *layouts = m_viewMenu->addMenu(tr("&Layout"));
    a.restoreLayout = layouts->addAction(tr("&Default"), this, &MainWindow::restoreDefaultLayout);
    a.restoreLayout->setToolTip(tr("The candidates, a pair's diff and its forecast; every dock back in its place"));
    layouts->addAction(tr("&Search"), this, [this] { arrangeLayout(DockLayout::Search); })
        ->setToolTip(tr("The Searches dock with room for a search's lineage, steps and nodes"));
    layouts->addAction(tr("L&esson"), this, [this] { arrangeLayout(DockLayout::Lesson); })
        ->setToolTip(tr("The Lessons dock with room for a step, its answer and its reveal"));
    QMenu *schemes = m_viewMenu->addMenu(tr("&Color Scheme"));
    auto *schemeGroup = new QActionGroup(schemes);
    const std::pair<ColorScheme, QString> choices[]
        = {{ColorScheme::System, tr("&System")}, {ColorScheme::Light, tr("&Light")}, {ColorScheme::Dark, tr("&Dark")}};
    for (const auto &[scheme, label] : choices) {
        QAction *action = schemes->addAction(label);
        action->setCheckable(true);
        action->setChecked(colorSchemeName(scheme) == m_context.settings->colorScheme());
        schemeGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, scheme = scheme]() {
            m_context.settings->setColorScheme(colorSchemeName(scheme));
            applyColorScheme(scheme);
        });
    }
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_context.settings->recentStores();
    for (const QString &path : recent)
        m_recentMenu->addAction(path, this, [this, path]() { m_context.session->open(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::updateTitleAndStatus()
{
    updateEmptyStates();
    if (!m_context.session->isOpen()) {
        setWindowTitle(tr("GPU Forecaster Explorer"));
        m_storeLabel->setText(tr("No store open"));
        return;
    }
    const StoreCounts &t = m_context.session->snapshot().statistics.totals;
    setWindowTitle(tr("%1 — GPU Forecaster Explorer").arg(QFileInfo(m_context.session->path()).fileName()));
    // Each count with its own plural and the locale's digit grouping: "1 kernel", "3,570 forecasts".
    m_storeLabel->setText(QStringList {m_context.session->path(), tr("%Ln kernel(s)", nullptr, int(t.kernels)),
        tr("%Ln measurement(s)", nullptr, int(t.measurements)), tr("%Ln forecast(s)", nullptr, int(t.forecasts))}
                              .join(QStringLiteral(" · ")));
}

void MainWindow::createFirstUseParts()
{
    connect(m_context.welcome, &WelcomePage::sampleRequested, this, [this]() {
        m_context.welcome->setStatus(tr("Opening the sample store…"));
        openSampleStore(m_context.session);
    });
    connect(m_context.welcome, &WelcomePage::openRequested, this, &MainWindow::openStoreDialog);
    connect(m_context.welcome, &WelcomePage::newRequested, this, &MainWindow::newStoreDialog);
    connect(m_context.welcome, &WelcomePage::recentRequested, this, [this](const QString &path) {
        m_context.welcome->setStatus(tr("Opening %1…").arg(path));
        m_context.session->open(path);
    });
    connect(m_context.settings, &Settings::recentStoresChanged, this,
        [this]() { m_context.welcome->setRecentStores(m_context.settings->recentStores()); });
    connect(m_context.session, &StoreSession::openFailed, this, [this](const QString &path, const QString &message) {
        m_context.welcome->setStatus(tr("%1 could not be opened: %2").arg(path, message));
    });
    m_context.welcome->setRecentStores(m_context.settings->recentStores());

    // The diff's shortcuts act on the diff wherever the focus is: Alt+Down in the table must not move the table.
    for (QAction *action : {m_context.diff->nextHunkAction(), m_context.diff->previousHunkAction()}) {
        action->setShortcutContext(Qt::WindowShortcut);
        addAction(action);
    }
    // Results of an action come to the front: a finished forecast batch, a drill-down from a plot.
    connect(m_context.forecastQueue, &ForecastQueue::batchFinished, this, [this]() {
        m_context.docks.forecast->show();
        m_context.docks.forecast->raise();
    });
    connect(m_context.selection, &Selection::filterChanged, this, [this]() {
        if (!m_context.selection->filterIds().isEmpty()) {
            m_context.docks.candidates->show();
            m_context.docks.candidates->raise();
        }
    });
    connect(m_context.selection, &Selection::pairChanged, this, &MainWindow::updateEmptyStates);
    // Closing the store empties the title and the status bar as well as the views.
    connect(m_context.session, &StoreSession::closed, this, &MainWindow::updateTitleAndStatus);

    // Menus show tool tips, so a disabled entry can say why; the status bar repeats them while hovered.
    const QList<QMenu *> menus = menuBar()->findChildren<QMenu *>();
    for (QMenu *menu : menus) {
        menu->setToolTipsVisible(true);
        const QList<QAction *> actions = menu->actions();
        for (QAction *action : actions) {
            if (!action->isSeparator() && !action->menu())
                mirrorToolTipToStatusTip(action);
        }
    }
    updateEmptyStates();
}

void MainWindow::updateEmptyStates()
{
    const bool open = m_context.session->isOpen();
    const QString why = tr("No store is open: open one, or make a new one, from the File menu first");
    for (QAction *action : m_context.actions.needingStore())
        setActionAvailability(action, open, QString(), why);
    if (!m_central)
        return;
    m_central->setCurrentWidget(open ? static_cast<QWidget *>(m_context.diff) : m_context.welcome);
    if (open)
        m_context.welcome->setStatus({});
    const StoreCounts &t = m_context.session->snapshot().statistics.totals;
    if (open && t.kernels == 0)
        m_context.diff->setPlaceholderText(
            tr("This store is empty. Import a bundle or the paper's published rows (File → "
               "Import…), add a kernel (File → Add Kernel from File…, or drop a .cu file on "
               "the window), or open the sample store to look around first."));
    else if (open && t.kernels == 1)
        m_context.diff->setPlaceholderText(
            tr("This store holds one kernel: add a candidate (File → Add Kernel from File…) "
               "to compare it with."));
    else
        m_context.diff->setPlaceholderText(tr("Choose a candidate in the Candidates table to compare it here with its "
                                              "reference; its forecast shows in the Forecast dock."));
}

void MainWindow::restoreDefaultLayout()
{
    restoreState(m_defaultLayout, Settings::kDockLayoutVersion);
    for (QDockWidget *dock : m_context.docks.all())
        dock->show();
    arrangeLayout(DockLayout::Default);
    m_context.settings->clearDockLayout();
}

void MainWindow::showEvent(QShowEvent *event)
{
    // Sized on the first show, once the layout is active: before that, the hidden docks' provisional minimum
    // sizes would widen the window past a laptop screen.
    if (m_firstShow) {
        m_firstShow = false;
        if (!restoreGeometry(m_context.settings->windowGeometry()))
            resize(1280, 800);
        if (m_context.settings->dockLayout().isEmpty())
            arrangeLayout(DockLayout::Default);
    }
    QMainWindow::showEvent(event);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_context.settings->setWindowGeometry(saveGeometry());
    m_context.settings->setDockLayout(saveState(Settings::kDockLayoutVersion));
    QMainWindow::closeEvent(event);
}

} // namespace gpuf
