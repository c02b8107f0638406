// MeasurePanel: the measurement queue as a panel — the measure actions of a MeasureController as buttons, the
// confidence threshold in Settings (shown and editable here), progress, a table of items with their status, and the
// exact reason when nothing can be measured. The controller does the work; this only shows its state.
#pragma once

#include "core/measure/measure_types.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QTableView;

namespace gpuf {

class MeasureController;
class MeasureQueueModel;
class Settings;

class MeasurePanel : public QWidget
{
    Q_OBJECT

public:
    MeasurePanel(MeasureController *controller, Settings *settings, QWidget *parent = nullptr);
    ~MeasurePanel() override;

    MeasureController *controller() const { return m_controller; }
    QTableView *view() const { return m_view; }
    // Where "Measure…" sends work: "local" or "cluster (NAME)" for each cluster profile in the settings.
    QComboBox *targetBox() const { return m_target; }
    void reloadTargets(); // the cluster profiles again (after `gpuf cluster set-profile`)
    MeasureQueueModel *model() const { return m_model; }

private:
    void applySnapshot(const MeasureSnapshot &snapshot);
    void showAvailability(const QString &reason);
    void chooseItems();

    MeasureController *m_controller;
    MeasureQueueModel *m_model;
    QTableView *m_view;
    QLabel *m_banner;
    QLabel *m_notice;
    QProgressBar *m_progress;
    QDoubleSpinBox *m_threshold;
    QComboBox *m_target;
    QCheckBox *m_unsandboxed;
};

} // namespace gpuf
