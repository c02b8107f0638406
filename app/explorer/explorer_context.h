// ExplorerContext: the explorer window's parts by identity — the controllers it composes, the panel of each dock, the
// docks and the window's own actions — filled once by MainWindow as it builds them, and handed to whoever needs them
// (the context menus, the tests), so nothing finds a part by its class or an action by its translated text.
#pragma once

#include <QList>

#include <memory>

class QAction;
class QDockWidget;

namespace gpuf {

class CalibrationData;
class CalibrationView;
class CandidateBrowser;
class CandidateSource;
class ComparePanel;
class DeletionController;
class DevicePanel;
class DiffView;
class DrillPairsView;
class ForecastController;
class ForecastPanel;
class ForecastQueue;
class KernelPairLoader;
class LessonsPanel;
class MeasureController;
class MeasurePanel;
class MeasureQueue;
class MetricsTable;
class ProblemTree;
class RooflinePanel;
class SearchController;
class SearchesPanel;
class Selection;
class Settings;
class StoreOverview;
class StoreSession;
class SyntaxHighlighting;
class WelcomePage;

struct ExplorerContext
{
    // What every panel works on.
    StoreSession *session = nullptr;
    Settings *settings = nullptr;
    Selection *selection = nullptr;
    CandidateSource *candidates = nullptr;
    KernelPairLoader *pairLoader = nullptr;
    MeasureQueue *measureQueue = nullptr;
    MeasureController *measures = nullptr;
    ForecastQueue *forecastQueue = nullptr;
    ForecastController *forecasts = nullptr;
    CalibrationData *calibration = nullptr;
    DeletionController *deletion = nullptr;
    SearchController *searches = nullptr;
    std::shared_ptr<const SyntaxHighlighting> syntax;

    // The central views.
    DiffView *diff = nullptr;
    WelcomePage *welcome = nullptr;

    // Each dock and the panel it holds.
    struct Docked
    {
        ProblemTree *problems = nullptr;
        StoreOverview *overview = nullptr;
        CandidateBrowser *candidates = nullptr;
        MeasurePanel *measurements = nullptr;
        MetricsTable *metrics = nullptr;
        CalibrationView *calibration = nullptr;
        DevicePanel *device = nullptr;
        ForecastPanel *forecast = nullptr;
        DrillPairsView *drillPairs = nullptr;
        SearchesPanel *searches = nullptr;
        ComparePanel *compare = nullptr;
        LessonsPanel *lessons = nullptr;
        RooflinePanel *roofline = nullptr;
    } panels;
    struct Docks
    {
        QDockWidget *problems = nullptr;
        QDockWidget *overview = nullptr;
        QDockWidget *candidates = nullptr;
        QDockWidget *measurements = nullptr;
        QDockWidget *metrics = nullptr;
        QDockWidget *calibration = nullptr;
        QDockWidget *device = nullptr;
        QDockWidget *forecast = nullptr;
        QDockWidget *drillPairs = nullptr;
        QDockWidget *searches = nullptr;
        QDockWidget *compare = nullptr;
        QDockWidget *lessons = nullptr;
        QDockWidget *roofline = nullptr;

        QList<QDockWidget *> all() const;
    } docks;

    // The window's own actions (the panels' and controllers' actions are theirs).
    struct Actions
    {
        QAction *newStore = nullptr;
        QAction *openStore = nullptr;
        QAction *openSample = nullptr;
        QAction *importFiles = nullptr;
        QAction *exportBundle = nullptr;
        QAction *newProblem = nullptr;
        QAction *addKernelFromFile = nullptr;
        QAction *addKernelFromClipboard = nullptr;
        QAction *closeStore = nullptr;
        QAction *quit = nullptr;
        QAction *compareWithReference = nullptr;
        QAction *compareWithParent = nullptr;
        QAction *endpoints = nullptr;
        QAction *reloadStore = nullptr;
        QAction *restoreLayout = nullptr;

        // Those that act on an open store: disabled, with the reason, while none is open.
        QList<QAction *> needingStore() const;
    } actions;
};

} // namespace gpuf
