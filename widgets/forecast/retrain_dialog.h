// RetrainDialog: one run of CostModelRetrainer as the user sees it — progress (a bar and the trainer's lines), then
// the leave-one-operation-out metrics per held-out operation and pooled, where the model was saved, or why nothing
// was trained. It observes the retrainer only; closing it does not stop the run (Cancel does).
#pragma once

#include "core/forecasters/costmodel_retrain.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace gpuf {

class CostModelRetrainer;

class RetrainDialog : public QDialog
{
    Q_OBJECT

public:
    RetrainDialog(CostModelRetrainer *retrainer, QWidget *parent = nullptr);
    ~RetrainDialog() override;

    // For tests and tools.
    QString statusText() const;
    QString logText() const;
    QProgressBar *progressBar() const { return m_progress; }
    QTableWidget *metricsTable() const { return m_metrics; }
    QPushButton *cancelButton() const { return m_cancel; }

private:
    void runStarted();
    void showProgress(const costmodel::RetrainProgress &progress);
    void showOutcome(const costmodel::RetrainOutcome &outcome);
    void showFailure(const QString &message);
    void fillMetrics(const costmodel::RetrainOutcome &outcome);

    CostModelRetrainer *m_retrainer;
    QLabel *m_status;
    QProgressBar *m_progress;
    QPlainTextEdit *m_log;
    QTableWidget *m_metrics;
    QPushButton *m_cancel;
};

} // namespace gpuf
