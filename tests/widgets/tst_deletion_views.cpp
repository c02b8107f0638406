// Offscreen tests of deleting from the explorer's views with a real store: the rows the candidate table and the
// problems tree show after a deletion and after its undo and redo, the confirmation with its counts, cancelling, an
// undo the store refuses, and the kernel actions enabled or disabled with the reason.
#include "tst_candidate_store.h"

#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_source.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/candidates/kernel_actions.h"
#include "widgets/candidates/problem_tree.h"
#include "widgets/candidates/problem_tree_model.h"
#include "widgets/session/deletion_controller.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

using namespace gpuf;

class TestDeletionViews : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    testing::CandidateStoreFacts m_facts;

    struct Fixture
    {
        StoreSession session;
        Selection selection;
        CandidateSource source {&session};
        DeletionController deletion {&session, &selection};
        CandidateBrowser browser {&source, &selection};
        ProblemTree tree {&source, &selection};
        KernelActions actions {&source, &selection, &deletion};
        QSignalSpy confirmations {&deletion, &DeletionController::confirmationShown};
    };

    std::unique_ptr<Fixture> open()
    {
        static int counter = 0;
        m_path = m_dir.filePath(QStringLiteral("views-%1.gpuf").arg(++counter));
        m_facts = testing::makeCandidateStore(m_path);
        auto f = std::make_unique<Fixture>();
        f->browser.resize(1200, 600);
        f->tree.resize(300, 600);
        f->browser.show();
        f->tree.show();
        f->actions.setDialogParent(&f->browser);
        f->session.open(m_path);
        settle(*f);
        return f;
    }

    static void settle(Fixture &f)
    {
        QTRY_VERIFY(f.session.isOpen() && f.source.table() && !f.source.isLoading() && !f.browser.model()->isUpdating()
            && !f.deletion.isBusy() && !f.session.isBusy());
    }

    static QList<RowId> shownIds(const CandidateBrowser &browser)
    {
        QList<RowId> ids;
        for (int row = 0; row < browser.model()->rowCount(); ++row)
            ids.append(browser.model()->kernelIdAt(row));
        std::sort(ids.begin(), ids.end());
        return ids;
    }

    static QStringList treeProblems(const ProblemTree &tree)
    {
        QStringList names;
        for (int row = 1; row < tree.model()->rowCount(); ++row)
            names.append(tree.model()->index(row, ProblemTreeModel::NameColumn).data().toString());
        return names;
    }

    static int treeCount(const ProblemTree &tree, RowId problem)
    {
        return tree.model()->scopeIndex(problem).siblingAtColumn(ProblemTreeModel::CountColumn).data().toInt();
    }

    static void selectRows(CandidateBrowser &browser, const QList<RowId> &ids)
    {
        QItemSelectionModel *selection = browser.tableView()->selectionModel();
        selection->clearSelection();
        for (RowId id : ids) {
            const int row = browser.model()->viewRowOf(id);
            QVERIFY(row >= 0);
            selection->select(browser.model()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }

    static QMessageBox *confirmation(Fixture &f, int count)
    {
        if (!QTest::qWaitFor([&] { return f.confirmations.count() == count; }))
            return nullptr;
        return qobject_cast<QMessageBox *>(f.confirmations.last().at(0).value<QWidget *>());
    }

    static void press(QMessageBox *box, const char *name)
    {
        auto *button = box->findChild<QPushButton *>(QString::fromLatin1(name));
        if (button)
            button->click();
        else
            box->button(QMessageBox::Cancel)->click();
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void deleteSelectedKernelsUndoRedo()
    {
        auto f = open();
        QAbstractItemModelTester tester(f->browser.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        const RowId softmax = m_facts.problems[1];
        f->selection.setScope(softmax);
        settle(*f);
        const QList<RowId> before = shownIds(f->browser);
        QCOMPARE(before.size(), 20);
        QCOMPARE(treeCount(f->tree, softmax), 20);
        const QList<RowId> doomed {m_facts.kernels[23], m_facts.kernels[24], m_facts.kernels[25]};
        selectRows(f->browser, doomed);
        QCOMPARE(f->selection.selectedIds(), doomed);
        QVERIFY(f->actions.deleteKernelsAction()->isEnabled());
        QCOMPARE(f->actions.deleteKernelsAction()->text(), QStringLiteral("&Delete 3 Kernels…"));

        // What the confirmation must say, counted independently on another connection.
        auto store = Store::open(m_path, Store::Mode::ExistingOnly, Store::Check::Header);
        auto plan = planDeletion(**store, DeletionRequest::of(RowKind::Kernel, doomed));
        QVERIFY(plan.ok());
        store->reset();

        f->actions.deleteKernelsAction()->trigger();
        QMessageBox *box = confirmation(*f, 1);
        QVERIFY(box);
        QCOMPARE(box->text(), QStringLiteral("Delete %1?").arg(DeletionController::planText(*plan)));
        QVERIFY2(box->text().startsWith(QStringLiteral("Delete 3 kernel")), qPrintable(box->text()));
        QVERIFY(box->text().contains(QStringLiteral(" forecast")));
        QVERIFY(box->informativeText().contains(QStringLiteral("Undo")));
        press(box, "confirmDeletionButton");

        QTRY_COMPARE(f->browser.model()->rowCount(), 17);
        settle(*f);
        QList<RowId> remaining = before;
        for (RowId id : doomed)
            remaining.removeOne(id);
        QCOMPARE(shownIds(f->browser), remaining);
        QCOMPARE(f->browser.model()->totalRowCount(), 57);
        QCOMPARE(treeCount(f->tree, softmax), 17);
        QVERIFY(f->selection.selectedIds().isEmpty()); // the selection let go of the deleted kernels
        QVERIFY(f->deletion.undoAction()->isEnabled());
        QVERIFY2(f->deletion.undoAction()->text().startsWith(QStringLiteral("&Undo Delete 3 kernel")),
            qPrintable(f->deletion.undoAction()->text()));

        f->deletion.undoAction()->trigger();
        QTRY_COMPARE(f->browser.model()->rowCount(), 20);
        settle(*f);
        QCOMPARE(shownIds(f->browser), before);
        QCOMPARE(treeCount(f->tree, softmax), 20);
        QCOMPARE(f->selection.selectedIds(), doomed); // back to what was selected
        QCOMPARE(f->browser.tableView()->selectionModel()->selectedRows().size(), 3);
        QVERIFY(f->deletion.redoAction()->isEnabled());

        f->deletion.redoAction()->trigger();
        QTRY_COMPARE(f->browser.model()->rowCount(), 17);
        settle(*f);
        QCOMPARE(shownIds(f->browser), remaining);
        QCOMPARE(f->confirmations.count(), 1); // redo does not ask again
    }

    void deleteProblemFromTreeAndUndo()
    {
        auto f = open();
        QAbstractItemModelTester tester(f->tree.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        const QStringList problems = treeProblems(f->tree);
        QCOMPARE(problems, (QStringList {QStringLiteral("axpy"), QStringLiteral("softmax"), QStringLiteral("gemm")}));
        f->selection.setScope(m_facts.problems[0]);
        QVERIFY(f->deletion.requestDeletion(DeletionRequest::of(RowKind::Problem, {m_facts.problems[0]}), &f->tree));
        QMessageBox *box = confirmation(*f, 1);
        QVERIFY(box);
        QVERIFY2(box->text().startsWith(QStringLiteral("Delete 1 problem")), qPrintable(box->text()));
        QVERIFY2(box->text().contains(QStringLiteral(", 20 kernel")), qPrintable(box->text()));
        press(box, "confirmDeletionButton");

        QTRY_COMPARE(treeProblems(f->tree), (QStringList {QStringLiteral("softmax"), QStringLiteral("gemm")}));
        settle(*f);
        QCOMPARE(f->selection.problemId(), RowId(0)); // the scope was the deleted problem
        QCOMPARE(f->browser.model()->rowCount(), 40);

        f->deletion.undoAction()->trigger();
        QTRY_COMPARE(treeProblems(f->tree), problems);
        settle(*f);
        QCOMPARE(f->selection.problemId(), m_facts.problems[0]);
        QCOMPARE(f->browser.model()->rowCount(), 20);
        QCOMPARE(f->tree.model()->scopeIndex(m_facts.problems[0]).data().toString(), QStringLiteral("axpy"));
    }

    void cancelDeletesNothing()
    {
        auto f = open();
        selectRows(f->browser, {m_facts.kernels[1], m_facts.kernels[2]});
        f->actions.deleteKernelsAction()->trigger();
        QMessageBox *box = confirmation(*f, 1);
        QVERIFY(box);
        QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel)); // a stray Enter does not delete
        press(box, "no such button: cancel");
        settle(*f);
        QCOMPARE(f->browser.model()->rowCount(), 60);
        QVERIFY(!f->deletion.undoStack()->canUndo());
        QVERIFY(!f->deletion.undoAction()->isEnabled());
    }

    void oneRowIsDeletedWithoutAsking()
    {
        auto f = open();
        // A search without events is one row.
        RowId empty = 0;
        {
            auto store = Store::open(m_path, Store::Mode::ExistingOnly, Store::Check::Header);
            Search s;
            s.name = QStringLiteral("empty run");
            s.mode = QStringLiteral("standard");
            empty = testing::mustInsert(SearchRepo(**store).ensure(s));
        }
        QSignalSpy notices(&f->deletion, &DeletionController::notice);
        QVERIFY(f->deletion.requestDeletion(DeletionRequest::of(RowKind::Search, {empty}), &f->browser));
        QTRY_VERIFY(f->deletion.undoStack()->canUndo());
        QCOMPARE(f->confirmations.count(), 0);
        QTRY_VERIFY(!notices.isEmpty());
        QVERIFY2(notices.last().at(0).toString().startsWith(QStringLiteral("Deleted 1 search")),
            qPrintable(notices.last().at(0).toString()));
    }

    void refusedUndoKeepsTheStackWhereItWas()
    {
        auto f = open();
        const RowId newest = m_facts.kernels.last();
        selectRows(f->browser, {newest});
        f->actions.deleteKernelsAction()->trigger();
        QMessageBox *box = confirmation(*f, 1);
        QVERIFY(box);
        press(box, "confirmDeletionButton");
        QTRY_COMPARE(f->browser.model()->totalRowCount(), 59);
        settle(*f);
        {
            // Another program adds a kernel that takes the deleted kernel's id.
            auto store = Store::open(m_path, Store::Mode::ExistingOnly, Store::Check::Header);
            Kernel k;
            k.problemId = m_facts.problems[2];
            k.source = QStringLiteral("// newer\n");
            k.language = QStringLiteral("cuda");
            k.origin = QStringLiteral("manual");
            QCOMPARE(testing::mustInsert(KernelRepo(**store).insertOrGet(k)), newest);
        }
        QSignalSpy notices(&f->deletion, &DeletionController::notice);
        f->deletion.undoAction()->trigger();
        QTRY_VERIFY(!notices.isEmpty());
        QVERIFY2(notices.last().at(0).toString().startsWith(QStringLiteral("Cannot undo the deletion")),
            qPrintable(notices.last().at(0).toString()));
        settle(*f);
        QVERIFY(f->deletion.undoStack()->canUndo()); // still there to try again
        QCOMPARE(f->deletion.undoStack()->index(), 1);
        QTRY_VERIFY(f->browser.findChild<QMessageBox *>());
    }

    void actionsSayWhyTheyAreDisabled()
    {
        StoreSession session;
        Selection selection;
        CandidateSource source {&session};
        DeletionController deletion {&session, &selection};
        KernelActions actions {&source, &selection, &deletion};
        QVERIFY(!actions.deleteKernelsAction()->isEnabled());
        QCOMPARE(actions.deleteKernelsAction()->toolTip(), QStringLiteral("No store is open"));
        QCOMPARE(actions.deleteKernelsAction()->statusTip(), QStringLiteral("No store is open"));
        QVERIFY(!deletion.undoAction()->isEnabled());
        QVERIFY(deletion.undoAction()->toolTip().startsWith(QStringLiteral("Nothing to undo")));
        QVERIFY(!actions.compareParentAction()->isEnabled());
        QCOMPARE(actions.compareParentAction()->toolTip(), QStringLiteral("Choose a kernel first"));

        auto f = open();
        f->selection.setSelectedIds({});
        f->selection.setPair(0, 0);
        QCOMPARE(f->actions.deleteKernelsAction()->toolTip(), QStringLiteral("Select kernels to delete"));
        // The reference: no parent, and it is the reference itself.
        f->selection.setPair(m_facts.references[0], 0);
        QVERIFY(!f->actions.compareParentAction()->isEnabled());
        QVERIFY(f->actions.compareParentAction()->toolTip().contains(QStringLiteral("no parent")));
        QVERIFY(!f->actions.compareReferenceAction()->isEnabled());
        QCOMPARE(
            f->actions.compareReferenceAction()->toolTip(), QStringLiteral("This kernel is its problem's reference"));
        QVERIFY(f->actions.deleteKernelsAction()->isEnabled()); // the focused kernel
        QCOMPARE(f->actions.deleteKernelsAction()->text(), QStringLiteral("&Delete Kernel…"));
        // A derived kernel: both comparisons.
        f->selection.setPair(m_facts.kernels[5], m_facts.references[0]);
        QVERIFY(f->actions.compareParentAction()->isEnabled());
        QVERIFY(f->actions.compareReferenceAction()->isEnabled());
        QVERIFY(f->actions.compareReferenceAction()->isChecked());
        f->actions.compareParentAction()->trigger();
        QCOMPARE(f->selection.baselineKind(), Selection::Baseline::Parent);
        QVERIFY(f->actions.compareParentAction()->isChecked());
        QVERIFY(!f->actions.compareReferenceAction()->isChecked());
    }
};

QTEST_MAIN(TestDeletionViews)
#include "tst_deletion_views.moc"
