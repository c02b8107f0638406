// EvidenceActions: "Show Evidence…" for the focused candidate (the candidate table's and the Forecast dock's menus, a
// double-click on a measured speedup), opening one Evidence dialog that follows whichever candidate it is asked for —
// by this action, or by any view through Selection::requestEvidence (a search node's menu).
#pragma once

#include "core/domain/problem.h"

#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace gpuf {

class EvidenceDialog;
class Selection;
class StoreSession;

class EvidenceActions : public QObject
{
    Q_OBJECT

public:
    EvidenceActions(StoreSession *session, Selection *selection, QWidget *dialogParent);

    // Acts on the selection's candidate; disabled, with the reason, when there is none.
    QAction *showEvidenceAction() const { return m_showEvidence; }
    // Opens (or raises) the dialog on `candidateId`.
    void showEvidence(RowId candidateId);
    EvidenceDialog *dialog() const;

private:
    void updateAction();

    StoreSession *m_session;
    Selection *m_selection;
    QPointer<QWidget> m_dialogParent;
    QAction *m_showEvidence;
    QPointer<EvidenceDialog> m_dialog;
};

} // namespace gpuf
