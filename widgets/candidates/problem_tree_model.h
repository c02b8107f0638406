// ProblemTreeModel: "All kernels", then each problem → its searches → the lineage of their kernels (parent → child),
// and the problem's own lineage. Nodes are made when a branch is first asked for, so 100 000 kernels cost nothing
// until they are expanded.
#pragma once

#include "core/session/candidate_query.h"

#include <QAbstractItemModel>

namespace gpuf {

class ProblemTreeModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, CountColumn, ColumnCount };
    enum class Kind : quint8 { All, Problem, Search, Kernel };
    enum Role {
        SortRole = Qt::UserRole,
        KindRole, // Kind as int
        ProblemIdRole, // the problem the node belongs to (0: all)
        SearchIdRole, // the search the node belongs to (0: none)
        KernelIdRole, // Kernel nodes
        TableRowRole, // Kernel nodes: the CandidateTable row
    };

    explicit ProblemTreeModel(QObject *parent = nullptr);

    void setTable(const CandidateTablePtr &table);
    CandidateTablePtr table() const { return m_table; }

    // The node of a problem (0: "All kernels") or of one of its searches; invalid when absent.
    QModelIndex scopeIndex(RowId problemId, RowId searchId = 0) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node
    {
        Kind kind = Kind::All;
        int ref = -1; // problem index, search index or table row
        int parent = -1; // node index; -1: top level
        int row = 0; // position among its parent's children
        int problem = -1; // problem index of the branch
        int search = -1; // search index of the branch
        bool built = false;
        QList<int> children; // node indexes
    };
    void buildIndexes();
    void ensureChildren(int node) const;
    QList<int> childRows(const Node &node) const; // table rows (Kernel children) or refs (other kinds)
    bool isMember(int search, int row) const;
    int appendNode(Kind kind, int ref, int parent, int problem, int search) const;
    QVariant displayData(const Node &node, int column) const;

    CandidateTablePtr m_table;
    mutable QList<Node> m_nodes; // grows as branches are opened
    QList<int> m_topLevel;
    QList<int> m_childOffsets; // children of table row r: m_childRows[m_childOffsets[r] .. m_childOffsets[r + 1])
    QList<int> m_childRows;
    QList<QList<int>> m_problemRoots; // per problem: rows whose parent is not a kernel of the same problem
    QList<QList<int>> m_problemSearches; // per problem: search indexes with kernels in it (or tied to it)
    QList<int> m_problemKernels; // per problem: kernel count
};

} // namespace gpuf
