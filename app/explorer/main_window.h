// MainWindow: composes the docks, actions, menus and status bar around one StoreSession; holds no domain logic.
#pragma once

#include <QMainWindow>

class QLabel;
class QMenu;

namespace gpuf {

class Settings;
class StoreSession;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Settings *settings, StoreSession *session, QWidget *parent = nullptr);

    void restoreDefaultLayout();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createDocks();
    void createMenus();
    void updateRecentMenu();
    void updateTitleAndStatus();
    void openStoreDialog();
    void newStoreDialog();
    void importDialog();
    void exportDialog();

    Settings *m_settings;
    StoreSession *m_session;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QLabel *m_storeLabel = nullptr;
    QLabel *m_workLabel = nullptr;
    QByteArray m_defaultLayout;
};

} // namespace gpuf
