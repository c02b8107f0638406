// Offscreen tests of what a first-time user meets in the explorer window: the welcome page without a store and its
// recent stores; the diff's words before a selection and on an empty store; the kernel's teaching note above the
// diff; Alt+Down acting on the diff while the table has focus; a default layout with the candidate table and the
// forecast side by side, and results brought to the front; the Help menu (manual, glossary, shortcuts as the actions
// have them, About); every disabled menu entry saying why.
#include "app/explorer/main_window.h"
#include "app/explorer/start_here.h"
#include "core/common/english_plurals.h"
#include "core/interop/corpus.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/store.h"
#include "gpuf_config.h"
#include "tests/support/session_open.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/common/help_window.h"
#include "widgets/diff/diff_view.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/overview/welcome_page.h"

#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <functional>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

QString plain(const QAction *action) { return action->text().remove(QRegularExpression(u"&(?!&)"_s)); }

// Every action of the menu bar, submenus included, with its menu path.
QList<std::pair<QString, QAction *>> menuActions(const QMenuBar *bar)
{
    QList<std::pair<QString, QAction *>> out;
    std::function<void(const QMenu *, const QString &)> walk = [&](const QMenu *menu, const QString &path) {
        const QList<QAction *> actions = menu->actions();
        for (QAction *a : actions) {
            if (a->isSeparator())
                continue;
            if (a->menu())
                walk(a->menu(), path + u" › "_s + plain(a));
            else
                out.append({path + u" › "_s + plain(a), a});
        }
    };
    const QList<QAction *> top = bar->actions();
    for (QAction *a : top) {
        if (a->menu())
            walk(a->menu(), plain(a));
    }
    return out;
}

bool shownOnScreen(const QDockWidget *dock) { return dock->isVisible() && !dock->visibleRegion().isEmpty(); }

} // namespace

