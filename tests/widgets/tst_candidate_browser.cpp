// Offscreen tests of the candidate browser and the problems tree with a real store: the tree sets the Selection's
// scope, the table follows the scope and a drill-down, selecting rows writes the pair and the selected ids, the
// filter bar filters, and queued kernels show as pending.
#include "tst_candidate_store.h"

#include "core/common/english_plurals.h"
#include "core/session/candidate_source.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_filter_bar.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/candidates/problem_tree.h"
#include "widgets/candidates/problem_tree_model.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace gpuf;

class TestCandidateBrowser : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    testing::CandidateStoreFacts m_facts;

    struct Fixture
    {
        Selection selection;
        CandidateSource source {nullptr};
        CandidateBrowser browser {&source, &selection};
        ProblemTree tree {&source, &selection};
    };

    std::unique_ptr<Fixture> load()
    {
        auto f = std::make_unique<Fixture>();
        f->browser.resize(1200, 600);
        f->tree.resize(300, 600);
        f->browser.show();
        f->tree.show();
        f->source.load(m_path);
        return f;
    }

    static void settle(Fixture &f)
    {
        QTRY_VERIFY(f.source.table() && !f.source.isLoading() && !f.browser.model()->isUpdating());
    }

    static QList<RowId> shownIds(const CandidateBrowser &browser)
    {
        QList<RowId> ids;
        for (int row = 0; row < browser.model()->rowCount(); ++row)
            ids.append(browser.model()->kernelIdAt(row));
        return ids;
    }

    static void clickRow(QTableView *view, int row, Qt::KeyboardModifiers modifiers = {})
    {
        const QRect rect = view->visualRect(view->model()->index(row, NameColumn));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, modifiers, rect.center());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        installEnglishPlurals(); // as the programs do at start
        m_path = m_dir.filePath(QStringLiteral("browser.gpuf"));
        m_facts = testing::makeCandidateStore(m_path);
    }

    void loadsTheWholeStore()
    {
        auto f = load();
        settle(*f);
        QCOMPARE(f->browser.model()->rowCount(), 60);
        QTRY_VERIFY(!f->source.changedLinesPending());
        const int row = f->browser.model()->viewRowOf(m_facts.kernels[1]);
        QCOMPARE(f->browser.model()->index(row, ChangedLinesColumn).data().toInt(), 1);
        QCOMPARE(f->browser.filterBar()->hardwareBox()->count(), 2);
        QComboBox *forecasters = f->browser.filterBar()->forecasterBox();
        QCOMPARE(forecasters->count(), 2);
        QStringList shown;
        for (int i = 0; i < forecasters->count(); ++i)
            shown << forecasters->itemText(i);
        QCOMPARE(
            shown, (QStringList {QStringLiteral("model-a (48 forecasts)"), QStringLiteral("model-b (48 forecasts)")}));
        QCOMPARE(f->tree.model()->rowCount(), 4); // "All kernels" and three problems
    }

    void treeSetsScope()
    {
        auto f = load();
        settle(*f);
        QTreeView *tree = f->tree.treeView();
        const QModelIndex gemm = f->tree.model()->scopeIndex(m_facts.problems[2]);
        QVERIFY(gemm.isValid());
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(gemm).center());
        QCOMPARE(f->selection.problemId(), m_facts.problems[2]);
        QCOMPARE(f->selection.searchId(), RowId(0));
        settle(*f);
        QCOMPARE(f->browser.model()->rowCount(), 20);
        for (RowId id : shownIds(f->browser))
            QCOMPARE(f->browser.model()->table()->rows[f->browser.model()->table()->rowOf(id)].problemId,
                m_facts.problems[2]);

        const QModelIndex search = f->tree.model()->scopeIndex(m_facts.problems[1], m_facts.search);
        QVERIFY(search.isValid());
        tree->expand(search.parent());
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(search).center());
        QCOMPARE(f->selection.problemId(), m_facts.problems[1]);
        QCOMPARE(f->selection.searchId(), m_facts.search);
        settle(*f);
        QCOMPARE(shownIds(f->browser), m_facts.searchKernels);

        const QModelIndex all = f->tree.model()->scopeIndex(0);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(all).center());
        QCOMPARE(f->selection.problemId(), RowId(0));
        settle(*f);
        QCOMPARE(f->browser.model()->rowCount(), 60);
    }

    void treeShowsLineageAndScopeSetElsewhere()
    {
        auto f = load();
        settle(*f);
        ProblemTreeModel *model = f->tree.model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        f->source.load(m_path); // a reload resets the tree under the tester
        settle(*f);
        const QModelIndex axpy = model->scopeIndex(m_facts.problems[0]);
        QCOMPARE(model->rowCount(axpy), 1); // one root: the reference; the rest descend from it
        const QModelIndex root = model->index(0, 0, axpy);
        QCOMPARE(root.data(ProblemTreeModel::KernelIdRole).toLongLong(), m_facts.references[0]);
        int descendants = 0;
        std::function<void(const QModelIndex &)> count = [&](const QModelIndex &parent) {
            for (int row = 0; row < model->rowCount(parent); ++row) {
                ++descendants;
                count(model->index(row, 0, parent));
            }
        };
        count(root);
        QCOMPARE(descendants, 19);
        // A kernel node sets the pair too.
        f->tree.treeView()->expand(axpy);
        f->tree.treeView()->setCurrentIndex(root);
        QCOMPARE(f->selection.candidateId(), m_facts.references[0]);
        // A scope set by someone else becomes the tree's current node.
        f->selection.setScope(m_facts.problems[1]);
        QCOMPARE(f->tree.treeView()->currentIndex(), model->scopeIndex(m_facts.problems[1]));
    }

    void selectingRowsSetsThePair()
    {
        auto f = load();
        settle(*f);
        QTableView *view = f->browser.tableView();
        const int row = f->browser.model()->viewRowOf(m_facts.kernels[25]);
        QVERIFY(row >= 0);
        view->scrollTo(view->model()->index(row, 0));
        clickRow(view, row);
        const CandidateTable &table = *f->browser.model()->table();
        const CandidateRow &picked = table.rows[table.rowOf(m_facts.kernels[25])];
        QCOMPARE(f->selection.candidateId(), picked.id);
        QCOMPARE(f->selection.baselineId(), m_facts.references[1]);
        QCOMPARE(f->selection.selectedIds(), QList<RowId>({picked.id}));

        f->selection.setBaselineKind(Selection::Baseline::Parent);
        QVERIFY(picked.parentId != 0);
        QCOMPARE(f->selection.baselineId(), picked.parentId);

        const int other = f->browser.model()->viewRowOf(m_facts.kernels[26]);
        clickRow(view, other, Qt::ControlModifier);
        QList<RowId> both {m_facts.kernels[25], m_facts.kernels[26]};
        QCOMPARE(f->selection.selectedIds(), both);

        // A pair set elsewhere (a plot, say) moves the table's current row.
        f->selection.setPair(m_facts.kernels[40], m_facts.references[2]);
        QCOMPARE(f->browser.model()->kernelIdAt(view->currentIndex().row()), m_facts.kernels[40]);
        // The selection survives a re-sort.
        view->sortByColumn(CreatedColumn, Qt::DescendingOrder);
        settle(*f);
        QCOMPARE(f->browser.model()->kernelIdAt(view->currentIndex().row()), m_facts.kernels[40]);
    }

    // Classroom mode (issue 27, item 10): while a lesson's step is unrevealed, the columns that would give it away
    // are hidden and the summary says why; the kernel, problem and lines changed stay.
    void classroomHidesTheAnswerColumns()
    {
        auto f = load();
        settle(*f);
        QTableView *view = f->browser.tableView();
        const QList<int> answers {SpeedupColumn, MeasuredBinColumn, PredictedBinColumn, ConfidenceColumn,
            ExpectedSpeedupColumn, PlausibilityColumn, TimesColumn};
        for (int column : answers)
            QVERIFY(!view->isColumnHidden(column));
        f->selection.setAnswersHidden(true);
        for (int column : answers)
            QVERIFY2(view->isColumnHidden(column), qPrintable(QString::number(column)));
        for (int column : {NameColumn, ProblemColumn, ChangedLinesColumn})
            QVERIFY(!view->isColumnHidden(column));
        // Nor can the bin or confidence filters tell it.
        QVERIFY(!f->browser.filterBar()->binBox()->isEnabled());
        QCOMPARE(f->browser.filterBar()->binBox()->currentIndex(), 0);
        QVERIFY(!f->browser.filterBar()->minConfidenceBox()->isEnabled());
        QVERIFY2(f->browser.summaryText().contains(QStringLiteral("hidden until the lesson's step is revealed")),
            qPrintable(f->browser.summaryText()));
        f->selection.setAnswersHidden(false);
        for (int column : answers)
            QVERIFY(!view->isColumnHidden(column));
        QVERIFY(f->browser.filterBar()->binBox()->isEnabled());
        QVERIFY(!f->browser.summaryText().contains(QStringLiteral("hidden")));
    }

    void drillDownShowsExactlyThoseKernels()
    {
        auto f = load();
        settle(*f);
        const QList<RowId> ids {m_facts.kernels[50], m_facts.kernels[3], m_facts.kernels[17]};
        f->selection.setFilter(ids, QStringLiteral("bin 5 predicted, bin 3 measured"));
        settle(*f);
        QList<RowId> sorted = ids;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(shownIds(f->browser), sorted);
        auto *showAll = f->browser.findChild<QToolButton *>();
        QVERIFY(showAll && showAll->isVisible());
        QTest::mouseClick(showAll, Qt::LeftButton);
        QVERIFY(f->selection.filterIds().isEmpty());
        settle(*f);
        QCOMPARE(f->browser.model()->rowCount(), 60);
    }

    void filterBarFilters()
    {
        auto f = load();
        settle(*f);
        CandidateFilterBar *bar = f->browser.filterBar();
        bar->setText(QStringLiteral("gemm v"));
        settle(*f);
        QCOMPARE(f->browser.model()->rowCount(), 7); // gemm v0, v3, … v18
        bar->setText({});
        const int param = bar->originBox()->findText(QStringLiteral("param"));
        QVERIFY(param > 0);
        bar->originBox()->setCurrentIndex(param);
        settle(*f);
        for (int row = 0; row < f->browser.model()->rowCount(); ++row)
            QCOMPARE(f->browser.model()->index(row, OriginColumn).data().toString(), QStringLiteral("param"));
        QVERIFY(f->browser.model()->rowCount() > 0);
    }

    void pendingKernelsAreMarked()
    {
        auto f = load();
        settle(*f);
        const RowId queued = m_facts.kernels[9]; // neither measured nor labelled on the first GPU
        f->source.setPendingIds({queued});
        const int row = f->browser.model()->viewRowOf(queued);
        QCOMPARE(f->browser.model()->index(row, StatusColumn).data().toString(),
            candidateStatusName(CandidateStatus::Pending));
        f->source.setPendingIds({});
        QVERIFY(f->browser.model()->index(row, StatusColumn).data().toString()
            != candidateStatusName(CandidateStatus::Pending));
    }

    void badStoreIsReported()
    {
        Selection selection;
        CandidateSource source(nullptr);
        CandidateBrowser browser(&source, &selection);
        QSignalSpy failed(&source, &CandidateSource::loadFailed);
        source.load(m_dir.filePath(QStringLiteral("missing.gpuf")));
        QVERIFY(failed.wait(5000));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("missing.gpuf")));
        QCOMPARE(browser.model()->rowCount(), 0);
    }
};

QTEST_MAIN(TestCandidateBrowser)
#include "tst_candidate_browser.moc"
