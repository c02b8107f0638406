// The Help menu's content: the short manual (docs/manual.md, compiled in), the glossary of the terms the views use
// (bins, τ, confidence scores, calibration and ranking metrics, after reference/paper-facts), the keyboard shortcuts as
// the window's actions really have them, and the About text (version, build options, the paper). Non-modal windows.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QAction;
class QMenuBar;
class QPushButton;
class QTableWidget;
class QTextBrowser;
class QWidget;

namespace gpuf {

struct GlossaryEntry
{
    QString term;
    QString definition; // rich text
};

// Every term a view names, in reading order.
QList<GlossaryEntry> glossaryEntries();
QString glossaryHtml();
// The manual's Markdown; empty when the resource is missing.
QString manualMarkdown();

struct ShortcutEntry
{
    QString menu; // "Diff", "File › Open Recent"
    QString command; // the action's text without its & marks
    QString keys; // every shortcut, in the platform's notation, joined by ", "
};
// Every action reachable from the menu bar that has a shortcut, in menu order.
QList<ShortcutEntry> shortcutEntries(const QMenuBar *menuBar);

// Version, build options (syntax highlighting, the CUDA worker, Qt) and the paper the product implements; rich text.
QString aboutText();

// A reason next to a disabled action: its tool tip (shown in menus and toolbars) and its status tip (shown in the
// status bar while hovered) both say it; an enabled action shows `whatItDoes` instead.
void setActionAvailability(QAction *action, bool enabled, const QString &whatItDoes, const QString &whyDisabled);
// Keeps an action's status tip equal to its tool tip whenever the owner changes the tool tip (or text), so the
// reasons owners already give in tool tips reach the status bar too.
void mirrorToolTipToStatusTip(QAction *action);

class HelpWindow : public QDialog
{
    Q_OBJECT

public:
    enum class Topic : quint8 { Manual, Glossary };
    explicit HelpWindow(Topic topic, QWidget *parent = nullptr);
    QTextBrowser *browser() const { return m_browser; }
    QPushButton *backButton() const { return m_back; }

private:
    QTextBrowser *m_browser;
    QPushButton *m_back = nullptr;
};

class ShortcutsWindow : public QDialog
{
    Q_OBJECT

public:
    explicit ShortcutsWindow(const QMenuBar *menuBar, QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }

private:
    QTableWidget *m_table;
};

} // namespace gpuf
