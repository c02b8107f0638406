// MainWindow: composes the docks, actions, menus and status bar around one StoreSession; holds no domain logic. What it
// composes is reachable by identity through its ExplorerContext.
#pragma once

#include "app/explorer/dock_layouts.h"
#include "app/explorer/explorer_context.h"
#include "core/domain/problem.h"

#include <QMainWindow>

class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;

namespace gpuf {

class Settings;
class StartHereStrip;
class StoreSession;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Settings *settings, StoreSession *session, QWidget *parent = nullptr);

    void restoreDefaultLayout();
    // Opens a store, or a case file (*.gpufcase) in a store of its own showing the case's pair.
    void openPath(const QString &path);
    // View → Layout: the docks arranged for a search or a lesson (dock_layouts.h).
    void arrangeLayout(DockLayout layout);
    // The window's parts: controllers, panels, docks and actions.
    const ExplorerContext &context() const { return m_context; }

protected:
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void createCentral();
    void createDocks();
    QDockWidget *addDock(const QString &title, const QString &objectName, QWidget *widget, Qt::DockWidgetArea area);
    void createMenus();
    void createFileMenu();
    void createDiffMenu();
    void createViewMenu();
    void updateRecentMenu();
    void updateTitleAndStatus();
    void openStoreDialog();
    void newStoreDialog();
    void importDialog();
    void exportDialog();
    void exportCaseDialog(RowId candidateId, const QString &kernelName);
    void addKernelFromFileDialog();
    void addKernelFromClipboard();
    void showAddKernelDialog(const QStringList &files, const QString &text);
    void showEndpointsDialog();
    // The welcome page without a store, what the diff says before a selection or on an empty store, and why the
    // store's actions are disabled.
    void createFirstUseParts();
    void createStatusBar();
    void updateEmptyStates();

    ExplorerContext m_context;
    bool m_firstShow = true;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QLabel *m_storeLabel = nullptr;
    QLabel *m_workLabel = nullptr;
    QByteArray m_defaultLayout;
    QStackedWidget *m_central = nullptr;
    StartHereStrip *m_startHere = nullptr;
};

} // namespace gpuf
