// ComparePanel: the explorer's Compare view — search strategies on one space with known outcomes at the same GPU
// budget and seeds (docs/search.md, "Comparing strategies"; the twin of `gpuf search compare`). The user chooses the
// space, GPU, strategies and budget (CompareForm), runs the comparison in the background with progress and Cancel
// (CompareController), and reads the anytime curves (ComparePlot), the figures table (CompareTableModel) and the
// report's notes; the plot exports as PNG/SVG/PDF and the curves as CSV.
#pragma once

#include "core/common/result.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gpuf {

class CompareController;
class CompareForm;
class ComparePlot;
class CompareTableModel;
class StoreSession;

class ComparePanel : public QWidget
{
    Q_OBJECT

public:
    explicit ComparePanel(StoreSession *session, QWidget *parent = nullptr);
    ~ComparePanel() override;

    CompareController *controller() const { return m_controller; }
    CompareForm *form() const { return m_form; }
    ComparePlot *plot() const { return m_plot; }
    CompareTableModel *tableModel() const { return m_model; }
    QTableView *tableView() const { return m_table; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *csvButton() const { return m_csv; }
    QProgressBar *progressBar() const { return m_progress; }
    QString statusText() const;
    QString notesText() const;

    // Starts the comparison the form describes (what Run does).
    void runComparison();
    // Writes the shown comparison's curves as CSV (CompareReport::toCsv).
    Status exportCsv(const QString &path) const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    QWidget *buildResults();
    void connectController();
    void updateActions();
    void showChoices();
    void showIdleHint();
    void showReport();
    void setStatus(const QString &text);
    void exportCsvInteractively();

    StoreSession *m_session;
    CompareController *m_controller;
    CompareForm *m_form;
    ComparePlot *m_plot = nullptr;
    CompareTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QPlainTextEdit *m_notes = nullptr;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QPushButton *m_csv;
    QProgressBar *m_progress;
    QLabel *m_status;
    bool m_cancelling = false;
};

} // namespace gpuf
