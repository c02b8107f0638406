// KernelActions: what can be done to the kernels in focus, shared by the candidate table, the problems tree and their
// context menus — compare the focused candidate with its problem's reference or with its parent, export the focused
// pair as a case file, and delete the selected kernels with everything that depends on them (undoable). Each action
// says why when it is disabled.
#pragma once

#include "core/domain/problem.h"

#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace gpuf {

class CandidateSource;
class DeletionController;
class Selection;

class KernelActions : public QObject
{
    Q_OBJECT

public:
    KernelActions(
        CandidateSource *source, Selection *selection, DeletionController *deletion, QObject *parent = nullptr);

    QAction *compareReferenceAction() const { return m_compareReference; }
    QAction *compareParentAction() const { return m_compareParent; }
    // "Delete Kernel…" / "Delete 3 Kernels…": the selected kernels, else the focused one.
    QAction *deleteKernelsAction() const { return m_deleteKernels; }
    // "Export Case File…": the focused candidate and its problem's reference; asks exportCaseRequested.
    QAction *exportCaseAction() const { return m_exportCase; }
    QList<RowId> deletionTargets() const;
    // Where the confirmation appears.
    void setDialogParent(QWidget *parent);

    // Why the focused candidate cannot be compared with its reference / its parent; empty when it can.
    QString referenceReason() const;
    QString parentReason() const;

Q_SIGNALS:
    // The window asks where to write the case file of `candidateId`; `kernelName` names the file it suggests.
    void exportCaseRequested(gpuf::RowId candidateId, const QString &kernelName);

private:
    void updateActions();

    CandidateSource *m_source;
    Selection *m_selection;
    DeletionController *m_deletion;
    QAction *m_compareReference;
    QAction *m_compareParent;
    QAction *m_deleteKernels;
    QAction *m_exportCase;
    QPointer<QWidget> m_dialogParent;
};

} // namespace gpuf
