// NewProblemDialog (File → New Problem…): a problem typed in as docs/kernel-spec.md describes it — name, reference
// kernel (pasted or loaded from a file), launches, buffers, cases and tolerance — checked while the user types by the
// validator gpuf-measure applies (off the GUI thread, latest edit wins), each message next to its field, and stored
// through the store session in one transaction.
#pragma once

#include "core/domain/kernel.h"
#include "core/interop/kernel_spec_form.h"
#include "core/session/latest_job.h"

#include <QDialog>

#include <functional>

class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTimer;

namespace gpuf {

class LaunchEditor;
class StoreSession;

class NewProblemDialog : public QDialog
{
    Q_OBJECT

public:
    explicit NewProblemDialog(StoreSession *session, QWidget *parent = nullptr);
    ~NewProblemDialog() override;

    // The form as it stands, and filling it in (tests, and a file loaded as the reference).
    interop::ProblemFields fields() const;
    void setFields(const interop::ProblemFields &fields);

    QLineEdit *nameEdit() const { return m_name; }
    QPlainTextEdit *sourceEdit() const { return m_source; }
    LaunchEditor *launchEditor() const { return m_launches; }
    QTableWidget *bufferTable() const { return m_buffers; }
    QTableWidget *caseTable() const { return m_cases; }
    QLineEdit *rtolEdit() const { return m_rtol; }
    QLineEdit *atolEdit() const { return m_atol; }
    QPushButton *createButton() const;
    // The issues of the newest finished check, and whether a check is still pending or running.
    const QList<interop::FieldIssue> &issues() const { return m_issues; }
    bool isChecking() const { return m_checking; }
    QString summaryText() const;
    QString sectionIssues(const QString &section) const; // "problem", "source", "buffers", "cases", "tolerance"

Q_SIGNALS:
    void problemCreated(gpuf::RowId problemId, gpuf::RowId referenceId, const QString &summary);

public Q_SLOTS:
    void accept() override;

private:
    QWidget *buildProblemSide();
    QWidget *buildSpecSide();
    QGroupBox *buildToleranceGroup(QWidget *inner);
    QGroupBox *buildTableGroup(QWidget *inner, const QString &title, QTableWidget *table, const QStringList &headers,
        QLabel *issues, const QString &hint, const std::function<void()> &addRow);
    void addBufferRow(const interop::BufferFields &buffer);
    void addCaseRow(const interop::CaseFields &c);
    void scheduleCheck();
    void check();
    void applyIssues(const QList<interop::FieldIssue> &issues);
    void markTable(QTableWidget *table, const QString &prefix, const QStringList &columns,
        const QList<interop::FieldIssue> &issues);
    void loadSourceFile();

    StoreSession *m_session;
    QLineEdit *m_name;
    QLineEdit *m_family;
    QLineEdit *m_description;
    QLineEdit *m_referenceName;
    QPlainTextEdit *m_source;
    QLabel *m_problemIssues;
    QLabel *m_sourceIssues;
    LaunchEditor *m_launches;
    QTableWidget *m_buffers;
    QLabel *m_bufferIssues;
    QTableWidget *m_cases;
    QLabel *m_caseIssues;
    QLineEdit *m_rtol;
    QLineEdit *m_atol;
    QLineEdit *m_bytesMoved;
    QLineEdit *m_flops;
    QLabel *m_toleranceIssues;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    QTimer *m_timer;
    QStringList m_existingNames;
    QList<interop::FieldIssue> m_issues;
    LatestJob<QList<interop::FieldIssue>> m_checkJob {this};
    LatestJob<Kernel> m_fileJob {this};
    bool m_namesLoaded = false;
    bool m_checking = true;
    bool m_storing = false;
};

} // namespace gpuf
