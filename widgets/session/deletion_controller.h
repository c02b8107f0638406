// DeletionController: deleting problems, kernels, forecasts, forecasters and searches from the open store, with undo.
// Counting, deleting and restoring run off the GUI thread (core/store/deletion.h); a deletion of more than one row is
// confirmed with its counts first; every deletion becomes a command on an undo stack (Edit → Undo / Redo), so undo puts
// the very rows back with their ids. Each write is announced through the session, and the Selection lets go of rows
// that are gone.
#pragma once

#include "core/store/deletion.h"

#include <QObject>
#include <QPointer>

class QAction;
class QUndoStack;
class QWidget;

namespace gpuf {

class Selection;
class StoreSession;
class DeleteCommand;

class DeletionController : public QObject
{
    Q_OBJECT

public:
    DeletionController(StoreSession *session, Selection *selection, QObject *parent = nullptr);
    ~DeletionController() override;

    QUndoStack *undoStack() const { return m_stack; }
    QAction *undoAction() const { return m_undo; }
    QAction *redoAction() const { return m_redo; }
    bool isBusy() const { return m_busy; }
    // Why nothing can be deleted now ("no store is open", "a deletion is being written…"); empty when it can.
    QString unavailableReason() const;

    // Counts what `request` removes, asks when it is more than one row (a dialog on `dialogParent`), then deletes.
    // Returns false, with a notice, when nothing can be deleted now.
    bool requestDeletion(const DeletionRequest &request, QWidget *dialogParent);

    // "12 kernels, 340 forecasts, 96 measurements": what a plan deletes, largest kinds named first.
    static QString planText(const DeletionPlan &plan);
    // What the deletion leaves behind ("3 kernels lose their parent"); empty when nothing.
    static QString unlinkedText(const DeletionPlan &plan);

Q_SIGNALS:
    void busyChanged(bool busy);
    // For the status bar: what was deleted or restored, or why not.
    void notice(const QString &text);
    // A confirmation is waiting for the user (tests answer it).
    void confirmationShown(QWidget *dialog);

private:
    friend class DeleteCommand;
    struct SelectionState
    {
        RowId problemId = 0;
        RowId searchId = 0;
        RowId candidateId = 0;
        RowId baselineId = 0;
        QList<RowId> selectedIds;
    };

    void setBusy(bool busy);
    void updateActions();
    void confirm(const DeletionRequest &request, const DeletionPlan &plan, QWidget *dialogParent);
    void startDeletion(const DeletionRequest &request);
    void deletionDone(quint64 history, const Result<DeletedRows> &result, DeleteCommand *redoOf);
    void restore(DeleteCommand *command);
    void forgetDeleted(const DeletedRows &rows);
    void announce(const DeletedRows &rows, bool restored);
    void warn(const QString &title, const QString &text);

    StoreSession *m_session;
    Selection *m_selection;
    QUndoStack *m_stack;
    QAction *m_undo;
    QAction *m_redo;
    QPointer<QWidget> m_dialogParent;
    QString m_path; // the store the undo history belongs to
    quint64 m_history = 0; // counts cleared histories: a job that outlives its history drops its result
    bool m_busy = false;
};

} // namespace gpuf
