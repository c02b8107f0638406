// ProblemTree; see problem_tree.h.
#include "widgets/candidates/problem_tree.h"

#include "core/session/candidate_source.h"
#include "widgets/candidates/problem_tree_model.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace gpuf {

ProblemTree::ProblemTree(CandidateSource *source, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_view(new QTreeView(this))
    , m_model(new ProblemTreeModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ProblemTreeModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(ProblemTreeModel::CountColumn, QHeaderView::ResizeToContents);

    connect(source, &CandidateSource::tableLoaded, this, &ProblemTree::showTable);
    // Kernels added, or a search's members changed: the tree is built again (patched values do not show in it).
    connect(source, &CandidateSource::rowsPatched, this, [this](const CandidateTablePtr &table) {
        const CandidateTablePtr shown = m_model->table();
        if (!shown || table->rows.size() != shown->rows.size() || table->searches.size() != shown->searches.size()
            || !std::equal(table->searches.cbegin(), table->searches.cend(), shown->searches.cbegin(),
                [](const CandidateSearch &a, const CandidateSearch &b) { return a.kernelIds == b.kernelIds; }))
            showTable(table);
    });
    connect(source, &CandidateSource::cleared, this, [this]() { showTable(nullptr); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &ProblemTree::onCurrentChanged);
    connect(m_selection, &Selection::scopeChanged, this, &ProblemTree::showScope);
    if (source->table())
        showTable(source->table());
}

void ProblemTree::showTable(const CandidateTablePtr &table)
{
    m_model->setTable(table);
    m_view->expand(m_model->scopeIndex(m_selection->problemId()));
    showScope(m_selection->problemId(), m_selection->searchId());
}

void ProblemTree::showScope(RowId problemId, RowId searchId)
{
    const QModelIndex current = m_view->currentIndex();
    // A kernel node inside the scope already shows it: keep it rather than jumping to the problem.
    if (current.isValid() && current.data(ProblemTreeModel::ProblemIdRole).toLongLong() == problemId
        && current.data(ProblemTreeModel::SearchIdRole).toLongLong() == searchId)
        return;
    const QModelIndex target = m_model->scopeIndex(problemId, searchId);
    if (!target.isValid())
        return;
    m_following = true;
    m_view->setCurrentIndex(target);
    m_view->scrollTo(target);
    m_following = false;
}

void ProblemTree::onCurrentChanged(const QModelIndex &current)
{
    if (m_following || !current.isValid())
        return;
    const auto kind = ProblemTreeModel::Kind(current.data(ProblemTreeModel::KindRole).toInt());
    m_selection->setScope(current.data(ProblemTreeModel::ProblemIdRole).toLongLong(),
        current.data(ProblemTreeModel::SearchIdRole).toLongLong());
    if (kind != ProblemTreeModel::Kind::Kernel)
        return;
    const int row = current.data(ProblemTreeModel::TableRowRole).toInt();
    const CandidateTable &table = *m_model->table();
    m_selection->setPair(
        table.rows[row].id, pairBaseline(table, row, m_selection->baselineKind(), m_selection->baselineId()));
}

} // namespace gpuf
