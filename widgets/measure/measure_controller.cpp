// MeasureController; see measure_controller.h.
#include "widgets/measure/measure_controller.h"

#include "core/measure/cluster_profile.h"
#include "core/measure/measure_queue.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"

#include <QAction>

namespace gpuf {

MeasureController::MeasureController(
    MeasureQueue *queue, StoreSession *session, Selection *selection, Settings *settings, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
    , m_session(session)
    , m_selection(selection)
    , m_settings(settings)
    , m_measureSelected(new QAction(tr("Measure on GPU"), this))
    , m_measureLowConfidence(new QAction(this))
    , m_cancel(new QAction(tr("Cancel"), this))
    , m_cancelAll(new QAction(tr("Cancel all"), this))
    , m_remeasure(new QAction(tr("Re-measure"), this))
    , m_clearFinished(new QAction(tr("Clear finished"), this))
{
    m_measureSelected->setObjectName(QStringLiteral("measureSelected"));
    m_measureLowConfidence->setObjectName(QStringLiteral("measureLowConfidence"));
    connect(m_measureSelected, &QAction::triggered, this, &MeasureController::measureSelected);
    connect(m_measureLowConfidence, &QAction::triggered, this,
        [this] { m_queue->enqueueLowConfidence(m_settings->measureConfidenceThreshold(), 0, 0, m_cluster); });
    connect(m_cancel, &QAction::triggered, this, [this] { m_queue->cancel(chosenItems(false)); });
    connect(m_cancelAll, &QAction::triggered, m_queue, &MeasureQueue::cancelAll);
    connect(m_remeasure, &QAction::triggered, this, [this] { m_queue->remeasure(chosenItems(true)); });
    connect(m_clearFinished, &QAction::triggered, m_queue, &MeasureQueue::clearFinished);

    connect(m_queue, &MeasureQueue::snapshotChanged, this, &MeasureController::applySnapshot);
    // Measurements change the table's speedups and the metrics' truths.
    connect(m_queue, &MeasureQueue::measurementsStored, m_session, &StoreSession::announceMeasurements);
    connect(m_settings, &Settings::measureConfidenceThresholdChanged, this, &MeasureController::updateActions);
    // "Python without sandbox" applies to the queue's running workers too, not only to those started later.
    connect(m_settings, &Settings::pythonUnsandboxedChanged, m_queue, &MeasureQueue::reloadWorkerArguments);
    connect(m_selection, &Selection::selectedIdsChanged, this, &MeasureController::updateActions);
    connect(m_selection, &Selection::pairChanged, this, &MeasureController::updateActions);
    connect(m_session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) {
        setStorePath(snapshot.path);
        Q_EMIT targetsChanged();
    });
    connect(m_session, &StoreSession::closed, this, [this] { setStorePath({}); });
    // "Reload Store" is also how a user picks up a profile added with `gpuf cluster set-profile` meanwhile.
    connect(m_session, &StoreSession::changed, this, [this](const StoreChange &change) {
        if (change.kind == StoreChange::Kind::Reload)
            Q_EMIT targetsChanged();
    });
    if (m_session->isOpen())
        m_queue->setStorePath(m_session->path());
    applySnapshot(m_queue->snapshot());
    m_queue->probeDevice();
}

MeasureController::~MeasureController() = default;

const MeasureSnapshot &MeasureController::snapshot() const { return m_queue->snapshot(); }

QString MeasureController::unavailableReason() const
{
    // A cluster's GPUs are on its nodes: only a store is needed here, and each node says what it has.
    if (!m_cluster.isEmpty())
        return m_session->isOpen() ? QString() : tr("no store is open");
    const DeviceState &device = snapshot().device;
    switch (device.availability) {
    case DeviceState::Availability::Unknown:
    case DeviceState::Availability::Probing:
        return tr("looking for the GPU…");
    case DeviceState::Availability::Unavailable:
        return device.reason;
    case DeviceState::Availability::Available:
        break;
    }
    if (!m_session->isOpen())
        return tr("no store is open");
    return {};
}

QSet<RowId> MeasureController::pendingKernels(const QList<MeasureItem> &items)
{
    QSet<RowId> pending;
    for (const MeasureItem &item : items) {
        if (!isFinished(item.state))
            pending.insert(item.job.kernelId);
    }
    return pending;
}

void MeasureController::setChosenItems(const QList<quint64> &itemIds)
{
    m_chosenItems = itemIds;
    updateActions();
}

void MeasureController::setTargetCluster(const QString &profile)
{
    if (profile == m_cluster)
        return;
    m_cluster = profile;
    updateActions();
}

QStringList MeasureController::clusterProfileNames()
{
    QStringList names;
    for (const ClusterProfile &profile : loadClusterProfiles())
        names.append(profile.name);
    return names;
}

void MeasureController::setStorePath(const QString &path)
{
    m_queue->setStorePath(path);
    updateActions();
}

QList<RowId> MeasureController::candidateIds() const
{
    QList<RowId> ids = m_selection->selectedIds();
    if (ids.isEmpty() && m_selection->candidateId() != 0)
        ids.append(m_selection->candidateId());
    return ids;
}

void MeasureController::measureSelected()
{
    QList<MeasureJob> jobs;
    for (RowId id : candidateIds()) {
        jobs.append(MeasureJob {id, 1, MeasureMode::Local, {}, 0}); // chosen by hand: ahead of batch work
        if (!m_cluster.isEmpty()) {
            jobs.last().mode = MeasureMode::Cluster;
            jobs.last().cluster = m_cluster;
        }
    }
    if (!jobs.isEmpty())
        m_queue->enqueue(jobs);
}

QList<quint64> MeasureController::chosenItems(bool finished) const
{
    QList<quint64> ids;
    for (const MeasureItem &item : snapshot().items) {
        if (m_chosenItems.contains(item.id) && isFinished(item.state) == finished)
            ids.append(item.id);
    }
    return ids;
}

void MeasureController::applySnapshot(const MeasureSnapshot &snapshot)
{
    const QSet<RowId> pending = pendingKernels(snapshot.items);
    updateActions();
    Q_EMIT snapshotChanged(snapshot);
    if (pending != m_pending) {
        m_pending = pending;
        Q_EMIT pendingKernelsChanged(m_pending);
    }
}

void MeasureController::updateActions()
{
    const QString reason = unavailableReason();
    const QList<RowId> candidates = candidateIds();
    const MeasureSnapshot &state = snapshot();
    const QString gpu = !m_cluster.isEmpty() ? tr("cluster %1").arg(m_cluster)
        : state.device.devices.isEmpty()     ? QString()
                                             : state.device.devices.first().name;
    m_measureSelected->setEnabled(reason.isEmpty() && !candidates.isEmpty());
    m_measureSelected->setToolTip(!reason.isEmpty() ? reason
            : candidates.isEmpty()
            ? tr("Select candidates to measure")
            : tr("Measure %n selected candidate(s) on %1", nullptr, int(candidates.size())).arg(gpu));
    const double threshold = m_settings->measureConfidenceThreshold();
    m_measureLowConfidence->setText(tr("Measure low-confidence (< %1)").arg(threshold, 0, 'f', 2));
    m_measureLowConfidence->setEnabled(reason.isEmpty());
    m_measureLowConfidence->setToolTip(reason.isEmpty()
            ? tr("Measure every candidate whose forecast confidence is below %1 and that has no local "
                 "measurement yet")
                  .arg(threshold, 0, 'f', 2)
            : reason);
    for (QAction *a : {m_measureSelected, m_measureLowConfidence})
        a->setStatusTip(a->toolTip());

    m_cancel->setEnabled(!chosenItems(false).isEmpty());
    m_remeasure->setEnabled(reason.isEmpty() && !chosenItems(true).isEmpty());
    m_remeasure->setToolTip(reason.isEmpty() ? tr("Measure the selected finished items again") : reason);
    m_cancelAll->setEnabled(state.queued + state.running > 0);
    m_clearFinished->setEnabled(state.finished > 0);
    if (reason != m_reason) {
        m_reason = reason;
        Q_EMIT availabilityChanged(m_reason);
    }
}

} // namespace gpuf
