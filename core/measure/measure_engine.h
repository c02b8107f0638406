// The measurement queue's engine: a QObject moved to its own thread (DESIGN §8), driven by queued calls. It keeps
// the queue (priorities, cancellation of queued and in-flight items, re-measure), a small pool of gpuf-measure
// processes (restarted after restart_required, a crash or the process-level watchdog), stores every result through
// its own store connection, and reports immutable snapshots, throttled to a few per second.
#pragma once

#include "core/measure/cluster_backend.h"
#include "core/measure/measure_plan.h"
#include "core/measure/measure_types.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace gpuf {

class Store;

namespace measure {
class WorkerProcess;
}

struct MeasureEngineConfig
{
    QString workerPath; // empty: locateMeasureWorker()
    QStringList workerArguments; // e.g. {"--cache-dir", dir}
    int workers = 1; // processes in the pool (one GPU: more would time kernels side by side)
    int requestBudgetMs = 0; // 0: measure::requestBudgetMs() of each request
    int startBudgetMs = 30000; // hello and device_info
    int snapshotIntervalMs = 200;
    int maxFailedStarts = 3; // consecutive starts without a hello before the device is declared unavailable
    // Cluster jobs (MeasureMode::Cluster): the profiles by name (empty: the settings' profiles) and Slurm's commands.
    QList<ClusterProfile> clusterProfiles;
    ClusterCommands clusterCommands;
};

class MeasureEngine : public QObject
{
    Q_OBJECT

public:
    explicit MeasureEngine(MeasureEngineConfig config, QObject *parent = nullptr);
    ~MeasureEngine() override;

    // The latest state, for callers on the engine's own thread (the CLI); others use snapshotReady().
    MeasureSnapshot snapshot() const;

public Q_SLOTS:
    // Opens the engine's own connection (empty closes it) and picks up the cluster jobs recorded in the store that are
    // still out: they appear as running items and are collected as they finish.
    void setStorePath(const QString &path);
    void probeDevice(); // starts the pool (when not started) so the device state becomes known
    void enqueue(const QList<gpuf::MeasureJob> &jobs);
    // Queues every candidate whose newest forecast's confidence is below `threshold` and that has no local
    // measurement yet; the ones skipped (no kernel spec, already measured) are counted in notice().
    // With `cluster` (a profile's name) they go to that Slurm cluster instead of the local GPU.
    void enqueueLowConfidence(double threshold, gpuf::RowId forecasterId, int priority, const QString &cluster = {});
    void cancel(const QList<quint64> &ids);
    void cancelAll();
    void remeasure(const QList<quint64> &ids);
    void clearFinished();
    void shutdown(); // cancels everything and stops the workers; shutDown() follows
    // The settings the workers start with changed (the explorer's "Python without sandbox"): each worker started with
    // other arguments is restarted with the new ones, at once when idle, after its answer when busy.
    void reloadWorkerArguments();

Q_SIGNALS:
    void snapshotReady(const gpuf::MeasureSnapshot &snapshot);
    void measurementsStored(const QList<gpuf::RowId> &measurementIds, const QList<gpuf::RowId> &kernelIds);
    void notice(const QString &text);
    void shutDown();

private:
    struct Entry
    {
        MeasureItem item;
        measure::MeasurePlan plan;
        qint64 requestId = 0;
        int budgetMs = 0;
        bool cancelRequested = false;
        ClusterRequestRef clusterRef; // cluster items: the task and request id
    };
    struct Slot
    {
        measure::WorkerProcess *process = nullptr;
        quint64 itemId = 0; // in flight; 0: none
        int restarts = 0;
        int failedStarts = 0;
        bool gaveUp = false; // stopped after maxFailedStarts starts without a hello
        bool staleArguments = false; // started before reloadWorkerArguments() changed them: restart when idle
        bool restarting = false; // stopped for new arguments; no work until it has started again
    };

    bool ensurePool();
    void startSlot(int index);
    void onWorkerReady(int index);
    void onWorkerResponse(int index, const QJsonObject &response);
    void onWorkerStopped(int index, const QString &reason);
    void dispatch();
    void runReplay(Entry &entry);
    void finish(Entry &entry, MeasureItemState state, const QString &outcome, const QString &message);
    void finishCompile(Entry &entry, const QJsonObject &response);
    Result<QList<RowId>> storeRows(QList<Measurement> &rows, const QJsonObject &device, const QString &toolkit,
        QList<Measurement> *referenceRows = nullptr);
    void failQueuedLocal(const QString &reason);
    ClusterBackend *clusterBackend(const QString &name, QString *error);
    void submitCluster(const QString &profile, const QList<quint64> &itemIds);
    void resumeClusterJobs();
    void onClusterUpdate(const ClusterUpdate &update);
    void updateDevice(const measure::WorkerProcess &worker);
    Entry *entry(quint64 id);
    Entry &addEntry(const MeasureJob &job);
    void markDirty();
    void emitSnapshot();

    MeasureEngineConfig m_config;
    std::unique_ptr<Store> m_store;
    QHash<QString, ClusterBackend *> m_clusters; // by profile name; children of the engine, over m_store
    QList<Entry> m_entries;
    QList<Slot> m_slots;
    DeviceState m_device;
    QString m_poolError;
    quint64 m_nextItemId = 1;
    qint64 m_nextRequestId = 1;
    quint64 m_sequence = 0;
    quint64 m_dispatched = 0;
    QTimer m_snapshotTimer;
    bool m_shuttingDown = false;
    bool m_sandboxRefusalSaid = false; // the worker's hello said Python candidates will be refused
};

} // namespace gpuf
