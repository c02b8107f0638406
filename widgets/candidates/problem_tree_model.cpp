// ProblemTreeModel; see problem_tree_model.h.
#include "widgets/candidates/problem_tree_model.h"

#include <QFont>

#include <algorithm>

namespace gpuf {

ProblemTreeModel::ProblemTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{ }

void ProblemTreeModel::setTable(const CandidateTablePtr &table)
{
    beginResetModel();
    m_table = table;
    m_nodes.clear();
    m_topLevel.clear();
    buildIndexes();
    if (m_table) {
        m_topLevel.append(appendNode(Kind::All, -1, -1, -1, -1));
        for (int p = 0; p < m_table->problems.size(); ++p)
            m_topLevel.append(appendNode(Kind::Problem, p, -1, p, -1));
        for (int i = 0; i < m_topLevel.size(); ++i)
            m_nodes[m_topLevel[i]].row = i;
    }
    endResetModel();
}

void ProblemTreeModel::buildIndexes()
{
    m_childOffsets.clear();
    m_childRows.clear();
    m_problemRoots.clear();
    m_problemSearches.clear();
    m_problemKernels.clear();
    if (!m_table)
        return;
    const CandidateTable &t = *m_table;
    const qsizetype rows = t.rows.size();
    QList<int> parentRow(rows, -1);
    m_childOffsets.fill(0, rows + 1);
    m_problemRoots.resize(t.problems.size());
    m_problemKernels.fill(0, t.problems.size());
    for (int r = 0; r < rows; ++r) {
        const CandidateRow &row = t.rows[r];
        const int parent = row.parentId ? t.rowOf(row.parentId) : -1;
        // Lineage stays inside a problem: a parent in another problem makes the kernel a root of its own.
        if (parent >= 0 && parent != r && t.rows[parent].problemIndex == row.problemIndex) {
            parentRow[r] = parent;
            ++m_childOffsets[parent + 1];
        } else if (row.problemIndex >= 0) {
            m_problemRoots[row.problemIndex].append(r);
        }
        if (row.problemIndex >= 0)
            ++m_problemKernels[row.problemIndex];
    }
    for (qsizetype r = 0; r < rows; ++r)
        m_childOffsets[r + 1] += m_childOffsets[r];
    m_childRows.resize(m_childOffsets[rows]);
    QList<int> fill(m_childOffsets.cbegin(), m_childOffsets.cend() - 1);
    for (int r = 0; r < rows; ++r) { // rows ascend, so children come out in id order
        if (parentRow[r] >= 0)
            m_childRows[fill[parentRow[r]]++] = r;
    }
    m_problemSearches.resize(t.problems.size());
    for (int s = 0; s < t.searches.size(); ++s) {
        QList<bool> seen(t.problems.size(), false);
        const int own = t.problemIndexOf(t.searches[s].problemId);
        if (own >= 0)
            seen[own] = true;
        for (RowId id : t.searches[s].kernelIds) {
            const int problem = t.rows[t.rowOf(id)].problemIndex;
            if (problem >= 0)
                seen[problem] = true;
        }
        for (int p = 0; p < seen.size(); ++p) {
            if (seen[p])
                m_problemSearches[p].append(s);
        }
    }
}

int ProblemTreeModel::appendNode(Kind kind, int ref, int parent, int problem, int search) const
{
    Node node;
    node.kind = kind;
    node.ref = ref;
    node.parent = parent;
    node.problem = problem;
    node.search = search;
    m_nodes.append(node);
    return int(m_nodes.size() - 1);
}

bool ProblemTreeModel::isMember(int search, int row) const
{
    const QList<RowId> &ids = m_table->searches[search].kernelIds;
    return std::binary_search(ids.cbegin(), ids.cend(), m_table->rows[row].id);
}

QList<int> ProblemTreeModel::childRows(const Node &node) const
{
    QList<int> rows;
    switch (node.kind) {
    case Kind::All:
        break;
    case Kind::Problem:
        rows = m_problemRoots[node.ref];
        break;
    case Kind::Search:
        // Roots of the search: members of this problem whose parent is not a member.
        for (RowId id : m_table->searches[node.ref].kernelIds) {
            const int row = m_table->rowOf(id);
            const CandidateRow &r = m_table->rows[row];
            if (r.problemIndex != node.problem)
                continue;
            const int parent = r.parentId ? m_table->rowOf(r.parentId) : -1;
            if (parent < 0 || m_table->rows[parent].problemIndex != node.problem || !isMember(node.ref, parent))
                rows.append(row);
        }
        break;
    case Kind::Kernel:
        for (int i = m_childOffsets[node.ref]; i < m_childOffsets[node.ref + 1]; ++i) {
            if (node.search < 0 || isMember(node.search, m_childRows[i]))
                rows.append(m_childRows[i]);
        }
        break;
    }
    return rows;
}

void ProblemTreeModel::ensureChildren(int nodeIndex) const
{
    if (m_nodes[nodeIndex].built)
        return;
    const Node node = m_nodes[nodeIndex]; // a copy: appending may move the list
    QList<int> children;
    if (node.kind == Kind::Problem) {
        for (int search : m_problemSearches[node.ref])
            children.append(appendNode(Kind::Search, search, nodeIndex, node.problem, search));
    }
    for (int row : childRows(node))
        children.append(appendNode(Kind::Kernel, row, nodeIndex, node.problem, node.search));
    for (int i = 0; i < children.size(); ++i)
        m_nodes[children[i]].row = i;
    m_nodes[nodeIndex].children = std::move(children);
    m_nodes[nodeIndex].built = true;
}

QModelIndex ProblemTreeModel::scopeIndex(RowId problemId, RowId searchId) const
{
    if (!m_table || m_topLevel.isEmpty())
        return {};
    if (problemId == 0)
        return searchId == 0 ? index(0, 0) : QModelIndex();
    const int problem = m_table->problemIndexOf(problemId);
    if (problem < 0)
        return {};
    const QModelIndex problemIndex = index(problem + 1, 0);
    if (searchId == 0)
        return problemIndex;
    const int search = m_table->searchIndexOf(searchId);
    const int position = int(m_problemSearches[problem].indexOf(search));
    return search >= 0 && position >= 0 ? index(position, 0, problemIndex) : QModelIndex();
}

QModelIndex ProblemTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(m_topLevel[row]));
    const int node = int(parent.internalId());
    ensureChildren(node);
    return createIndex(row, column, quintptr(m_nodes[node].children[row]));
}

