// The forecast engine: a QObject for its own thread (DESIGN §8), driven by queued calls, with its own store
// connection. It expands batches into requests (pair × sample), answers what the store's cache already holds, runs
// the rest on the forecasters' backends within each one's concurrency, stores every Forecast as it arrives, and
// reports throttled snapshots, the reasoning of the watched pair and a summary per batch.
#pragma once

#include "core/forecasters/backend.h"
#include "core/forecasters/backend_factory.h"
#include "core/forecasters/forecast_types.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <deque>
#include <map>
#include <memory>

namespace gpuf {

class Store;

struct ForecastEngineConfig
{
    int snapshotIntervalMs = 200;
    int reasoningIntervalMs = 100; // reasoning of the watched pair is coalesced into updates this far apart
    BackendOptions backend; // evaluation mode by default: no retry after a parse failure
};

class ForecastEngine : public QObject
{
    Q_OBJECT

public:
    explicit ForecastEngine(ForecastEngineConfig config = {}, QObject *parent = nullptr);
    ~ForecastEngine() override;

    // The latest state, for callers on the engine's own thread (the CLI); others use snapshotReady().
    ForecastSnapshot snapshot() const;

public Q_SLOTS:
    void setStorePath(const QString &path); // opens the engine's own connection; empty closes it
    // The cost model's file from now on (empty: the built-in model); a backend made with another takes it once idle.
    void setCostModelPath(const QString &path);
    void enqueue(const gpuf::ForecastBatch &batch);
    void watch(const gpuf::ForecastPair &pair); // reasoning of this pair is reported; {0, 0}: none
    void cancel(quint64 batchId);
    void cancelAll();
    void clearFinished();

Q_SIGNALS:
    void snapshotReady(const gpuf::ForecastSnapshot &snapshot);
    void reasoningUpdated(const gpuf::ForecastReasoning &reasoning);
    void forecastStored(const gpuf::Forecast &forecast);
    void batchFinished(quint64 batchId, const gpuf::ForecastSummary &summary);
    void notice(const QString &text);

private:
    struct Entry
    {
        ForecastItem item;
        ForecastRequest request;
        QString reasoning; // streamed so far (running requests only)
        qsizetype reasoningSent = 0;
    };
    struct BatchState
    {
        ForecastSummary summary;
        int open = 0; // queued or running
    };
    struct Backend
    {
        std::unique_ptr<ForecastBackend> backend;
        QJsonObject config; // the forecaster's configuration the backend was made from
        BackendOptions options; // and the options
        std::deque<quint64> queue; // entry ids in FIFO order
        int running = 0;
    };

    Result<Backend *> backendFor(RowId forecasterId);
    Status prepare(const ForecastBatch &batch, QList<Entry> &entries, Backend *&backend);
    void dispatch();
    void onFinished(quint64 requestId, const Forecast &forecast);
    void onReasoning(quint64 requestId, const QString &text);
    void close(Entry &entry, ForecastItemState state, std::optional<ForecastStatus> status, const QString &message);
    void failBatch(const ForecastBatch &batch, const QString &error);
    Entry *entry(quint64 id);
    bool watched(const Entry &entry) const;
    void flushReasoning();
    void markDirty();
    void emitSnapshot();

    ForecastEngineConfig m_config;
    std::unique_ptr<Store> m_store;
    std::map<RowId, Backend> m_backends; // by forecaster id (move-only values, stable addresses)
    std::deque<Entry> m_entries; // stable addresses; id = m_firstId + index
    quint64 m_firstId = 1;
    QHash<quint64, BatchState> m_batches;
    ForecastSummary m_total;
    ForecastPair m_watched;
    QTimer m_snapshotTimer;
    QTimer m_reasoningTimer;
    quint64 m_sequence = 0;
    bool m_dispatching = false;
    bool m_dispatchAgain = false;
};

} // namespace gpuf
