// MainWindow: composes the docks, actions, menus and status bar around one StoreSession; holds no domain logic.
#pragma once

#include <QMainWindow>

#include <memory>

class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;

namespace gpuf {

class CalibrationData;
class CandidateSource;
class DeletionController;
class MeasureController;
class MeasureQueue;
class DiffView;
class ForecastController;
class ForecastQueue;
class KernelPairLoader;
class SearchController;
class Selection;
class Settings;
class StoreSession;
class SyntaxHighlighting;
class WelcomePage;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Settings *settings, StoreSession *session, QWidget *parent = nullptr);

    void restoreDefaultLayout();

protected:
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void createDocks();
    QDockWidget *addDock(const QString &title, const QString &objectName, QWidget *widget, Qt::DockWidgetArea area);
    void createMenus();
    void updateRecentMenu();
    void updateTitleAndStatus();
    void openStoreDialog();
    void newStoreDialog();
    void importDialog();
    void exportDialog();
    void addKernelFromFileDialog();
    void addKernelFromClipboard();
    void showAddKernelDialog(const QStringList &files, const QString &text);
    void showEndpointsDialog();
    // The welcome page without a store, what the diff says before a selection or on an empty store, and why the
    // store's actions are disabled.
    void createFirstUseParts();
    void applyDefaultDockSizes();
    void updateEmptyStates();

    Settings *m_settings;
    StoreSession *m_session;
    Selection *m_selection;
    CandidateSource *m_candidates;
    KernelPairLoader *m_pairLoader;
    MeasureQueue *m_measureQueue;
    MeasureController *m_measures;
    ForecastQueue *m_forecastQueue;
    ForecastController *m_forecasts;
    CalibrationData *m_calibration;
    DeletionController *m_deletion;
    SearchController *m_searches;
    std::shared_ptr<const SyntaxHighlighting> m_syntax;
    DiffView *m_diff = nullptr;
    bool m_firstShow = true;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QLabel *m_storeLabel = nullptr;
    QLabel *m_workLabel = nullptr;
    QByteArray m_defaultLayout;
    QStackedWidget *m_central = nullptr;
    WelcomePage *m_welcome = nullptr;
    QDockWidget *m_candidatesDock = nullptr;
    QDockWidget *m_forecastDock = nullptr;
    QList<QAction *> m_storeActions; // need an open store
};

} // namespace gpuf
