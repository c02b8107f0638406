// MeasurePanel: the measurement queue as a panel — "Measure on GPU" for the selected candidates and for every
// candidate whose forecast confidence is below the threshold in Settings (shown and editable here), progress, a table
// of items with their status, cancel, re-measure. Without a GPU or without gpuf-measure the actions are disabled and
// the exact reason is shown.
#pragma once

#include "core/measure/measure_types.h"

#include <QWidget>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QTableView;

namespace gpuf {

class MeasureQueue;
class MeasureQueueModel;
class Selection;
class Settings;
class StoreSession;

class MeasurePanel : public QWidget
{
    Q_OBJECT

public:
    // Follows `session` (the queue stores into the open store) and `selection` (what "Measure on GPU" measures).
    MeasurePanel(MeasureQueue *queue, StoreSession *session, Selection *selection, Settings *settings,
        QWidget *parent = nullptr);
    ~MeasurePanel() override;

    QAction *measureSelectedAction() const { return m_measureSelected; }
    QAction *measureLowConfidenceAction() const { return m_measureLowConfidence; }
    QAction *cancelAction() const { return m_cancel; }
    QAction *cancelAllAction() const { return m_cancelAll; }
    QAction *remeasureAction() const { return m_remeasure; }
    QAction *clearFinishedAction() const { return m_clearFinished; }

    // Why nothing can be measured now ("no NVIDIA driver found (…)"); empty when measuring is possible.
    QString unavailableReason() const;
    QTableView *view() const { return m_view; }
    // Where "Measure…" sends work: "local" or "cluster (NAME)" for each cluster profile in the settings.
    QComboBox *targetBox() const { return m_target; }
    QString targetCluster() const; // the chosen profile; empty: the local GPU
    void reloadTargets(); // the cluster profiles again (after `gpuf cluster set-profile`)
    MeasureQueueModel *model() const { return m_model; }

private:
    void applySnapshot(const MeasureSnapshot &snapshot);
    void updateActions();
    QList<quint64> selectedItemIds(bool finished) const;
    QList<RowId> candidateIds() const;
    void measureSelected();

    MeasureQueue *m_queue;
    StoreSession *m_session;
    Selection *m_selection;
    Settings *m_settings;
    MeasureQueueModel *m_model;
    QTableView *m_view;
    QLabel *m_banner;
    QLabel *m_notice;
    QProgressBar *m_progress;
    QDoubleSpinBox *m_threshold;
    QComboBox *m_target;
    QAction *m_measureSelected;
    QAction *m_measureLowConfidence;
    QAction *m_cancel;
    QAction *m_cancelAll;
    QAction *m_remeasure;
    QAction *m_clearFinished;
    MeasureSnapshot m_snapshot;
};

} // namespace gpuf