class TestFirstUse : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_storePath;

    static int rowOf(QAbstractItemModel *model, const QString &name)
    {
        for (int r = 0; r < model->rowCount(); ++r) {
            if (model->index(r, NameColumn).data().toString() == name)
                return r;
        }
        return -1;
    }

    // Opens the corpus store in `window` and shows sgemm's v4_reg_block_2d against its reference; returns its row.
    int showSgemmVariant(MainWindow &window, StoreSession &session)
    {
        if (!test::openSession(session, m_storePath))
            return -1;
        auto *browser = window.context().panels.candidates;
        if (!QTest::qWaitFor([&] { return browser->tableView()->model()->rowCount() >= 36; }, 10000))
            return -1;
        const int row = rowOf(browser->tableView()->model(), u"v4_reg_block_2d"_s);
        browser->tableView()->selectRow(row);
        auto *diff = window.context().diff;
        if (!QTest::qWaitFor(
                [&] {
                    return diff->document() && diff->document()->request.right.title.contains(u"v4_reg_block_2d"_s);
                },
                10000))
            return -1;
        return row;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"gpuf-tests"_s);
        QCoreApplication::setApplicationName(u"tst_first_use"_s);
        QSettings().clear();
        installEnglishPlurals(); // as gpuf-explorer does at start (app_translations)
        m_storePath = m_dir.filePath(u"corpus.gpuf"_s);
        auto store = Store::open(m_storePath);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        auto report = interop::importCorpus(**store, QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"));
        QVERIFY2(report.ok(), qPrintable(report.error()));
    }

    void welcomePageWithoutAStore()
    {
        Settings settings;
        settings.addRecentStore(m_storePath);
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        auto *welcome = window.context().welcome;
        auto *central = window.centralWidget()->findChild<QStackedWidget *>();
        QVERIFY(welcome && central);
        QCOMPARE(central->currentWidget(), welcome);
        QVERIFY(welcome->isVisible());
        QCOMPARE(welcome->sampleButton()->text(), u"Open the &Sample Store"_s);
        QCOMPARE(welcome->openButton()->text(), u"&Open a Store…"_s);
        QCOMPARE(welcome->newButton()->text(), u"&New Store…"_s);
        QCOMPARE(welcome->recentList()->count(), 1);
        QVERIFY(welcome->recentList()->item(0)->text().startsWith(u"corpus.gpuf — "_s));
        // Choosing a recent store opens it, and the diff takes the page's place, saying what to do next.
        QSignalSpy opened(&session, &StoreSession::opened);
        Q_EMIT welcome->recentList()->itemActivated(welcome->recentList()->item(0));
        QTRY_COMPARE(opened.count(), 1);
        auto *diff = window.context().diff;
        QTRY_COMPARE(central->currentWidget(), diff);
        QVERIFY(diff->placeholderShown());
        QCOMPARE(diff->placeholderText(),
            u"Choose a candidate in the Candidates table to compare it here with its reference; its forecast shows "
            "in the Forecast dock."_s);
        // Closing the store brings the page back.
        session.close();
        QTRY_COMPARE(central->currentWidget(), welcome);
    }

    void newEmptyStoreSaysWhatToDo()
    {
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QVERIFY(test::openSession(session, m_dir.filePath(u"empty.gpuf"_s)));
        auto *diff = window.context().diff;
        QTRY_VERIFY(diff->isVisible());
        QVERIFY(diff->placeholderShown());
        QVERIFY2(diff->placeholderText().startsWith(u"This store is empty. Import a bundle or the paper's published "
                                                    "rows (File → Import…)"_s),
            qPrintable(diff->placeholderText()));
    }

    // The diff shows the candidate's teaching note, and Alt+Down in the focused table moves through the diff's
    // changes, not through the table.
    void noteAndNextChangeFromTheTable()
    {
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window) || window.isVisible());
        const int row = showSgemmVariant(window, session);
        QVERIFY(row >= 0);
        auto *diff = window.context().diff;
        QVERIFY(!diff->placeholderShown());
        QVERIFY2(diff->noteText().contains(u"candidate: v4_reg_block_2d"_s), qPrintable(diff->noteText()));
        QVERIFY(diff->noteText().size() > 60);
        QVERIFY(diff->hunkCount() > 1);

        auto *table = window.context().panels.candidates->tableView();
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        QCOMPARE(diff->currentHunk(), -1);
        QTest::keyClick(table, Qt::Key_Down, Qt::AltModifier);
        QCOMPARE(diff->currentHunk(), 0);
        QTest::keyClick(table, Qt::Key_Down, Qt::AltModifier);
        QCOMPARE(diff->currentHunk(), 1);
        QTest::keyClick(table, Qt::Key_Up, Qt::AltModifier);
        QCOMPARE(diff->currentHunk(), 0);
        QCOMPARE(table->currentIndex().row(), row); // the table did not move
        QVERIFY(diff->document()->request.right.title.contains(u"v4_reg_block_2d"_s));
    }

    void candidateAndForecastSideBySide()
    {
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QVERIFY(showSgemmVariant(window, session) >= 0);
        auto *candidates = window.context().docks.candidates;
        auto *forecast = window.context().docks.forecast;
        QVERIFY(candidates && forecast);
        QTRY_VERIFY(shownOnScreen(candidates));
        QVERIFY(shownOnScreen(forecast));
        QCOMPARE(window.dockWidgetArea(forecast), Qt::RightDockWidgetArea);
        QVERIFY(window.tabifiedDockWidgets(forecast).isEmpty());
        QVERIFY(window.context().diff->isVisible());

        // A drill-down from a plot brings the table to the front.
        auto *metrics = window.context().docks.metrics;
        metrics->raise();
        QTRY_VERIFY(!shownOnScreen(candidates));
        auto *selection = window.context().selection;
        selection->setFilter({selection->candidateId()}, u"a confusion cell"_s);
        QTRY_VERIFY(shownOnScreen(candidates));

        // A finished forecast batch brings the forecast to the front, even after the user closed its dock.
        forecast->close();
        QVERIFY(!forecast->isVisible());
        settings.setForecasterName(u"costmodel"_s);
        auto *panel = window.context().panels.forecast;
        QAction *forecastSelected = nullptr;
        for (const auto &[path, action] : menuActions(window.menuBar())) {
            if (path == u"Forecast › Forecast Selected"_s)
                forecastSelected = action;
        }
        QVERIFY(forecastSelected);
        QTRY_VERIFY(forecastSelected->isEnabled());
        forecastSelected->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(shownOnScreen(forecast), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(panel->currentKey().startsWith(u's'), 30000);
    }

    void helpMenu()
    {
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QMap<QString, QAction *> byPath;
        for (const auto &[path, action] : menuActions(window.menuBar()))
            byPath.insert(path, action);
        for (const char *entry :
            {"Help › Manual", "Help › Glossary", "Help › Keyboard Shortcuts", "Help › About GPU Forecaster Explorer"})
            QVERIFY2(byPath.contains(QString::fromUtf8(entry)), entry);

        // The shortcuts listed are the actions' own.
        const QList<ShortcutEntry> shortcuts = shortcutEntries(window.menuBar());
        const auto keysOf = [&shortcuts](const QString &command) {
            for (const ShortcutEntry &e : shortcuts) {
                if (e.command == command)
                    return e.keys;
            }
            return QString();
        };
        QCOMPARE(keysOf(u"Next Change"_s), u"Alt+Down, F7"_s);
        QCOMPARE(keysOf(u"Open Store…"_s), QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf(u"Forecast Selected"_s), u"Ctrl+Shift+F"_s);
        byPath.value(u"Help › Keyboard Shortcuts"_s)->trigger();
        auto *shortcutsWindow = window.findChild<ShortcutsWindow *>();
        QVERIFY(shortcutsWindow && shortcutsWindow->isVisible());
        QCOMPARE(shortcutsWindow->table()->rowCount(), int(shortcuts.size()));
        QVERIFY(!shortcutsWindow->table()->findItems(u"Next Change"_s, Qt::MatchExactly).isEmpty());

        byPath.value(u"Help › Glossary"_s)->trigger();
        auto *glossary = window.findChild<HelpWindow *>(u"helpGlossary"_s);
        QVERIFY(glossary && glossary->isVisible());
        const QString text = glossary->browser()->toPlainText();
        const QStringList terms {u"Bins"_s, u"τ (confidence threshold)"_s, u"ECE"_s, u"Risk–coverage, AURC"_s,
            u"utility@X"_s, u"max_prob"_s, u"neg_entropy"_s, u"top2_margin"_s, u"slight speedup"_s, u"1.00×–1.41×"_s,
            u"Standard, surrogate, selective"_s, u"τ in a search"_s, u"PUCT"_s, u"Archive"_s, u"Pool, family"_s,
            u"Pin, veto, force, inject"_s, u"GPU evaluation"_s};
        for (const QString &term : terms)
            QVERIFY2(text.contains(term), qPrintable(term));

        byPath.value(u"Help › Manual"_s)->trigger();
        auto *manual = window.findChild<HelpWindow *>(u"helpManual"_s);
        QVERIFY(manual && manual->isVisible());
        QVERIFY(manual->browser()->toPlainText().contains(u"Trusting a forecast: τ"_s));
        QVERIFY(manual->browser()->toPlainText().contains(u"Searching"_s));
        // A link to another guide opens it in the same window (as a click does: the link's target, relative to the
        // manual), and Back returns to the manual.
        QVERIFY(!manual->backButton()->isEnabled());
        QVERIFY(manual->browser()->toMarkdown().contains(u"(search.md)"_s));
        manual->browser()->setSource(QUrl(u"search.md"_s));
        QVERIFY2(
            manual->browser()->toPlainText().contains(u"PUCT"_s), qPrintable(manual->browser()->source().toString()));
        QVERIFY(manual->backButton()->isEnabled());
        manual->backButton()->click();
        QVERIFY(manual->browser()->toPlainText().contains(u"Trusting a forecast: τ"_s));
        QVERIFY(!manual->backButton()->isEnabled());

        byPath.value(u"Help › About GPU Forecaster Explorer"_s)->trigger();
        QMessageBox *about = nullptr;
        QTRY_VERIFY((about = window.findChild<QMessageBox *>(u"helpAbout"_s)) != nullptr);
        QVERIFY(about->text().contains(QStringLiteral(GPUF_VERSION_STRING)));
        QVERIFY(about->text().contains(u"arXiv 2605.31464"_s));
        QVERIFY(about->text().contains(u"Syntax highlighting: "_s));
        QVERIFY(about->text().contains(u"GPU measurement (CUDA worker gpuf-measure): "_s));
        about->close();
    }

    // A disabled menu entry names its reason in its tool tip and its status tip, with or without a store.
    void disabledActionsSayWhy()
    {
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        const auto check = [&window](const QString &when) {
            int disabled = 0;
            for (const auto &[path, action] : menuActions(window.menuBar())) {
                if (action->isEnabled())
                    continue;
                ++disabled;
                const QString why = u"%1 (%2): tool tip \"%3\", status tip \"%4\""_s.arg(
                    path, when, action->toolTip(), action->statusTip());
                QVERIFY2(!action->toolTip().isEmpty() && action->toolTip() != plain(action), qPrintable(why));
                QVERIFY2(action->statusTip() == action->toolTip(), qPrintable(why));
            }
            QVERIFY(disabled > 0);
        };
        check(u"no store"_s);
        QMap<QString, QAction *> byPath;
        for (const auto &[path, action] : menuActions(window.menuBar()))
            byPath.insert(path, action);
        QVERIFY(!byPath.value(u"File › Import…"_s)->isEnabled());
        QVERIFY(byPath.value(u"File › Import…"_s)->toolTip().startsWith(u"No store is open"_s));
        QVERIFY(test::openSession(session, m_storePath));
        QVERIFY(byPath.value(u"File › Import…"_s)->isEnabled());
        check(u"store open, nothing selected"_s);
        // The status bar counts in words, each with its plural ("1 kernel" would read "1 kernels" otherwise).
        const QString status = window.findChild<QLabel *>(u"storeStatus"_s)->text();
        // (An earlier test stored one cost-model forecast in this store: "1 forecast", not "1 forecasts".)
        QVERIFY2(status.contains(u" kernels · 0 measurements · "_s), qPrintable(status));
        QVERIFY2(QRegularExpression(u" · (1 forecast|\\d+ forecasts)$"_s).match(status).hasMatch(), qPrintable(status));
        QVERIFY2(!status.contains(u"(s)"_s), qPrintable(status));
    }

    // The start-here strip (issue 27, item 8): shown on the first start above the diff; each of its four buttons
    // shows its picture on the open store and says what to look at; "Got it" hides it for good, Help → Start Here
    // brings it back.
    void startHereOnFirstStart()
    {
        QSettings().clear();
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.resize(1280, 800);
        window.show();
        auto *strip = window.findChild<StartHereStrip *>();
        QVERIFY(strip);
        QTRY_VERIFY(strip->isVisible());
        QVERIFY(test::openSession(session, m_storePath));
        const ExplorerContext &c = window.context();
        QTRY_VERIFY(c.panels.candidates->model()->rowCount() > 0);

        // 1: a candidate beside its reference, in the diff.
        QTest::mouseClick(strip->button(StartHereStrip::Step::Diff), Qt::LeftButton);
        QTRY_VERIFY(c.selection->candidateId() > 0);
        QVERIFY(c.selection->baselineId() > 0 && c.selection->baselineId() != c.selection->candidateId());
        QTRY_VERIFY_WITH_TIMEOUT(c.diff->document() && !c.diff->document()->request.right.source.isEmpty(), 10000);
        QVERIFY2(strip->hint().startsWith(u"The diff shows the chosen candidate"_s), qPrintable(strip->hint()));
        QVERIFY(shownOnScreen(c.docks.candidates));

        // 2: the forecast beside it.
        c.docks.forecast->close();
        QTest::mouseClick(strip->button(StartHereStrip::Step::Forecast), Qt::LeftButton);
        QTRY_VERIFY(shownOnScreen(c.docks.forecast));
        QVERIFY2(strip->hint().contains(u"eight speedup bins"_s), qPrintable(strip->hint()));

        // 3: a search — the Search layout and New Search… open.
        QTest::mouseClick(strip->button(StartHereStrip::Step::Search), Qt::LeftButton);
        QTRY_VERIFY(shownOnScreen(c.docks.searches));
        QDialog *newSearch = nullptr;
        QTRY_VERIFY((newSearch = window.findChild<QDialog *>(u"newSearchDialog"_s)) && newSearch->isVisible());
        newSearch->reject();

        // 4: a lesson.
        QTest::mouseClick(strip->button(StartHereStrip::Step::Lesson), Qt::LeftButton);
        QTRY_VERIFY(shownOnScreen(c.docks.lessons));
        QVERIFY2(strip->hint().contains(u"Reveal"_s), qPrintable(strip->hint()));

        // Got it: hidden, and not shown at the next start; Help → Start Here shows it again.
        QTest::mouseClick(strip->dismissButton(), Qt::LeftButton);
        QVERIFY(!strip->isVisible());
        QVERIFY(settings.startHereDismissed());
        MainWindow again(&settings, &session);
        again.show();
        auto *second = again.findChild<StartHereStrip *>();
        QVERIFY(second && !second->isVisible());
        QAction *startHere = nullptr;
        for (const auto &[path, action] : menuActions(again.menuBar())) {
            if (path == u"Help › Start Here"_s)
                startHere = action;
        }
        QVERIFY(startHere);
        startHere->trigger();
        QVERIFY(second->isVisible());
        settings.setStartHereDismissed(false);
    }
};

QTEST_MAIN(TestFirstUse)
#include "tst_first_use.moc"
