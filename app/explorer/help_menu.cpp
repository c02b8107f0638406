// The Help menu; see help_menu.h.
#include "app/explorer/help_menu.h"

#include "widgets/common/help_window.h"

#include <QAction>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

namespace gpuf {
namespace {

// One window per topic: asking again brings the open one to the front.
template<typename Window, typename... Args>
void showOnce(QMainWindow *window, const QString &name, Args &&...args)
{
    auto *shown = window->findChild<Window *>(name);
    if (!shown) {
        shown = new Window(std::forward<Args>(args)..., window);
        shown->setAttribute(Qt::WA_DeleteOnClose);
    }
    shown->show();
    shown->raise();
    shown->activateWindow();
}

} // namespace

void populateHelpMenu(QMenu *help, QMainWindow *window)
{
    QAction *manual = help->addAction(QCoreApplication::translate("gpuf::MainWindow", "&Manual"), window,
        [window]() { showOnce<HelpWindow>(window, QStringLiteral("helpManual"), HelpWindow::Topic::Manual); });
    manual->setShortcut(QKeySequence::HelpContents);
    manual->setObjectName(QStringLiteral("helpManualAction"));
    help->addAction(QCoreApplication::translate("gpuf::MainWindow", "&Glossary"), window,
            [window]() { showOnce<HelpWindow>(window, QStringLiteral("helpGlossary"), HelpWindow::Topic::Glossary); })
        ->setObjectName(QStringLiteral("helpGlossaryAction"));
    help->addAction(QCoreApplication::translate("gpuf::MainWindow", "&Keyboard Shortcuts"), window,
            [window]() { showOnce<ShortcutsWindow>(window, QStringLiteral("helpShortcuts"), window->menuBar()); })
        ->setObjectName(QStringLiteral("helpShortcutsAction"));
    help->addSeparator();
    help->addAction(QCoreApplication::translate("gpuf::MainWindow", "&About GPU Forecaster Explorer"), window,
            [window]() {
                auto *box = new QMessageBox(QMessageBox::NoIcon,
                    QCoreApplication::translate("gpuf::MainWindow", "About GPU Forecaster Explorer"), aboutText(),
                    QMessageBox::Ok, window);
                box->setObjectName(QStringLiteral("helpAbout"));
                box->setTextFormat(Qt::RichText);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open(); // not exec(): nothing blocks on the user
            })
        ->setObjectName(QStringLiteral("helpAboutAction"));
}

} // namespace gpuf
