// AddKernelDialog: adds dropped `.cu`/`.cuh`/`.py` files or pasted code as kernels of a problem, with the parent
// the user picks. Reading the inputs, listing the store's problems and kernels, and storing all happen off the
// GUI thread; the store deduplicates by content and the dialog says which inputs were already there.
#pragma once

#include "core/domain/kernel.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace gpuf {

class Selection;
class StoreSession;

class AddKernelDialog : public QDialog
{
    Q_OBJECT

public:
    // One input per dropped file (a path) or one pasted text; exactly one of the two lists is non-empty.
    AddKernelDialog(StoreSession *session, Selection *selection, const QStringList &files, const QString &pastedText,
        QWidget *parent = nullptr);
    ~AddKernelDialog() override;

    QComboBox *problemBox() const { return m_problem; }
    QComboBox *parentBox() const { return m_parent; }
    QListWidget *inputList() const { return m_inputs; }
    QLineEdit *nameEdit() const { return m_name; }
    QLabel *statusLabel() const { return m_status; }
    bool isReady() const; // inputs read and problems listed: "Add" can be pressed

    struct Input
    {
        QString label; // file name, or "Pasted code"
        Kernel kernel; // when read without error
        QString error; // why it cannot be added
    };
    struct ProblemEntry
    {
        RowId id = 0;
        QString name;
        RowId referenceId = 0;
        QList<QPair<RowId, QString>> kernels; // id, label; ordered by id
    };
    struct Loaded
    {
        QList<Input> inputs;
        QList<ProblemEntry> problems;
        QString error;
    };
    struct Outcome
    {
        QString label;
        RowId id = 0;
        bool inserted = false;
        QString error;
    };

Q_SIGNALS:
    // The kernels now in the store for the inputs that succeeded (added or already there), the problem, the
    // kernel to compare them with, and one line per input saying what happened.
    void kernelsAdded(
        gpuf::RowId problemId, const QList<gpuf::RowId> &kernelIds, gpuf::RowId baselineId, const QString &summary);

public Q_SLOTS:
    void accept() override;

private:
    void applyLoaded(const Loaded &loaded);
    void fillParents();
    void showInput(int row);
    void applyOutcomes(const QList<Outcome> &outcomes, RowId problemId, RowId baselineId);

    StoreSession *m_session;
    Selection *m_selection;
    QListWidget *m_inputs;
    QPlainTextEdit *m_preview;
    QComboBox *m_problem;
    QComboBox *m_parent;
    QLineEdit *m_name;
    QPlainTextEdit *m_notes;
    QLabel *m_status;
    QDialogButtonBox *m_buttons;
    QList<Input> m_loadedInputs;
    QList<ProblemEntry> m_problems;
    bool m_loaded = false;
    bool m_storing = false;
    bool m_done = false; // stored: the button now closes the dialog
};

} // namespace gpuf
