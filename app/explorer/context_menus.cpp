// ContextMenus; see context_menus.h.
#include "app/explorer/context_menus.h"

#include "core/session/candidate_source.h"
#include "core/session/selection.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/calibration/metrics_table_model.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_csv.h"
#include "widgets/candidates/candidate_filter_bar.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/candidates/kernel_actions.h"
#include "widgets/candidates/problem_tree.h"
#include "widgets/candidates/problem_tree_model.h"
#include "widgets/common/item_view_menu.h"
#include "widgets/evidence/evidence_actions.h"
#include "widgets/forecast/forecast_controller.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/forecast/forecast_rows_model.h"
#include "widgets/lessons/lessons_panel.h"
#include "widgets/measure/measure_controller.h"
#include "widgets/session/deletion_controller.h"

#include <QAction>
#include <QMenu>
#include <QTableView>
#include <QTreeView>

namespace gpuf {

namespace {

QAction *copyActionOf(QAbstractItemView *view)
{
    return view->findChild<QAction *>(QStringLiteral("copyRows"), Qt::FindDirectChildrenOnly);
}

// What deleting a node of the problems tree removes: its problem, search or kernel ("All kernels": nothing).
DeletionRequest nodeRequest(const QModelIndex &index)
{
    switch (ProblemTreeModel::Kind(index.data(ProblemTreeModel::KindRole).toInt())) {
    case ProblemTreeModel::Kind::Problem:
        return DeletionRequest::of(RowKind::Problem, {index.data(ProblemTreeModel::ProblemIdRole).toLongLong()});
    case ProblemTreeModel::Kind::Search:
        return DeletionRequest::of(RowKind::Search, {index.data(ProblemTreeModel::SearchIdRole).toLongLong()});
    case ProblemTreeModel::Kind::Kernel:
        return DeletionRequest::of(RowKind::Kernel, {index.data(ProblemTreeModel::KernelIdRole).toLongLong()});
    case ProblemTreeModel::Kind::All:
        break;
    }
    return {};
}

} // namespace

ContextMenus::ContextMenus(const Parts &parts, QWidget *window)
    : QObject(window)
    , m_parts(parts)
    , m_window(window)
{
    m_parts.kernels->setDialogParent(window);
    QTreeView *tree = m_parts.tree->treeView();
    QTableView *candidates = m_parts.candidates->tableView();
    for (QAbstractItemView *view : std::initializer_list<QAbstractItemView *> {
             tree, candidates, m_parts.forecasts->view(), m_parts.metrics->view()})
        addCopyAction(view);
    // Delete removes the kernels of the table's selection; in the tree, the current node's problem, search or kernel.
    candidates->addAction(m_parts.kernels->deleteKernelsAction());
    auto *deleteNode = new QAction(tr("Delete"), tree);
    deleteNode->setObjectName(QStringLiteral("deleteTreeNode"));
    deleteNode->setShortcut(QKeySequence::Delete);
    deleteNode->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    tree->addAction(deleteNode);
    connect(deleteNode, &QAction::triggered, this, [this, tree] {
        const DeletionRequest request = nodeRequest(tree->currentIndex());
        if (!request.isEmpty())
            m_parts.deletion->requestDeletion(request, m_window);
    });
    installContextMenu(tree, [this](QMenu *menu, const QModelIndex &index) { fillTree(menu, index); });
    installContextMenu(candidates, [this](QMenu *menu, const QModelIndex &) { fillCandidates(menu); });
    connect(candidates, &QAbstractItemView::doubleClicked, this, &ContextMenus::openEvidenceOnDoubleClick);
    installContextMenu(
        m_parts.forecasts->view(), [this](QMenu *menu, const QModelIndex &index) { fillForecasts(menu, index); });
    installContextMenu(
        m_parts.metrics->view(), [this](QMenu *menu, const QModelIndex &index) { fillMetrics(menu, index); });
}

void ContextMenus::addDeletion(QMenu *menu, const QString &text, const DeletionRequest &request, QString reason)
{
    QAction *action = menu->addAction(text);
    action->setObjectName(QStringLiteral("contextDelete"));
    if (reason.isEmpty())
        reason = m_parts.deletion->unavailableReason();
    setActionReason(action, reason, tr("Edit → Undo puts it back"));
    connect(
        action, &QAction::triggered, this, [this, request] { m_parts.deletion->requestDeletion(request, m_window); });
}

void ContextMenus::fillTree(QMenu *menu, const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const QModelIndex name = index.siblingAtColumn(ProblemTreeModel::NameColumn);
    const auto kind = ProblemTreeModel::Kind(index.data(ProblemTreeModel::KindRole).toInt());
    const QString label = name.data().toString();
    switch (kind) {
    case ProblemTreeModel::Kind::All:
        menu->addAction(m_parts.forecaster->forecastProblemAction());
        menu->addSeparator();
        menu->addAction(copyActionOf(m_parts.tree->treeView()));
        return;
    case ProblemTreeModel::Kind::Problem:
        menu->addAction(m_parts.forecaster->forecastProblemAction());
        menu->addSeparator();
        menu->addAction(copyActionOf(m_parts.tree->treeView()));
        menu->addSeparator();
        addDeletion(menu, tr("Delete Problem “%1”…").arg(label), nodeRequest(index));
        return;
    case ProblemTreeModel::Kind::Search:
        menu->addAction(copyActionOf(m_parts.tree->treeView()));
        menu->addSeparator();
        addDeletion(menu, tr("Delete Search “%1”…").arg(label), nodeRequest(index));
        return;
    case ProblemTreeModel::Kind::Kernel:
        break;
    }
    // A right-clicked kernel is what the measure and forecast entries act on, as if it were chosen in the table.
    const RowId kernel = index.data(ProblemTreeModel::KernelIdRole).toLongLong();
    m_parts.selection->setSelectedIds({kernel});
    menu->addAction(m_parts.measure->measureSelectedAction());
    menu->addAction(m_parts.forecaster->forecastSelectedAction());
    menu->addAction(m_parts.forecaster->reforecastSelectedAction());
    menu->addSeparator();
    menu->addAction(m_parts.kernels->compareReferenceAction());
    menu->addAction(m_parts.kernels->compareParentAction());
    menu->addSeparator();
    menu->addAction(copyActionOf(m_parts.tree->treeView()));
    menu->addSeparator();
    addDeletion(menu, tr("Delete Kernel “%1”…").arg(label), nodeRequest(index));
}

void ContextMenus::fillCandidates(QMenu *menu)
{
    menu->addAction(m_parts.measure->measureSelectedAction());
    menu->addAction(m_parts.forecaster->forecastSelectedAction());
    menu->addAction(m_parts.forecaster->reforecastSelectedAction());
    menu->addAction(m_parts.forecaster->forecastProblemAction());
    menu->addSeparator();
    menu->addAction(m_parts.kernels->compareReferenceAction());
    menu->addAction(m_parts.kernels->compareParentAction());
    if (m_parts.evidence)
        menu->addAction(m_parts.evidence->showEvidenceAction());
    menu->addAction(m_parts.kernels->exportCaseAction());
    menu->addSeparator();
    menu->addAction(copyActionOf(m_parts.candidates->tableView()));
    CandidateBrowser *browser = m_parts.candidates;
    menu->addAction(tr("Export Table as CSV…"), browser,
        [browser] { exportCandidateTableInteractively(*browser->model(), browser); });
    if (m_parts.lessons)
        menu->addAction(m_parts.lessons->newLessonFromSelectionAction());
    menu->addSeparator();
    menu->addAction(m_parts.kernels->deleteKernelsAction());

    // The forecasts the table shows: those of its chosen forecaster.
    const QList<RowId> targets = m_parts.kernels->deletionTargets();
    const CandidateTablePtr table = m_parts.source->table();
    const int forecaster = m_parts.candidates->filterBar()->forecasterIndex();
    DeletionRequest request;
    request.forecastsOfCandidates = targets;
    QString reason;
    QString name;
    if (!table || forecaster < 0 || forecaster >= table->forecasters.size()) {
        reason = tr("The table shows no forecaster's forecasts");
    } else {
        const CandidateForecaster &f = table->forecasters[forecaster];
        request.forecastsBy = f.id;
        name = f.name; // as the table's Forecaster box names it (its display name is that box's tooltip)
    }
    if (reason.isEmpty() && targets.isEmpty())
        reason = tr("Select kernels whose forecasts to delete");
    addDeletion(menu,
        name.isEmpty() ? tr("Delete Forecasts of Selected…")
                       : tr("Delete Forecasts by “%1” of %n Selected…", nullptr, int(targets.size())).arg(name),
        request, reason);
}

// A double-click on a measured speedup or its bin opens the evidence behind it.
void ContextMenus::openEvidenceOnDoubleClick(const QModelIndex &index)
{
    if (!m_parts.evidence || !index.isValid())
        return;
    if (index.column() != CandidateColumn::SpeedupColumn && index.column() != CandidateColumn::MeasuredBinColumn)
        return;
    m_parts.evidence->showEvidence(index.data(CandidateTableModel::KernelIdRole).toLongLong());
}

void ContextMenus::fillForecasts(QMenu *menu, const QModelIndex &index)
{
    // The Forecast dock shows the selected pair: its measured speedup's evidence is the candidate's.
    if (m_parts.evidence) {
        menu->addAction(m_parts.evidence->showEvidenceAction());
        menu->addSeparator();
    }
    menu->addAction(copyActionOf(m_parts.forecasts->view()));
    const ForecastRow *row = m_parts.forecasts->model()->rowAt(index.row());
    if (!index.isValid() || !row)
        return;
    menu->addSeparator();
    switch (row->kind) {
    case ForecastRow::Kind::Stored:
        addDeletion(menu, tr("Delete This Forecast"), DeletionRequest::of(RowKind::Forecast, {row->forecast.id}));
        break;
    case ForecastRow::Kind::Combined: {
        QList<RowId> ids;
        for (const Forecast &sample : row->samples)
            ids.append(sample.id);
        addDeletion(menu, tr("Delete These %n Samples…", nullptr, int(ids.size())),
            DeletionRequest::of(RowKind::Forecast, ids));
        break;
    }
    case ForecastRow::Kind::Live:
        addDeletion(menu, tr("Delete This Forecast"), {},
            tr("This request is still queued or running: nothing is stored yet (Cancel Forecasts stops it)"));
        break;
    }
}

void ContextMenus::fillMetrics(QMenu *menu, const QModelIndex &index)
{
    menu->addAction(copyActionOf(m_parts.metrics->view()));
    if (!index.isValid())
        return;
    menu->addSeparator();
    const QModelIndex first = index.siblingAtColumn(MetricsTableModel::ForecasterColumn);
    const RowId id = first.data(MetricsTableModel::ForecasterIdRole).toLongLong();
    addDeletion(menu, tr("Delete Forecaster “%1” and Its Forecasts…").arg(first.data().toString()),
        DeletionRequest::of(RowKind::Forecaster, {id}),
        id == 0 ? tr("This row is not a stored forecaster") : QString());
}

} // namespace gpuf
