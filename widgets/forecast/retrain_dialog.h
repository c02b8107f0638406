// RetrainDialog: a run of CostModelRetrainer as the user sees it — first its options (the name of the forecaster the
// model is stored under, the operations and GPUs to learn from, compile features where gpuf-measure can provide
// them), then progress (a bar moved by every booster fitted, the trainer's lines), then the leave-one-operation-out
// metrics per held-out operation and pooled, or why nothing was trained. It observes the retrainer only; closing it
// does not stop the run (Cancel does), and returns at once.
#pragma once

#include "core/forecasters/costmodel/costmodel_retrain.h"

#include <QDialog>

class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
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
    QPushButton *startButton() const { return m_start; }
    QLineEdit *nameEdit() const { return m_name; }
    QListWidget *operationsList() const { return m_operations; }
    QListWidget *hardwareList() const { return m_hardware; }
    QCheckBox *compileFeaturesBox() const { return m_compileFeatures; }
    // The options as chosen now (what Start Training passes to the retrainer).
    costmodel::RetrainOptions options() const;

private:
    QGroupBox *buildOptions();
    void setUpMetricsTable();
    void fillOptions();
    void validateOptions();
    void startTraining();
    void runStarted();
    void showProgress(const costmodel::RetrainProgress &progress);
    void showOutcome(const costmodel::RetrainOutcome &outcome);
    void showFailure(const QString &message);
    void fillMetrics(const costmodel::RetrainOutcome &outcome);

    CostModelRetrainer *m_retrainer;
    QGroupBox *m_optionsBox = nullptr;
    QLineEdit *m_name = nullptr;
    QListWidget *m_operations = nullptr;
    QListWidget *m_hardware = nullptr;
    QCheckBox *m_compileFeatures = nullptr;
    QLabel *m_optionsProblem = nullptr;
    QPushButton *m_start = nullptr;
    QStringList m_takenNames; // the store's forecasters: a new one needs a name of its own
    QString m_optionsPath; // the store the choices were filled from
    QLabel *m_status;
    QProgressBar *m_progress;
    QPlainTextEdit *m_log;
    QTableWidget *m_metrics;
    QPushButton *m_cancel;
};

} // namespace gpuf