QModelIndex ProblemTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const int parent = m_nodes[int(child.internalId())].parent;
    if (parent < 0)
        return {};
    return createIndex(m_nodes[parent].row, 0, quintptr(parent));
}

int ProblemTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_topLevel.size());
    if (parent.column() != 0)
        return 0;
    const int node = int(parent.internalId());
    ensureChildren(node);
    return int(m_nodes[node].children.size());
}

int ProblemTreeModel::columnCount(const QModelIndex &) const { return ColumnCount; }

bool ProblemTreeModel::hasChildren(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return !m_topLevel.isEmpty();
    if (parent.column() != 0)
        return false;
    const Node &node = m_nodes[int(parent.internalId())];
    if (node.built)
        return !node.children.isEmpty();
    switch (node.kind) {
    case Kind::All:
        return false;
    case Kind::Problem:
        return !m_problemRoots[node.ref].isEmpty() || !m_problemSearches[node.ref].isEmpty();
    case Kind::Search:
        return !m_table->searches[node.ref].kernelIds.isEmpty();
    case Kind::Kernel:
        return m_childOffsets[node.ref + 1] > m_childOffsets[node.ref];
    }
    return false;
}

QVariant ProblemTreeModel::displayData(const Node &node, int column) const
{
    const CandidateTable &t = *m_table;
    switch (node.kind) {
    case Kind::All:
        return column == NameColumn ? tr("All kernels") : QVariant(int(t.rows.size()));
    case Kind::Problem:
        return column == NameColumn ? QVariant(t.problems[node.ref].name) : QVariant(m_problemKernels[node.ref]);
    case Kind::Search:
        return column == NameColumn ? QVariant(t.searches[node.ref].name)
                                    : QVariant(int(t.searches[node.ref].kernelIds.size()));
    case Kind::Kernel: {
        const CandidateRow &row = t.rows[node.ref];
        if (column == CountColumn)
            return {};
        return row.isReference ? tr("%1 (reference)").arg(row.displayName()) : row.displayName();
    }
    }
    return {};
}

QVariant ProblemTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node &node = m_nodes[int(index.internalId())];
    switch (role) {
    case Qt::DisplayRole:
        return displayData(node, index.column());
    case Qt::FontRole: {
        if (node.kind == Kind::Kernel || index.column() != NameColumn)
            return {};
        QFont font;
        font.setBold(node.kind != Kind::Search);
        return font;
    }
    case Qt::TextAlignmentRole:
        return node.kind != Kind::Kernel && index.column() == CountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                          : QVariant();
    case KindRole:
        return int(node.kind);
    case ProblemIdRole:
        return node.problem >= 0 ? m_table->problems[node.problem].id : RowId(0);
    case SearchIdRole:
        return node.search >= 0 ? m_table->searches[node.search].id : RowId(0);
    case KernelIdRole:
        return node.kind == Kind::Kernel ? m_table->rows[node.ref].id : RowId(0);
    case TableRowRole:
        return node.kind == Kind::Kernel ? node.ref : -1;
    case SortRole:
        return node.kind == Kind::Kernel ? QVariant(m_table->rows[node.ref].id) : QVariant(index.row());
    default:
        return {};
    }
}

QVariant ProblemTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? tr("Problem / search / kernel")
        : section == CountColumn ? tr("Kernels")
                                 : QVariant();
}

} // namespace gpuf
