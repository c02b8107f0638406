// Offscreen tests of the explorer's context menus on a real store: each view's menu holds its entries (measure,
// forecast, compare, copy, delete), enabled or disabled with the reason; deleting from a menu removes the rows the
// view shows and Edit → Undo brings them back; Copy puts the selected rows on the clipboard.
#include "../widgets/tst_candidate_store.h"

#include "app/explorer/main_window.h"
#include "core/session/candidate_source.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_filter_bar.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/candidates/problem_tree.h"
#include "widgets/candidates/problem_tree_model.h"
#include "widgets/common/item_view_menu.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/forecast/forecast_rows_model.h"
#include "widgets/session/deletion_controller.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace gpuf;

namespace {

QStringList texts(const QMenu *menu)
{
    QStringList out;
    for (const QAction *action : menu->actions()) {
        if (!action->isSeparator())
            out.append(action->text().remove(QLatin1Char('&')));
    }
    return out;
}

QAction *entry(const QMenu *menu, const QString &startsWith)
{
    for (QAction *action : menu->actions()) {
        if (action->text().remove(QLatin1Char('&')).startsWith(startsWith))
            return action;
    }
    return nullptr;
}

} // namespace

class TestContextMenus : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    testing::CandidateStoreFacts m_facts;

    struct Fixture
    {
        Settings settings;
        StoreSession session;
        MainWindow window {&settings, &session};
        ProblemTree *tree = nullptr;
        CandidateBrowser *browser = nullptr;
        ForecastPanel *forecasts = nullptr;
        MetricsTable *metrics = nullptr;
    };

    std::unique_ptr<Fixture> open()
    {
        static int counter = 0;
        m_path = m_dir.filePath(QStringLiteral("menus-%1.gpuf").arg(++counter));
        m_facts = testing::makeCandidateStore(m_path);
        auto f = std::make_unique<Fixture>();
        f->window.show();
        f->tree = f->window.context().panels.problems;
        f->browser = f->window.context().panels.candidates;
        f->forecasts = f->window.context().panels.forecast;
        f->metrics = f->window.context().panels.metrics;
        f->session.open(m_path);
        settle(*f);
        return f;
    }

    static void settle(Fixture &f)
    {
        QTRY_VERIFY(f.session.isOpen() && !f.session.isBusy() && f.browser->model()->table()
            && !f.browser->model()->isUpdating());
    }

    static std::unique_ptr<QMenu> menuAt(QAbstractItemView *view, const QModelIndex &index)
    {
        view->scrollTo(index);
        return std::unique_ptr<QMenu>(buildContextMenu(view, view->visualRect(index).center()));
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void editMenuHasUndoAndRedo()
    {
        auto f = open();
        QMenu *edit = nullptr;
        for (QAction *action : f->window.menuBar()->actions()) {
            if (action->text() == QStringLiteral("&Edit"))
                edit = action->menu();
        }
        QVERIFY(edit);
        QCOMPARE(texts(edit), (QStringList {QStringLiteral("Undo"), QStringLiteral("Redo")}));
        QCOMPARE(edit->actions().first()->shortcut(), QKeySequence(QKeySequence::Undo));
        QVERIFY(!edit->actions().first()->isEnabled());
        QVERIFY(edit->actions().first()->toolTip().startsWith(QStringLiteral("Nothing to undo")));
    }

    void treeMenus()
    {
        auto f = open();
        QTreeView *view = f->tree->treeView();
        ProblemTreeModel *model = f->tree->model();

        const QModelIndex problem = model->scopeIndex(m_facts.problems[1]);
        auto menu = menuAt(view, problem);
        QCOMPARE(texts(menu.get()),
            (QStringList {QStringLiteral("Forecast Problem"), QStringLiteral("Copy"),
                QStringLiteral("Delete Problem “softmax”…")}));
        QVERIFY(entry(menu.get(), QStringLiteral("Delete Problem"))->isEnabled());
        QCOMPARE(f->window.context().selection->problemId(), m_facts.problems[1]); // the click chose it

        const QModelIndex search = model->scopeIndex(m_facts.problems[1], m_facts.search);
        view->expand(problem);
        menu = menuAt(view, search);
        QCOMPARE(
            texts(menu.get()), (QStringList {QStringLiteral("Copy"), QStringLiteral("Delete Search “softmax run”…")}));

        // A kernel: the reference, first child of its problem.
        const QModelIndex axpy = model->scopeIndex(m_facts.problems[0]);
        view->expand(axpy);
        const QModelIndex reference = model->index(0, 0, axpy);
        QCOMPARE(reference.data(ProblemTreeModel::KernelIdRole).toLongLong(), m_facts.references[0]);
        menu = menuAt(view, reference);
        const QStringList kernelEntries = texts(menu.get());
        for (const QString &expected : {QStringLiteral("Measure on GPU"), QStringLiteral("Forecast Selected"),
                 QStringLiteral("Re-forecast Selected"), QStringLiteral("Compare with Reference"),
                 QStringLiteral("Compare with Parent"), QStringLiteral("Copy")})
            QVERIFY2(kernelEntries.contains(expected), qPrintable(kernelEntries.join(u'|')));
        QVERIFY(entry(menu.get(), QStringLiteral("Delete Kernel “"))->isEnabled());
        // The reference has no parent and is its own reference: both comparisons disabled, saying why.
        QAction *parent = entry(menu.get(), QStringLiteral("Compare with Parent"));
        QVERIFY(!parent->isEnabled());
        QVERIFY(parent->toolTip().contains(QStringLiteral("no parent")));
        QAction *compareReference = entry(menu.get(), QStringLiteral("Compare with Reference"));
        QVERIFY(!compareReference->isEnabled());
        QVERIFY(!compareReference->toolTip().isEmpty());
        // Without a GPU here, measuring is disabled with its reason.
        QAction *measure = entry(menu.get(), QStringLiteral("Measure on GPU"));
        if (!measure->isEnabled())
            QVERIFY(!measure->toolTip().isEmpty());
        QCOMPARE(f->window.context().selection->selectedIds(), QList<RowId> {m_facts.references[0]});

        entry(menu.get(), QStringLiteral("Copy"))->trigger();
        QVERIFY2(QGuiApplication::clipboard()->text().startsWith(QStringLiteral("axpy v0")),
            qPrintable(QGuiApplication::clipboard()->text()));
    }

    void deleteKernelFromTreeAndUndo()
    {
        auto f = open();
        QTreeView *view = f->tree->treeView();
        ProblemTreeModel *model = f->tree->model();
        const QModelIndex gemm = model->scopeIndex(m_facts.problems[2]);
        QCOMPARE(gemm.siblingAtColumn(ProblemTreeModel::CountColumn).data().toInt(), 20);
        view->expand(gemm);
        const QModelIndex reference = model->index(0, 0, gemm);
        auto menu = menuAt(view, reference);
        entry(menu.get(), QStringLiteral("Delete Kernel “"))->trigger();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = f->window.findChild<QMessageBox *>(QStringLiteral("confirmDeletion"))) != nullptr);
        QVERIFY2(box->text().startsWith(QStringLiteral("Delete 1 kernel")), qPrintable(box->text()));
        QVERIFY2(
            box->informativeText().contains(QStringLiteral("lose their parent")), qPrintable(box->informativeText()));
        QVERIFY(box->informativeText().contains(QStringLiteral("lose their reference kernel")));
        box->findChild<QPushButton *>(QStringLiteral("confirmDeletionButton"))->click();
        QTRY_COMPARE(
            model->scopeIndex(m_facts.problems[2]).siblingAtColumn(ProblemTreeModel::CountColumn).data().toInt(), 19);
        settle(*f);
        QCOMPARE(f->browser->model()->totalRowCount(), 59);
        QVERIFY(f->window.statusBar()->currentMessage().startsWith(QStringLiteral("Deleted 1 kernel")));

        QAction *undo = f->window.context().deletion->undoAction();
        QVERIFY(undo && undo->isEnabled());
        undo->trigger();
        QTRY_COMPARE(
            model->scopeIndex(m_facts.problems[2]).siblingAtColumn(ProblemTreeModel::CountColumn).data().toInt(), 20);
        settle(*f);
        QCOMPARE(f->browser->model()->totalRowCount(), 60);
        // The lineage is whole again: one root, the reference, with every other kernel under it.
        const QModelIndex restored = model->scopeIndex(m_facts.problems[2]);
        QCOMPARE(model->rowCount(restored), 1);
        QCOMPARE(model->index(0, 0, restored).data(ProblemTreeModel::KernelIdRole).toLongLong(), m_facts.references[2]);
    }

    void candidateTableMenu()
    {
        auto f = open();
        auto *selection = f->window.context().selection;
        // The window's forecaster is the built-in cost model: it can forecast, but has no forecasts here to delete.
        selection->setForecasterName(QStringLiteral("costmodel"));
        QTableView *view = f->browser->tableView();
        const int row = f->browser->model()->viewRowOf(m_facts.kernels[5]);
        auto menu = menuAt(view, f->browser->model()->index(row, NameColumn));
        const QStringList entries = texts(menu.get());
        for (const QString &expected : {QStringLiteral("Measure on GPU"), QStringLiteral("Forecast Selected"),
                 QStringLiteral("Re-forecast Selected"), QStringLiteral("Forecast Problem"),
                 QStringLiteral("Compare with Reference"), QStringLiteral("Compare with Parent"),
                 QStringLiteral("Show Evidence…"), QStringLiteral("Copy"), QStringLiteral("Delete Kernel…")})
            QVERIFY2(entries.contains(expected), qPrintable(entries.join(u'|')));
        QCOMPARE(selection->selectedIds(), QList<RowId> {m_facts.kernels[5]});
        QVERIFY(entry(menu.get(), QStringLiteral("Forecast Selected"))->isEnabled());
        QVERIFY(entry(menu.get(), QStringLiteral("Compare with Parent"))->isEnabled());
        QAction *none = entry(menu.get(), QStringLiteral("Delete Forecasts of Selected…"));
        QVERIFY2(none && !none->isEnabled() && !none->toolTip().isEmpty(), qPrintable(entries.join(u'|')));
        // The Delete key is on the table.
        QVERIFY(view->actions().contains(f->window.findChild<QAction *>(QStringLiteral("deleteKernels"))));

        // With one of this store's forecasters chosen, the menu offers to delete its forecasts of the selection.
        selection->setForecasterName(QStringLiteral("model-a"));
        QTRY_VERIFY(f->browser->filterBar()->forecasterIndex() >= 0);
        menu = menuAt(view, f->browser->model()->index(row, NameColumn));
        QAction *forecasts = entry(menu.get(), QStringLiteral("Delete Forecasts by “model-a"));
        QVERIFY2(forecasts, qPrintable(texts(menu.get()).join(u'|')));
        QVERIFY2(forecasts->text().endsWith(QStringLiteral("” of 1 Selected…")), qPrintable(forecasts->text()));
        QVERIFY(forecasts->isEnabled());

        entry(menu.get(), QStringLiteral("Copy"))->trigger();
        const QString copied = QGuiApplication::clipboard()->text();
        QVERIFY2(copied.contains(QLatin1Char('\t')) && !copied.contains(QLatin1Char('\n')), qPrintable(copied));
        QVERIFY(copied.contains(QStringLiteral("axpy"))); // the problem column
    }

    void forecastTableDeletesOneForecastAndUndo()
    {
        auto f = open();
        Selection *selection = f->window.context().selection;
        selection->setPair(m_facts.kernels[2], m_facts.references[0]);
        QTRY_VERIFY(f->forecasts->model()->rowCount() >= 2); // both forecasters forecast kernel 2
        const int rows = f->forecasts->model()->rowCount();
        int stored = -1;
        for (int r = 0; r < rows && stored < 0; ++r) {
            if (f->forecasts->model()->rowAt(r)->kind == ForecastRow::Kind::Stored)
                stored = r;
        }
        QVERIFY(stored >= 0);
        const RowId id = f->forecasts->model()->rowAt(stored)->forecast.id;
        auto menu = menuAt(f->forecasts->view(), f->forecasts->model()->index(stored, 0));
        QCOMPARE(texts(menu.get()),
            (QStringList {
                QStringLiteral("Show Evidence…"), QStringLiteral("Copy"), QStringLiteral("Delete This Forecast")}));
        entry(menu.get(), QStringLiteral("Delete This Forecast"))->trigger();
        QTRY_COMPARE(f->forecasts->model()->rowCount(), rows - 1); // one row: deleted without a question
        QVERIFY(!f->window.findChild<QMessageBox *>(QStringLiteral("confirmDeletion")));
        for (int r = 0; r < f->forecasts->model()->rowCount(); ++r)
            QVERIFY(f->forecasts->model()->rowAt(r)->forecast.id != id);
        settle(*f);
        f->window.context().deletion->undoAction()->trigger();
        QTRY_COMPARE(f->forecasts->model()->rowCount(), rows);
        QVERIFY(f->forecasts->model()->rowOfKey(QStringLiteral("s%1").arg(id)) >= 0);
    }

    void metricsTableOffersForecasterDeletion()
    {
        auto f = open();
        QTRY_VERIFY(f->metrics->view()->model()->rowCount() == 2);
        auto menu = menuAt(f->metrics->view(), f->metrics->view()->model()->index(0, 0));
        const QStringList entries = texts(menu.get());
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.first(), QStringLiteral("Copy"));
        QVERIFY2(entries.last().startsWith(QStringLiteral("Delete Forecaster “model-")), qPrintable(entries.last()));
        QVERIFY(entries.last().endsWith(QStringLiteral("” and Its Forecasts…")));
        QVERIFY(entry(menu.get(), QStringLiteral("Delete Forecaster"))->isEnabled());
    }
};

QTEST_MAIN(TestContextMenus)
#include "tst_context_menus.moc"
