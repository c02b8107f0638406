// MainWindow; see main_window.h.
#include "app/explorer/main_window.h"

#include "app/explorer/help_menu.h"

#include "app/explorer/context_menus.h"
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
#include "widgets/candidates/add_kernel_dialog.h"
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
#include "widgets/forecast/endpoints_dialog.h"
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
#include "widgets/session/transfer_jobs.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>

namespace gpuf {

MainWindow::MainWindow(Settings *settings, StoreSession *session, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_session(session)
    , m_selection(new Selection(this))
    , m_candidates(new CandidateSource(session, this))
    , m_pairLoader(new KernelPairLoader(session, m_selection, settings, this))
    , m_measureQueue(new MeasureQueue({}, this))
    , m_measures(new MeasureController(m_measureQueue, session, m_selection, settings, this))
    , m_forecastQueue(new ForecastQueue({}, this))
    , m_forecasts(new ForecastController(m_forecastQueue, session, m_selection, m_candidates, settings, this))
    , m_calibration(new CalibrationData(session, this))
    , m_deletion(new DeletionController(session, m_selection, this))
    , m_searches(new SearchController(session, this))
    , m_syntax(std::make_shared<const SyntaxHighlighting>())
{
    setObjectName(QStringLiteral("MainWindow"));
    setDockNestingEnabled(true);
    createDocks();
    createMenus();
    createFirstUseParts();
    // Right-click menus and the Delete/Copy keys of the tree and the tables (measure, forecast, compare, copy, delete).
    new ContextMenus({findChild<ProblemTree *>(), findChild<CandidateBrowser *>(), findChild<ForecastPanel *>(),
                         findChild<MetricsTable *>(), m_measures, m_forecasts,
                         new KernelActions(m_candidates, m_selection, m_deletion, this), m_deletion, m_candidates,
                         m_selection, findChild<LessonsPanel *>()},
        this);
    connect(m_deletion, &DeletionController::notice, this,
        [this](const QString &text) { statusBar()->showMessage(text, 8000); });

    m_storeLabel = new QLabel(this);
    m_storeLabel->setObjectName(QStringLiteral("storeStatus"));
    m_workLabel = new QLabel(this);
    statusBar()->addWidget(m_storeLabel, 1);
    statusBar()->addPermanentWidget(m_workLabel);

    connect(m_session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) {
        m_settings->addRecentStore(snapshot.path);
        updateTitleAndStatus();
    });
    connect(m_session, &StoreSession::snapshotChanged, this, &MainWindow::updateTitleAndStatus);
    connect(m_session, &StoreSession::openFailed, this, [this](const QString &path, const QString &message) {
        updateTitleAndStatus();
        m_settings->removeRecentStore(path);
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open store"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open(); // not exec(): nothing blocks on the user
    });
    connect(m_session, &StoreSession::busyChanged, this,
        [this](bool busy, const QString &what) { m_workLabel->setText(busy ? what : QString()); });
    connect(m_settings, &Settings::recentStoresChanged, this, &MainWindow::updateRecentMenu);

    m_defaultLayout = saveState(Settings::kDockLayoutVersion);
    const QByteArray layout = m_settings->dockLayout();
    if (!layout.isEmpty())
        restoreState(layout, Settings::kDockLayoutVersion);
    updateRecentMenu();
    updateTitleAndStatus();
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

void MainWindow::createDocks()
{
    m_diff = new DiffView(m_syntax, this);
    m_welcome = new WelcomePage(this);
    m_central = new QStackedWidget(this);
    m_central->addWidget(m_welcome);
    m_central->addWidget(m_diff);
    setCentralWidget(m_central);
    connect(m_pairLoader, &KernelPairLoader::pairLoaded, m_diff, &DiffView::setPair);
    connect(m_pairLoader, &KernelPairLoader::annotationsLoaded, m_diff, &DiffView::setForecastAnnotations);
    connect(m_pairLoader, &KernelPairLoader::cleared, m_diff, &DiffView::clear);
    connect(m_pairLoader, &KernelPairLoader::failed, this,
        [this](const QString &message) { statusBar()->showMessage(message, 8000); });
    connect(m_diff, &DiffView::openSourceRequested, this,
        [this](const DiffSide &side) { SourceViewer::showWindow(side, m_syntax, this); });
    // A refresh of the same store (after a measurement, an import) keeps what the user is looking at.
    connect(m_session, &StoreSession::opening, m_selection, [this]() { m_selection->clear(); });
    connect(m_session, &StoreSession::closed, m_selection, [this]() { m_selection->clear(); });

    auto *drops = new KernelDropTarget(this);
    connect(drops, &KernelDropTarget::filesDropped, this,
        [this](const QStringList &files) { showAddKernelDialog(files, {}); });
    connect(
        drops, &KernelDropTarget::textDropped, this, [this](const QString &text) { showAddKernelDialog({}, text); });
    connect(drops, &KernelDropTarget::dropRefused, this,
        [this](const QString &message) { statusBar()->showMessage(message, 8000); });

    QDockWidget *problems = addDock(tr("Problems"), QStringLiteral("ProblemsDock"),
        new ProblemTree(m_candidates, m_selection), Qt::LeftDockWidgetArea);
    QDockWidget *overview = addDock(
        tr("Store"), QStringLiteral("StoreOverviewDock"), new StoreOverview(m_session), Qt::LeftDockWidgetArea);
    tabifyDockWidget(problems, overview);
    problems->raise();
    QDockWidget *candidates = addDock(tr("Candidates"), QStringLiteral("CandidatesDock"),
        new CandidateBrowser(m_candidates, m_selection), Qt::BottomDockWidgetArea);
    QDockWidget *queue = addDock(tr("Measurements"), QStringLiteral("MeasurementsDock"),
        new MeasurePanel(m_measures, m_settings), Qt::BottomDockWidgetArea);
    QDockWidget *metrics = addDock(tr("Metrics"), QStringLiteral("MetricsDock"),
        new MetricsTable(m_calibration, m_selection), Qt::BottomDockWidgetArea);
    tabifyDockWidget(candidates, queue);
    tabifyDockWidget(candidates, metrics);
    // Plots need width: the calibration view and the GPU panel share the bottom area with the tables.
    QDockWidget *calibration = addDock(tr("Calibration"), QStringLiteral("CalibrationDock"),
        new CalibrationView(m_calibration, m_selection), Qt::BottomDockWidgetArea);
    QDockWidget *device
        = addDock(tr("GPU"), QStringLiteral("DeviceDock"), new DevicePanel(m_measureQueue), Qt::BottomDockWidgetArea);
    tabifyDockWidget(candidates, calibration);
    tabifyDockWidget(candidates, device);
    // Beside the table rather than behind it: a candidate and its forecast are read together.
    QDockWidget *forecast = addDock(tr("Forecast"), QStringLiteral("ForecastDock"),
        new ForecastPanel(m_forecasts, m_measureQueue, m_session, m_selection, m_settings), Qt::RightDockWidgetArea);
    QDockWidget *drillPairs = addDock(tr("Drill-down"), QStringLiteral("DrillPairsDock"),
        new DrillPairsView(m_candidates, m_selection), Qt::BottomDockWidgetArea);
    tabifyDockWidget(candidates, drillPairs);
    m_candidatesDock = candidates;
    m_forecastDock = forecast;
    QDockWidget *searches = addDock(tr("Searches"), QStringLiteral("SearchesDock"),
        new SearchesPanel(m_session, m_searches, m_selection), Qt::BottomDockWidgetArea);
    tabifyDockWidget(candidates, searches);
    // Search strategies on one space at equal GPU budget: `gpuf search compare` with its curves drawn.
    QDockWidget *compare
        = addDock(tr("Compare"), QStringLiteral("CompareDock"), new ComparePanel(m_session), Qt::BottomDockWidgetArea);
    tabifyDockWidget(candidates, compare);
    // Lessons: predict before reveal on each step of a lesson, students scored like any forecaster.
    auto *lessonsPanel = new LessonsPanel(m_session, m_selection, m_syntax);
    QDockWidget *lessons
        = addDock(tr("Lessons"), QStringLiteral("LessonsDock"), lessonsPanel, Qt::BottomDockWidgetArea);
    tabifyDockWidget(candidates, lessons);
    connect(lessonsPanel, &LessonsPanel::notice, this,
        [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    // Where the selected kernel stands against the GPU: a plot, so it shares the wide bottom area.
    QDockWidget *roofline = addDock(tr("Roofline"), QStringLiteral("RooflineDock"),
        new RooflinePanel(m_session, m_selection), Qt::BottomDockWidgetArea);
    tabifyDockWidget(candidates, roofline);
    connect(m_forecasts, &ForecastController::notice, this,
        [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    candidates->raise();

    // Queued kernels show as pending in the table.
    connect(m_measures, &MeasureController::pendingKernelsChanged, m_candidates, &CandidateSource::setPendingIds);
    connect(m_measureQueue, &MeasureQueue::notice, this,
        [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    resizeDocks({problems, forecast}, {260, 460}, Qt::Horizontal);
    resizeDocks({candidates}, {300}, Qt::Vertical);
}

void MainWindow::applyDefaultDockSizes()
{
    // Sizes only hold once the window has its own: before the first show they are scaled away.
    const auto dock = [this](const char *name) { return findChild<QDockWidget *>(QLatin1StringView(name)); };
    resizeDocks({dock("ProblemsDock"), dock("ForecastDock")}, {230, 440}, Qt::Horizontal);
    resizeDocks({dock("CandidatesDock")}, {270}, Qt::Vertical);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Store…"), QKeySequence::New, this, &MainWindow::newStoreDialog);
    file->addAction(tr("&Open Store…"), QKeySequence::Open, this, &MainWindow::openStoreDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Open &Sample Store"), this, [this]() { openSampleStore(m_session); });
    file->addSeparator();
    file->addAction(tr("&Import…"), QKeySequence(Qt::CTRL | Qt::Key_I), this, &MainWindow::importDialog);
    file->addAction(tr("&Export Bundle…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportDialog);
    file->addSeparator();
    file->addAction(tr("New &Problem…"), this, [this]() {
        if (!m_session->isOpen()) {
            statusBar()->showMessage(tr("Open or create a store first: a problem is stored in it."), 8000);
            return;
        }
        auto *dialog = new NewProblemDialog(m_session, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &NewProblemDialog::problemCreated, this, [this](RowId problemId, RowId, const QString &text) {
            m_selection->setScope(problemId);
            statusBar()->showMessage(text, 10000);
        });
        dialog->open();
    });
    file->addAction(tr("Add &Kernel from File…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
        &MainWindow::addKernelFromFileDialog);
    file->addAction(tr("Add Kernel from Clip&board"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V), this,
        &MainWindow::addKernelFromClipboard);
    file->addSeparator();
    file->addAction(tr("&Close Store"), QKeySequence::Close, m_session, &StoreSession::close);
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_deletion->undoAction());
    edit->addAction(m_deletion->redoAction());

    QMenu *measure = menuBar()->addMenu(tr("&Measure"));
    measure->addAction(m_measures->measureSelectedAction());
    measure->addAction(m_measures->measureLowConfidenceAction());

    QMenu *forecast = menuBar()->addMenu(tr("F&orecast"));
    forecast->addAction(m_forecasts->forecastSelectedAction());
    forecast->addAction(m_forecasts->forecastProblemAction());
    forecast->addAction(m_forecasts->reforecastSelectedAction());
    forecast->addAction(m_forecasts->cancelAction());
    forecast->addSeparator();
    forecast->addMenu(m_forecasts->forecasterMenu());
    forecast->addMenu(m_forecasts->hardwareMenu());
    forecast->addAction(tr("&Endpoints…"), this, &MainWindow::showEndpointsDialog);
    forecast->addActions(m_forecasts->costModelActions()); // retrain the cost model / back to the built-in one

    QMenu *diff = menuBar()->addMenu(tr("&Diff"));
    diff->addAction(m_diff->nextHunkAction());
    diff->addAction(m_diff->previousHunkAction());
    diff->addSeparator();
    diff->addAction(m_diff->ignoreWhitespaceAction());
    diff->addAction(m_diff->expandAllAction());
    diff->addAction(m_diff->swapSidesAction());
    diff->addAction(m_diff->showAnnotationsAction());
    diff->addSeparator();
    diff->addAction(tr("Compare with &Reference"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
        [this]() { m_selection->setBaselineKind(Selection::Baseline::Reference); });
    diff->addAction(tr("Compare with &Parent"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), this,
        [this]() { m_selection->setBaselineKind(Selection::Baseline::Parent); });
    diff->addSeparator();
    diff->addAction(m_diff->copyPatchAction());
    diff->addAction(m_diff->exportPatchAction());
    diff->addAction(m_diff->openBaselineAction());
    diff->addAction(m_diff->openCandidateAction());

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    const QList<QDockWidget *> docks = findChildren<QDockWidget *>();
    for (QDockWidget *dock : docks)
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("&Reload Store"), QKeySequence::Refresh, m_session, &StoreSession::refresh);
    m_viewMenu->addAction(tr("Restore &Default Layout"), this, &MainWindow::restoreDefaultLayout);
    QMenu *schemes = m_viewMenu->addMenu(tr("&Color Scheme"));
    auto *schemeGroup = new QActionGroup(schemes);
    const std::pair<ColorScheme, QString> choices[]
        = {{ColorScheme::System, tr("&System")}, {ColorScheme::Light, tr("&Light")}, {ColorScheme::Dark, tr("&Dark")}};
    for (const auto &[scheme, label] : choices) {
        QAction *action = schemes->addAction(label);
        action->setCheckable(true);
        action->setChecked(colorSchemeName(scheme) == m_settings->colorScheme());
        schemeGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, scheme = scheme]() {
            m_settings->setColorScheme(colorSchemeName(scheme));
            applyColorScheme(scheme);
        });
    }

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    populateHelpMenu(help, this);
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_settings->recentStores();
    for (const QString &path : recent)
        m_recentMenu->addAction(path, this, [this, path]() { m_session->open(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::updateTitleAndStatus()
{
    updateEmptyStates();
    if (!m_session->isOpen()) {
        setWindowTitle(tr("GPU Forecaster Explorer"));
        m_storeLabel->setText(tr("No store open"));
        return;
    }
    const StoreCounts &t = m_session->snapshot().statistics.totals;
    setWindowTitle(tr("%1 — GPU Forecaster Explorer").arg(QFileInfo(m_session->path()).fileName()));
    // Each count with its own plural and the locale's digit grouping: "1 kernel", "3,570 forecasts".
    m_storeLabel->setText(QStringList {m_session->path(), tr("%Ln kernel(s)", nullptr, int(t.kernels)),
        tr("%Ln measurement(s)", nullptr, int(t.measurements)), tr("%Ln forecast(s)", nullptr, int(t.forecasts))}
                              .join(QStringLiteral(" · ")));
}

void MainWindow::openStoreDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Store"), QString(), tr("gpuf stores (*.gpuf *.sqlite *.db);;All files (*)"));
    if (!path.isEmpty())
        m_session->open(path);
}

void MainWindow::newStoreDialog()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("New Store"), QStringLiteral("store.gpuf"), tr("gpuf stores (*.gpuf)"));
    if (!path.isEmpty())
        m_session->open(path);
}

void MainWindow::importDialog()
{
    if (!m_session->isOpen()) {
        QMessageBox::information(this, tr("Import"), tr("Open or create a store first."));
        return;
    }
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Import"), QString(),
        tr("gpuf bundles, recorded sweeps and tuning results (*.jsonl *.json *.ndjson *.json.gz);;"
           "Recorded sweeps of kernel families (*.jsonl);;Kernel Tuner caches and T4 results (*.json *.json.gz);;"
           "All files (*)"));
    if (!files.isEmpty())
        startImport(this, m_session, files);
}

void MainWindow::exportDialog()
{
    if (!m_session->isOpen())
        return;
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export Bundle"), QStringLiteral("bundle.jsonl"), tr("gpuf bundles (*.jsonl)"));
    if (!file.isEmpty())
        startExport(this, m_session, file);
}

void MainWindow::addKernelFromFileDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Add Kernel"), QString(), tr("Kernel sources (*.cu *.cuh *.py);;All files (*)"));
    if (!files.isEmpty())
        showAddKernelDialog(files, {});
}

void MainWindow::addKernelFromClipboard()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (text.trimmed().isEmpty()) {
        statusBar()->showMessage(tr("The clipboard holds no text to add as a kernel."), 8000);
        return;
    }
    showAddKernelDialog({}, text);
}

void MainWindow::showAddKernelDialog(const QStringList &files, const QString &text)
{
    if (!m_session->isOpen()) {
        statusBar()->showMessage(tr("Open or create a store first: a kernel is added to one of its problems."), 8000);
        return;
    }
    auto *dialog = new AddKernelDialog(m_session, m_selection, files, text, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AddKernelDialog::kernelsAdded, this,
        [this](RowId problemId, const QList<RowId> &ids, RowId baselineId, const QString &summary) {
            m_selection->setScope(problemId);
            m_selection->setSelectedIds(ids);
            m_selection->setPair(ids.first(), baselineId);
            statusBar()->showMessage(summary, 10000);
        });
    dialog->open();
}

void MainWindow::showEndpointsDialog()
{
    auto *dialog = new EndpointsDialog(m_session, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &EndpointsDialog::forecastersChanged, m_forecasts, &ForecastController::reloadForecasters);
    dialog->open();
}

void MainWindow::createFirstUseParts()
{
    connect(m_welcome, &WelcomePage::sampleRequested, this, [this]() {
        m_welcome->setStatus(tr("Opening the sample store…"));
        openSampleStore(m_session);
    });
    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::openStoreDialog);
    connect(m_welcome, &WelcomePage::newRequested, this, &MainWindow::newStoreDialog);
    connect(m_welcome, &WelcomePage::recentRequested, this, [this](const QString &path) {
        m_welcome->setStatus(tr("Opening %1…").arg(path));
        m_session->open(path);
    });
    connect(m_settings, &Settings::recentStoresChanged, this,
        [this]() { m_welcome->setRecentStores(m_settings->recentStores()); });
    connect(m_session, &StoreSession::openFailed, this, [this](const QString &path, const QString &message) {
        m_welcome->setStatus(tr("%1 could not be opened: %2").arg(path, message));
    });
    m_welcome->setRecentStores(m_settings->recentStores());

    // The diff's shortcuts act on the diff wherever the focus is: Alt+Down in the table must not move the table.
    for (QAction *action : {m_diff->nextHunkAction(), m_diff->previousHunkAction()}) {
        action->setShortcutContext(Qt::WindowShortcut);
        addAction(action);
    }
    // Results of an action come to the front: a finished forecast batch, a drill-down from a plot.
    connect(m_forecastQueue, &ForecastQueue::batchFinished, this, [this]() {
        m_forecastDock->show();
        m_forecastDock->raise();
    });
    connect(m_selection, &Selection::filterChanged, this, [this]() {
        if (!m_selection->filterIds().isEmpty()) {
            m_candidatesDock->show();
            m_candidatesDock->raise();
        }
    });
    connect(m_selection, &Selection::pairChanged, this, &MainWindow::updateEmptyStates);
    connect(m_session, &StoreSession::closed, this, &MainWindow::updateEmptyStates);

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
    const QList<QAction *> fileActions = menuBar()->actions().first()->menu()->actions();
    const QStringList needStore {tr("&Import…"), tr("&Export Bundle…"), tr("Add &Kernel from File…"),
        tr("Add Kernel from Clip&board"), tr("&Close Store")};
    for (QAction *action : fileActions) {
        if (needStore.contains(action->text()))
            m_storeActions.append(action);
    }
    const QList<QAction *> viewActions = m_viewMenu->actions();
    for (QAction *action : viewActions) {
        if (action->text() == tr("&Reload Store"))
            m_storeActions.append(action);
    }
    updateEmptyStates();
}

void MainWindow::updateEmptyStates()
{
    const bool open = m_session->isOpen();
    const QString why = tr("No store is open: open one, or make a new one, from the File menu first");
    for (QAction *action : std::as_const(m_storeActions))
        setActionAvailability(action, open, QString(), why);
    if (!m_central)
        return;
    m_central->setCurrentWidget(open ? static_cast<QWidget *>(m_diff) : m_welcome);
    if (open)
        m_welcome->setStatus({});
    const StoreCounts &t = m_session->snapshot().statistics.totals;
    if (open && t.kernels == 0)
        m_diff->setPlaceholderText(tr("This store is empty. Import a bundle or the paper's published rows (File → "
                                      "Import…), add a kernel (File → Add Kernel from File…, or drop a .cu file on "
                                      "the window), or open the sample store to look around first."));
    else if (open && t.kernels == 1)
        m_diff->setPlaceholderText(tr("This store holds one kernel: add a candidate (File → Add Kernel from File…) "
                                      "to compare it with."));
    else
        m_diff->setPlaceholderText(tr("Choose a candidate in the Candidates table to compare it here with its "
                                      "reference; its forecast shows in the Forecast dock."));
}

void MainWindow::restoreDefaultLayout()
{
    restoreState(m_defaultLayout, Settings::kDockLayoutVersion);
    const QList<QDockWidget *> docks = findChildren<QDockWidget *>();
    for (QDockWidget *dock : docks)
        dock->show();
    applyDefaultDockSizes();
    m_settings->clearDockLayout();
}

void MainWindow::showEvent(QShowEvent *event)
{
    // Sized on the first show, once the layout is active: before that, the hidden docks' provisional minimum
    // sizes would widen the window past a laptop screen.
    if (m_firstShow) {
        m_firstShow = false;
        if (!restoreGeometry(m_settings->windowGeometry()))
            resize(1280, 800);
        if (m_settings->dockLayout().isEmpty())
            applyDefaultDockSizes();
    }
    QMainWindow::showEvent(event);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setDockLayout(saveState(Settings::kDockLayoutVersion));
    QMainWindow::closeEvent(event);
}

} // namespace gpuf
