// MeasureController: the measuring actions the explorer offers — "Measure on GPU" for the selected candidates,
// "Measure low-confidence" below the threshold in Settings, cancel, cancel all, re-measure, clear finished — over one
// MeasureQueue, sent to the local GPU or to a Slurm cluster profile. It keeps the queue on the open store, probes the
// device, says why nothing can be measured, and reports which kernels are waiting to be measured; the panels only show
// its state.
#pragma once

#include "core/measure/measure_types.h"

#include <QList>
#include <QObject>
#include <QSet>

class QAction;

namespace gpuf {

class MeasureQueue;
class Selection;
class Settings;
class StoreSession;

class MeasureController : public QObject
{
    Q_OBJECT

public:
    // Follows `session` (the queue stores into the open store) and `selection` (what "Measure on GPU" measures), and
    // starts probing the device.
    MeasureController(MeasureQueue *queue, StoreSession *session, Selection *selection, Settings *settings,
        QObject *parent = nullptr);
    ~MeasureController() override;

    MeasureQueue *queue() const { return m_queue; }
    QAction *measureSelectedAction() const { return m_measureSelected; }
    QAction *measureLowConfidenceAction() const { return m_measureLowConfidence; }
    QAction *cancelAction() const { return m_cancel; }
    QAction *cancelAllAction() const { return m_cancelAll; }
    QAction *remeasureAction() const { return m_remeasure; }
    QAction *clearFinishedAction() const { return m_clearFinished; }

    const MeasureSnapshot &snapshot() const;
    // Why nothing can be measured now ("no NVIDIA driver found (…)"); empty when measuring is possible.
    QString unavailableReason() const;
    // The kernels of `items` not finished yet (the candidate table marks them as pending).
    static QSet<RowId> pendingKernels(const QList<MeasureItem> &items);

    // The queue items chosen in a view (what "Cancel" and "Re-measure" act on).
    void setChosenItems(const QList<quint64> &itemIds);

    // Where the measure actions send work: a cluster profile's name, or empty for the local GPU.
    QString targetCluster() const { return m_cluster; }
    void setTargetCluster(const QString &profile);
    // The cluster profiles in the settings, read again each call (`gpuf cluster set-profile` may have added one).
    static QStringList clusterProfileNames();

Q_SIGNALS:
    // The queue's state, after the actions were updated for it.
    void snapshotChanged(const gpuf::MeasureSnapshot &snapshot);
    // Whether and why measuring is unavailable changed (the device was probed, a store opened or closed).
    void availabilityChanged(const QString &reason);
    void pendingKernelsChanged(const QSet<gpuf::RowId> &kernelIds);
    // The cluster profiles may have changed (a store was opened or reloaded): views offering them read them again.
    void targetsChanged();

private:
    void applySnapshot(const MeasureSnapshot &snapshot);
    void setStorePath(const QString &path);
    void updateActions();
    QList<quint64> chosenItems(bool finished) const;
    QList<RowId> candidateIds() const;
    void measureSelected();

    MeasureQueue *m_queue;
    StoreSession *m_session;
    Selection *m_selection;
    Settings *m_settings;
    QAction *m_measureSelected;
    QAction *m_measureLowConfidence;
    QAction *m_cancel;
    QAction *m_cancelAll;
    QAction *m_remeasure;
    QAction *m_clearFinished;
    QList<quint64> m_chosenItems;
    QSet<RowId> m_pending;
    QString m_reason;
    QString m_cluster;
};

} // namespace gpuf
