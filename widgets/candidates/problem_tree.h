// ProblemTree: the problems of the open store, their searches and kernel lineages. Choosing a node sets the
// Selection's scope (and, for a kernel, the pair); a scope set elsewhere is shown as the current node.
#pragma once

#include "core/session/candidate_query.h"

#include <QWidget>

class QModelIndex;
class QTreeView;

namespace gpuf {

class CandidateSource;
class ProblemTreeModel;

class ProblemTree : public QWidget
{
    Q_OBJECT

public:
    ProblemTree(CandidateSource *source, Selection *selection, QWidget *parent = nullptr);

    QTreeView *treeView() const { return m_view; }
    ProblemTreeModel *model() const { return m_model; }

private:
    void showTable(const CandidateTablePtr &table);
    void onCurrentChanged(const QModelIndex &current);
    void showScope(RowId problemId, RowId searchId);

    Selection *m_selection;
    QTreeView *m_view;
    ProblemTreeModel *m_model;
    bool m_following = false; // the current node is being set from the Selection: do not write back
};

} // namespace gpuf
