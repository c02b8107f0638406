// Offscreen GUI tests of the explorer shell: opening a store shows its problems, a bad file is reported without
// blocking, recent stores are remembered, and the default dock layout can be restored.
#include "app/explorer/main_window.h"
#include "core/interop/corpus.h"
#include "core/store/store.h"
#include "gpuf_config.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/diff/diff_view.h"
#include "widgets/overview/store_overview.h"
#include "widgets/session/store_session.h"
#include "widgets/settings/settings.h"

#include <QDockWidget>
#include <QFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

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
        QSignalSpy opened(&session, &StoreSession::opened);
        session.open(m_storePath);
        QTRY_COMPARE(opened.count(), 1);
        auto *overview = window.findChild<StoreOverview *>();
        QVERIFY(overview);
        QCOMPARE(overview->problemTable()->model()->rowCount(), 6);
        QVERIFY(window.windowTitle().contains(QStringLiteral("corpus.gpuf")));
        QCOMPARE(settings.lastStore(), QFileInfo(m_storePath).absoluteFilePath());

        // Choosing a candidate in the table shows it against its problem's reference in the diff view.
        auto *browser = window.findChild<CandidateBrowser *>();
        auto *diff = window.findChild<DiffView *>();
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
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("StoreOverviewDock"));
        QVERIFY(dock);
        dock->hide();
        QVERIFY(!dock->isVisible());
        window.restoreDefaultLayout();
        QTRY_VERIFY(dock->isVisible());
        QVERIFY(settings.dockLayout().isEmpty());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
