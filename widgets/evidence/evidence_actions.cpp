// EvidenceActions; see evidence_actions.h.
#include "widgets/evidence/evidence_actions.h"

#include "core/session/selection.h"
#include "widgets/common/item_view_menu.h"
#include "widgets/evidence/evidence_dialog.h"

#include <QAction>

namespace gpuf {

EvidenceActions::EvidenceActions(StoreSession *session, Selection *selection, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_session(session)
    , m_selection(selection)
    , m_dialogParent(dialogParent)
    , m_showEvidence(new QAction(tr("Show &Evidence…"), this))
{
    m_showEvidence->setObjectName(QStringLiteral("showEvidence"));
    connect(m_showEvidence, &QAction::triggered, this, [this] { showEvidence(m_selection->candidateId()); });
    connect(m_selection, &Selection::pairChanged, this, &EvidenceActions::updateAction);
    // Views without the action ask through the selection (a search's node menu).
    connect(m_selection, &Selection::evidenceRequested, this, &EvidenceActions::showEvidence);
    updateAction();
}

void EvidenceActions::showEvidence(RowId candidateId)
{
    if (candidateId == 0)
        return;
    if (!m_dialog) {
        m_dialog = new EvidenceDialog(m_session, m_dialogParent);
        m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_dialog->showCandidate(candidateId);
    m_dialog->show();
    m_dialog->raise();
    m_dialog->activateWindow();
}

EvidenceDialog *EvidenceActions::dialog() const { return m_dialog; }

void EvidenceActions::updateAction()
{
    setActionReason(m_showEvidence, m_selection->candidateId() == 0 ? tr("Choose a kernel first") : QString(),
        tr("Who measured this kernel's speedup and how, its 95 % interval, and each measurement's verdict"));
}

} // namespace gpuf
