// The forecast engine's thread and queued calls; see forecast_queue.h.
#include "core/forecasters/forecast_queue.h"

#include <utility>

namespace gpuf {

ForecastQueue::ForecastQueue(ForecastEngineConfig config, QObject *parent)
    : QObject(parent)
    , m_engine(new ForecastEngine(std::move(config))) // registers the value types it sends
{
    m_thread.setObjectName(QStringLiteral("gpuf-forecast-queue"));
    m_engine->moveToThread(&m_thread);
    connect(m_engine, &ForecastEngine::snapshotReady, this, [this](const ForecastSnapshot &snapshot) {
        if (snapshot.sequence < m_snapshot.sequence)
            return; // queued signals arrive in order; this only guards against a stale copy
        m_snapshot = snapshot;
        Q_EMIT snapshotChanged(m_snapshot);
    });
    connect(m_engine, &ForecastEngine::reasoningUpdated, this, &ForecastQueue::reasoningUpdated);
    connect(m_engine, &ForecastEngine::forecastStored, this, &ForecastQueue::forecastStored);
    connect(m_engine, &ForecastEngine::batchFinished, this, &ForecastQueue::batchFinished);
    connect(m_engine, &ForecastEngine::notice, this, &ForecastQueue::notice);
    m_thread.start();
}

ForecastQueue::~ForecastQueue()
{
    // The engine (and with it each backend and its client thread) goes on its own thread, before that thread ends.
    QMetaObject::invokeMethod(
        m_engine,
        [engine = m_engine] {
            engine->cancelAll();
            delete engine;
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

template<typename F>
void ForecastQueue::post(F &&call)
{
    QMetaObject::invokeMethod(m_engine, std::forward<F>(call), Qt::QueuedConnection);
}

void ForecastQueue::setStorePath(const QString &path)
{
    post([engine = m_engine, path] { engine->setStorePath(path); });
}

void ForecastQueue::setCostModelPath(const QString &path)
{
    post([engine = m_engine, path] { engine->setCostModelPath(path); });
}

quint64 ForecastQueue::enqueue(ForecastBatch batch)
{
    if (batch.id == 0)
        batch.id = m_nextBatchId++;
    else
        m_nextBatchId = std::max(m_nextBatchId, batch.id + 1);
    const quint64 id = batch.id;
    post([engine = m_engine, batch = std::move(batch)] { engine->enqueue(batch); });
    return id;
}

void ForecastQueue::watch(const ForecastPair &pair)
{
    post([engine = m_engine, pair] { engine->watch(pair); });
}

void ForecastQueue::cancel(quint64 batchId)
{
    post([engine = m_engine, batchId] { engine->cancel(batchId); });
}

void ForecastQueue::cancelAll()
{
    post([engine = m_engine] { engine->cancelAll(); });
}

void ForecastQueue::clearFinished()
{
    post([engine = m_engine] { engine->clearFinished(); });
}

} // namespace gpuf
