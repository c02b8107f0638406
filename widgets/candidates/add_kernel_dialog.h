// AddKernelDialog: adds dropped `.cu`/`.cuh`/`.py` files or pasted code as kernels of a problem, with the parent
// the user picks and, for CUDA, launch fields (prefilled with the parent's launches, else the reference's) checked
// against the spec they share buffers and cases with. Reading the inputs, listing the store's problems and kernels,
// checking the launches and storing all happen off the GUI thread; the store deduplicates by content and the dialog
// says which inputs were already there (a stored kernel without a launch spec takes the one given).
#pragma once

#include "core/domain/kernel.h"
#include "core/interop/kernel_adding.h"
#include "core/interop/kernel_spec_form.h"
#include "core/session/latest_job.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace gpuf {

class LaunchEditor;
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
    QGroupBox *launchGroup() const { return m_launchGroup; }
    LaunchEditor *launchEditor() const { return m_launches; }
    QString launchNote() const;
    bool isCheckingLaunches() const { return m_baseLoading || m_launchChecking; }
    const QList<interop::FieldIssue> &launchIssues() const { return m_launchIssues; }

    using Input = interop::KernelInput;
    using ProblemEntry = interop::ProblemChoice;
    using Outcome = interop::AddKernelOutcome;
    struct Loaded
    {
        QList<Input> inputs;
        QList<ProblemEntry> problems;
        QString error;
    };
    // The spec an added kernel shares buffers and cases with, and the launches to start from; or why it is unknown.
    struct BaseSpec : interop::KernelBaseSpec
    {
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
    void buildLayout(bool manyInputs);
    void connectSignals();
    void readInputs(const QStringList &files, const QString &pastedText);
    void applyLoaded(const Loaded &loaded);
    void fillParents();
    void showInput(int row);
    void applyOutcomes(const QList<Outcome> &outcomes, RowId problemId, RowId baselineId);
    void loadBaseSpec();
    void applyBaseSpec(const BaseSpec &base);
    void checkLaunches();
    void updateAddButton();
    QJsonObject launchSpec() const; // the added kernel's parameters.spec from the base and the launch fields

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
    QGroupBox *m_launchGroup;
    LaunchEditor *m_launches;
    QLabel *m_launchNote;
    BaseSpec m_base;
    QList<interop::FieldIssue> m_launchIssues;
    LatestJob<QList<interop::FieldIssue>> m_launchJob {this};
    bool m_baseLoading = false;
    bool m_launchChecking = false;
    int m_usable = 0; // inputs that can be added
    bool m_loaded = false;
    bool m_storing = false;
    bool m_done = false; // stored: the button now closes the dialog
};

} // namespace gpuf
