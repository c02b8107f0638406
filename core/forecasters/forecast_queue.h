// ForecastQueue: the GUI-side handle of the forecast engine. It owns the engine's thread, forwards requests as queued
// calls and keeps the latest snapshot the engine sent (DESIGN §8: results cross threads as values).
#pragma once

#include "core/forecasters/forecast_engine.h"

#include <QObject>
#include <QThread>

namespace gpuf {

class ForecastQueue : public QObject
{
    Q_OBJECT

public:
    explicit ForecastQueue(ForecastEngineConfig config = {}, QObject *parent = nullptr);
    ~ForecastQueue() override; // cancels what is open, deletes the engine on its thread and stops the thread

    const ForecastSnapshot &snapshot() const { return m_snapshot; }

    void setStorePath(const QString &path);
    void setCostModelPath(const QString &path); // empty: the built-in model
    // Returns the batch's id (the one given, or a new one when batch.id is 0); batchFinished() carries it.
    quint64 enqueue(ForecastBatch batch);
    void watch(const ForecastPair &pair);
    void cancel(quint64 batchId);
    void cancelAll();
    void clearFinished();

Q_SIGNALS:
    void snapshotChanged(const gpuf::ForecastSnapshot &snapshot);
    void reasoningUpdated(const gpuf::ForecastReasoning &reasoning);
    void forecastStored(const gpuf::Forecast &forecast);
    void batchFinished(quint64 batchId, const gpuf::ForecastSummary &summary);
    void notice(const QString &text);

private:
    template<typename F>
    void post(F &&call);

    QThread m_thread;
    ForecastEngine *m_engine;
    ForecastSnapshot m_snapshot;
    quint64 m_nextBatchId = 1;
};

} // namespace gpuf
