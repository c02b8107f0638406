// Offscreen GUI tests of the explorer shell: opening a store shows its problems, a bad file is reported without
// blocking, recent stores are remembered, the default dock layout can be restored, and the named layouts give each
// key picture room at 1280×800 and 1600×1000.
#include "app/explorer/main_window.h"
#include "core/interop/corpus.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "gpuf_config.h"
#include "tests/support/session_open.h"
#include "widgets/calibration/calibration_view.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/candidates/add_kernel_dialog.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/candidates/drill_pairs_view.h"
#include "widgets/candidates/problem_tree.h"
#include "widgets/diff/diff_view.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/lessons/lessons_panel.h"
#include "widgets/measure/device_panel.h"
#include "widgets/measure/measure_panel.h"
#include "widgets/measure/roofline_view.h"
#include "widgets/overview/store_overview.h"
#include "widgets/search/compare_panel.h"
#include "widgets/search/lineage_canvas.h"
#include "widgets/search/searches_panel.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace gpuf;

class TestMainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_storePath;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_storePath = m_dir.filePath(QStringLiteral("corpus.gpuf"));
        auto store = Store::open(m_storePath);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        auto report = interop::importCorpus(**store, QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"));
        QVERIFY2(report.ok(), qPrintable(report.error()));
    }

    void opensStoreAndShowsProblems()
    {
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QVERIFY(test::openSession(session, m_storePath));
        auto *overview = window.context().panels.overview;
        QVERIFY(overview);
        const int operations = int(QDir(QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"))
                                       .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                                       .size());
        QCOMPARE(overview->problemTable()->model()->rowCount(), operations);
        QVERIFY(window.windowTitle().contains(QStringLiteral("corpus.gpuf")));
        QCOMPARE(settings.lastStore(), QFileInfo(m_storePath).absoluteFilePath());

        // Choosing a candidate in the table shows it against its problem's reference in the diff view.
        auto *browser = window.context().panels.candidates;
        auto *diff = window.context().diff;
        QVERIFY(browser && diff);
        QTRY_VERIFY(browser->tableView()->model()->rowCount() >= 36);
        QAbstractItemModel *model = browser->tableView()->model();
        int row = -1;
        for (int r = 0; r < model->rowCount() && row < 0; ++r) {
            for (int c = 0; c < model->columnCount(); ++c) {
                if (model->index(r, c).data().toString() == QLatin1StringView("v4_reg_block_2d"))
                    row = r;
            }
        }
        QVERIFY2(row >= 0, "the sgemm variant v4_reg_block_2d is listed");
        browser->tableView()->selectRow(row);
        QTRY_VERIFY(diff->document() != nullptr);
        QTRY_VERIFY(diff->document()->request.right.title.contains(QStringLiteral("v4_reg_block_2d")));
        QVERIFY(diff->document()->request.left.title.contains(QStringLiteral("reference: v0_naive")));
        QVERIFY(diff->hunkCount() > 0);

        // File → Close Store: the title and the status bar no longer name the store (issue 27, item 9).
        auto *status = window.findChild<QLabel *>(QStringLiteral("storeStatus"));
        QVERIFY(status && status->text().contains(QStringLiteral("corpus.gpuf")));
        window.context().actions.closeStore->trigger();
        QTRY_VERIFY(!session.isOpen());
        QCOMPARE(window.windowTitle(), QStringLiteral("GPU Forecaster Explorer"));
        QCOMPARE(status->text(), QStringLiteral("No store open"));
    }

    void badFileIsReportedWithoutBlocking()
    {
        const QString bad = m_dir.filePath(QStringLiteral("notes.txt"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a store");
        f.close();
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QSignalSpy failed(&session, &StoreSession::openFailed);
        session.open(bad);
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("not a gpuf store")));
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>()) != nullptr);
        QVERIFY(box->text().contains(QStringLiteral("not a gpuf store")));
        box->close();
        QVERIFY(!session.isOpen());
    }

    // A damaged page: one sentence in a box of normal size, SQLite's long report behind "Show Details".
    void damagedStoreDialogFitsTheScreen()
    {
        const QString path = m_dir.filePath(QStringLiteral("damaged.gpuf"));
        QVERIFY(QFile::copy(m_storePath, path));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            constexpr qint64 kPage = 4096;
            QVERIFY(f.size() > 12 * kPage);
            f.seek(2 * kPage);
            f.write(QByteArray(8 * kPage, '\x5a'));
        }
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QSignalSpy failed(&session, &StoreSession::openFailed);
        session.open(path);
        QTRY_COMPARE(failed.count(), 1);
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(QStringLiteral("openFailedBox"))) != nullptr);
        QTRY_VERIFY(box->isVisible());
        QVERIFY2(box->text().contains(QStringLiteral("the store is damaged")), qPrintable(box->text()));
        QVERIFY(!box->text().contains(QLatin1Char('\n')));
        QVERIFY(box->detailedText().count(QLatin1Char('\n')) >= 1);
        QVERIFY2(box->height() < 400, qPrintable(QString::number(box->height())));
        box->close();
    }

    // Drops `files` on the window as a file manager would.
    static void dropFiles(QWidget *window, const QStringList &files)
    {
        QMimeData mime;
        QList<QUrl> urls;
        for (const QString &file : files)
            urls.append(QUrl::fromLocalFile(file));
        mime.setUrls(urls);
        const QPointF at(window->width() / 2.0, window->height() / 2.0);
        QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window, &drop);
        QVERIFY(drop.isAccepted());
    }

    static int selectItem(QComboBox *box, const QString &containing)
    {
        for (int i = 0; i < box->count(); ++i) {
            if (box->itemText(i).contains(containing)) {
                box->setCurrentIndex(i);
                return i;
            }
        }
        return -1;
    }

    void droppedFileBecomesAKernelWithTheChosenParent()
    {
        const QString storePath = m_dir.filePath(QStringLiteral("drop.gpuf"));
        QVERIFY(QFile::copy(m_storePath, storePath));
        const QString file = m_dir.filePath(QStringLiteral("my_sgemm.cu"));
        QFile source(file);
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("extern \"C\" __global__ void sgemm_mine(const float* A, const float* B, float* C,\n"
                     "                                  int M, int N, int K) { /* tried by hand */ }\n");
        source.close();

        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QVERIFY(test::openSession(session, storePath));

        dropFiles(&window, {file});
        AddKernelDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<AddKernelDialog *>()) != nullptr);
        QTRY_VERIFY(dialog->isReady());
        QCOMPARE(dialog->nameEdit()->text(), QStringLiteral("my_sgemm.cu"));
        QVERIFY(selectItem(dialog->problemBox(), QStringLiteral("sgemm")) >= 0);
        QVERIFY(selectItem(dialog->parentBox(), QStringLiteral("v2_smem_tile")) >= 0);
        dialog->accept();

        // The new kernel is stored under sgemm with that parent, selected, and shown against its parent.
        auto *selection = window.context().selection;
        auto *diff = window.context().diff;
        QVERIFY(selection && diff);
        QTRY_VERIFY(window.findChild<AddKernelDialog *>() == nullptr || !dialog->isVisible());
        QTRY_VERIFY(selection->candidateId() != 0);
        const RowId added = selection->candidateId();
        {
            auto store = Store::open(storePath, Store::Mode::ExistingOnly);
            QVERIFY(store.ok());
            const auto kernel = KernelRepo(**store).find(added);
            QVERIFY(kernel.ok() && kernel->has_value());
            QCOMPARE((*kernel)->name, QStringLiteral("my_sgemm.cu"));
            QCOMPARE((*kernel)->origin, QStringLiteral("manual"));
            const auto parent = KernelRepo(**store).find((*kernel)->parentId);
            QVERIFY(parent.ok() && parent->has_value());
            QCOMPARE((*parent)->name, QStringLiteral("v2_smem_tile"));
        }
        QTRY_VERIFY(diff->document() != nullptr
            && diff->document()->request.right.title.contains(QStringLiteral("my_sgemm.cu")));
        QVERIFY(diff->document()->request.left.title.contains(QStringLiteral("v2_smem_tile")));
        auto *browser = window.context().panels.candidates;
        QTRY_VERIFY(browser->model()->viewRowOf(added) >= 0); // the table reloaded with it

        // The same file again: deduplicated by content, and the window says so.
        dropFiles(&window, {file});
        QTRY_VERIFY((dialog = window.findChild<AddKernelDialog *>()) != nullptr && dialog->isReady());
        dialog->accept();
        QTRY_VERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("already in the store")));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("#%1").arg(added)));

        // A file of another kind is refused with its name; nothing opens.
        const QString notes = m_dir.filePath(QStringLiteral("notes.txt"));
        QFile other(notes);
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write("text");
        other.close();
        QTRY_VERIFY(window.findChild<AddKernelDialog *>() == nullptr);
        dropFiles(&window, {notes});
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Not added: notes.txt")));
        QVERIFY(window.findChild<AddKernelDialog *>() == nullptr);

        // A file that is not UTF-8 cannot be added: the dialog says why and "Add" stays off.
        const QString latin1 = m_dir.filePath(QStringLiteral("latin1.cu"));
        QFile bad(latin1);
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("// Gr\xF6\xDF"
                  "e\n");
        bad.close();
        dropFiles(&window, {latin1});
        QTRY_VERIFY((dialog = window.findChild<AddKernelDialog *>()) != nullptr);
        QTRY_VERIFY(dialog->statusLabel()->text().contains(QStringLiteral("is not UTF-8")));
        QVERIFY(!dialog->isReady());
        dialog->reject();
    }

    void restoresDefaultLayout()
    {
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        for (const char *name : {"ProblemsDock", "StoreOverviewDock", "CandidatesDock", "MeasurementsDock",
                 "MetricsDock", "CalibrationDock", "DeviceDock"})
            QVERIFY2(window.findChild<QDockWidget *>(QLatin1StringView(name)), name);
        QTRY_VERIFY(window.width() <= 1280); // fits a laptop screen on first start
        auto *dock = window.context().docks.overview;
        QVERIFY(dock);
        dock->hide();
        QVERIFY(!dock->isVisible());
        window.restoreDefaultLayout();
        QTRY_VERIFY(dock->isVisible());
        QVERIFY(settings.dockLayout().isEmpty());
    }

    // View → Layout at the two screen sizes the issue names: the Forecast dock runs the window's height (its chart
    // and reasoning get more than the ~30 pixels they had beside the table), the window fits a 1280-pixel screen, the
    // Search layout gives a search's lineage room, and the Lesson layout gives the lesson's step and reveal the
    // larger share of the height.
    void layoutsGiveEachPictureRoom_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
    }

    void layoutsGiveEachPictureRoom()
    {
        QFETCH(QSize, size);
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(size); // the first show sizes the window for a laptop screen
        window.arrangeLayout(DockLayout::Default);
        QTRY_COMPARE(window.size(), size);
        const ExplorerContext::Docks &docks = window.context().docks;
        QTRY_VERIFY2(docks.forecast->height() >= window.height() * 8 / 10,
            qPrintable(QStringLiteral("Forecast dock %1 px high in a %2 px window")
                           .arg(docks.forecast->height())
                           .arg(window.height())));
        QVERIFY(docks.candidates->isVisible() && !docks.candidates->visibleRegion().isEmpty());
        // Beside the full-height Forecast dock, the bottom docks share one width: no dock's content may ask for more,
        // or it is cut off at the Forecast dock's edge.
        const int room = docks.candidates->width();
        for (QDockWidget *dock : {docks.candidates, docks.measurements, docks.metrics, docks.calibration, docks.device,
                 docks.drillPairs, docks.searches, docks.compare, docks.lessons, docks.roofline}) {
            const int wanted = dock->widget()->minimumSizeHint().width();
            QVERIFY2(wanted <= room,
                qPrintable(QStringLiteral("%1 asks for %2 px, %3 px are left")
                               .arg(dock->windowTitle())
                               .arg(wanted)
                               .arg(room)));
        }

        window.arrangeLayout(DockLayout::Search);
        auto *lineage = docks.searches->findChild<LineageCanvas *>();
        QVERIFY(lineage);
        QTRY_VERIFY(!docks.searches->visibleRegion().isEmpty());
        QTRY_VERIFY2(docks.searches->height() >= window.height() * 55 / 100,
            qPrintable(QStringLiteral("Searches dock %1 px").arg(docks.searches->height())));
        QTRY_VERIFY2(lineage->height() >= 150, qPrintable(QStringLiteral("lineage %1 px").arg(lineage->height())));
        QCOMPARE(window.size(), size);

        window.arrangeLayout(DockLayout::Lesson);
        QTRY_VERIFY(!docks.lessons->visibleRegion().isEmpty());
        QTRY_VERIFY2(docks.lessons->height() >= window.height() / 2,
            qPrintable(QStringLiteral("Lessons dock %1 px").arg(docks.lessons->height())));
        QVERIFY(docks.searches->visibleRegion().isEmpty()); // behind the Lessons tab now

        window.restoreDefaultLayout();
        QTRY_VERIFY(!docks.candidates->visibleRegion().isEmpty());
        QCOMPARE(window.size(), size);
    }

    // The window's parts by identity: every dock holds its panel, the View menu lists every dock once, and the
    // actions that need a store are disabled with the reason until one is open, then enabled.
    void contextNamesEveryPart()
    {
        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        const ExplorerContext &c = window.context();
        QCOMPARE(c.session, &session);
        QCOMPARE(c.settings, &settings);
        const ExplorerContext::Docked &p = c.panels;
        const QList<QWidget *> panels {p.problems, p.overview, p.candidates, p.measurements, p.metrics, p.calibration,
            p.device, p.forecast, p.drillPairs, p.searches, p.compare, p.lessons, p.roofline};
        const QList<QDockWidget *> docks = c.docks.all();
        QCOMPARE(docks.size(), panels.size());
        QCOMPARE(window.findChildren<QDockWidget *>().size(), docks.size()); // nothing left out of the context
        for (qsizetype i = 0; i < docks.size(); ++i) {
            QVERIFY2(docks.at(i) && panels.at(i), qPrintable(QString::number(i)));
            QCOMPARE(docks.at(i)->widget(), panels.at(i));
        }
        QVERIFY(c.diff && c.welcome && c.selection && c.searches && c.forecasts && c.deletion);
        const QList<QAction *> needing = c.actions.needingStore();
        QCOMPARE(needing.size(), 6);
        for (QAction *action : needing) {
            QVERIFY(action);
            QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
            QVERIFY2(action->toolTip().contains(QStringLiteral("No store is open")), qPrintable(action->toolTip()));
        }
        QVERIFY(c.actions.openStore->isEnabled());
        QVERIFY(test::openSession(session, m_storePath));
        for (QAction *action : needing)
            QVERIFY2(action->isEnabled(), qPrintable(action->text()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
