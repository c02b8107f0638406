// KernelActions; see kernel_actions.h.
#include "widgets/candidates/kernel_actions.h"

#include "core/session/candidate_source.h"
#include "core/session/selection.h"
#include "core/store/deletion.h"
#include "widgets/common/item_view_menu.h"
#include "widgets/session/deletion_controller.h"

#include <QAction>
#include <QWidget>

namespace gpuf {

KernelActions::KernelActions(
    CandidateSource *source, Selection *selection, DeletionController *deletion, QObject *parent)
    : QObject(parent)
    , m_source(source)
    , m_selection(selection)
    , m_deletion(deletion)
    , m_compareReference(new QAction(tr("Compare with &Reference"), this))
    , m_compareParent(new QAction(tr("Compare with &Parent"), this))
    , m_deleteKernels(new QAction(this))
    , m_exportCase(new QAction(tr("Export &Case File…"), this))
{
    m_exportCase->setObjectName(QStringLiteral("exportCase"));
    m_compareReference->setObjectName(QStringLiteral("compareWithReference"));
    m_compareParent->setObjectName(QStringLiteral("compareWithParent"));
    m_deleteKernels->setObjectName(QStringLiteral("deleteKernels"));
    for (QAction *action : {m_compareReference, m_compareParent})
        action->setCheckable(true);
    m_deleteKernels->setShortcut(QKeySequence::Delete);
    m_deleteKernels->setShortcutContext(Qt::WidgetWithChildrenShortcut); // only where the kernels are shown
    connect(m_compareReference, &QAction::triggered, this, [this] {
        m_selection->setBaselineKind(Selection::Baseline::Reference);
        updateActions();
    });
    connect(m_compareParent, &QAction::triggered, this, [this] {
        m_selection->setBaselineKind(Selection::Baseline::Parent);
        updateActions();
    });
    connect(m_deleteKernels, &QAction::triggered, this, [this] {
        m_deletion->requestDeletion(DeletionRequest::of(RowKind::Kernel, deletionTargets()), m_dialogParent);
    });
    connect(m_exportCase, &QAction::triggered, this, [this] {
        const CandidateTablePtr table = m_source->table();
        const int row = table ? table->rowOf(m_selection->candidateId()) : -1;
        if (row >= 0 && referenceReason().isEmpty())
            Q_EMIT exportCaseRequested(table->rows[row].id, table->rows[row].name);
    });
    connect(m_selection, &Selection::pairChanged, this, &KernelActions::updateActions);
    connect(m_selection, &Selection::selectedIdsChanged, this, &KernelActions::updateActions);
    connect(m_selection, &Selection::baselineKindChanged, this, &KernelActions::updateActions);
    connect(m_source, &CandidateSource::tableLoaded, this, &KernelActions::updateActions);
    connect(m_source, &CandidateSource::cleared, this, &KernelActions::updateActions);
    connect(m_deletion, &DeletionController::busyChanged, this, &KernelActions::updateActions);
    updateActions();
}

void KernelActions::setDialogParent(QWidget *parent) { m_dialogParent = parent; }

QList<RowId> KernelActions::deletionTargets() const
{
    QList<RowId> ids = m_selection->selectedIds();
    if (ids.isEmpty() && m_selection->candidateId() != 0)
        ids.append(m_selection->candidateId());
    return ids;
}

QString KernelActions::referenceReason() const
{
    const CandidateTablePtr table = m_source->table();
    const int row = table ? table->rowOf(m_selection->candidateId()) : -1;
    if (row < 0)
        return tr("Choose a kernel first");
    if (table->rows[row].isReference)
        return tr("This kernel is its problem's reference");
    if (table->rows[row].baselineId == 0)
        return tr("Its problem has no reference kernel");
    return {};
}

QString KernelActions::parentReason() const
{
    const CandidateTablePtr table = m_source->table();
    const int row = table ? table->rowOf(m_selection->candidateId()) : -1;
    if (row < 0)
        return tr("Choose a kernel first");
    if (table->rows[row].parentId == 0)
        return tr("This kernel has no parent: it is a seed, or was added without one");
    return {};
}

void KernelActions::updateActions()
{
    const Selection::Baseline kind = m_selection->baselineKind();
    m_compareReference->setChecked(kind == Selection::Baseline::Reference);
    m_compareParent->setChecked(kind == Selection::Baseline::Parent);
    setActionReason(m_compareReference, referenceReason(), tr("Show the diff against the problem's reference kernel"));
    setActionReason(m_compareParent, parentReason(), tr("Show the diff against the kernel this one was derived from"));
    setActionReason(m_exportCase, referenceReason(),
        tr("Write this kernel and its problem's reference, with their measurements, forecasts and this view, as one "
           "file to send or to open by double-click"));

    const QList<RowId> targets = deletionTargets();
    m_deleteKernels->setText(
        targets.size() > 1 ? tr("&Delete %n Kernels…", nullptr, int(targets.size())) : tr("&Delete Kernel…"));
    QString reason = m_deletion->unavailableReason();
    if (reason.isEmpty() && targets.isEmpty())
        reason = tr("Select kernels to delete");
    setActionReason(m_deleteKernels, reason,
        tr("Delete the selected kernels with their measurements, forecasts and labels; Edit → Undo puts them back"));
}

} // namespace gpuf
