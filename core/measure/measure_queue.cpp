// The engine's thread and queued calls; see measure_queue.h.
#include "core/measure/measure_queue.h"

#include <QDeadlineTimer>

namespace gpuf {

MeasureQueue::MeasureQueue(MeasureEngineConfig config, QObject *parent)
    : QObject(parent)
    , m_engine(new MeasureEngine(std::move(config)))
{
    qRegisterMetaType<MeasureSnapshot>();
    qRegisterMetaType<MeasureJob>();
    qRegisterMetaType<QList<MeasureJob>>();
    m_thread.setObjectName(QStringLiteral("gpuf-measure-queue"));
    m_engine->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_engine, &QObject::deleteLater);
    connect(m_engine, &MeasureEngine::snapshotReady, this, [this](const MeasureSnapshot &snapshot) {
        if (snapshot.sequence < m_snapshot.sequence)
            return; // queued signals arrive in order; this only guards against a stale copy
        m_snapshot = snapshot;
        Q_EMIT snapshotChanged(m_snapshot);
    });
    connect(m_engine, &MeasureEngine::measurementsStored, this, &MeasureQueue::measurementsStored);
    connect(m_engine, &MeasureEngine::notice, this, &MeasureQueue::notice);
    // QThread::quit is thread-safe: the engine ends its own thread once every worker has exited.
    connect(m_engine, &MeasureEngine::shutDown, &m_thread, &QThread::quit, Qt::DirectConnection);
    m_thread.start();
}

MeasureQueue::~MeasureQueue()
{
    // Idle workers get a shutdown request and busy ones are killed; the engine quits its thread when all have exited
    // (a worker that ignores the request is killed after a grace period). The engine is deleted on its own thread.
    post([engine = m_engine] { engine->shutdown(); });
    if (!m_thread.wait(QDeadlineTimer(15000))) {
        m_thread.quit();
        m_thread.wait();
    }
}

template<typename F>
void MeasureQueue::post(F &&call)
{
    QMetaObject::invokeMethod(m_engine, std::forward<F>(call), Qt::QueuedConnection);
}

void MeasureQueue::setStorePath(const QString &path)
{
    post([engine = m_engine, path] { engine->setStorePath(path); });
}

void MeasureQueue::probeDevice()
{
    post([engine = m_engine] { engine->probeDevice(); });
}

void MeasureQueue::enqueue(const QList<MeasureJob> &jobs)
{
    post([engine = m_engine, jobs] { engine->enqueue(jobs); });
}

void MeasureQueue::enqueueLowConfidence(double threshold, RowId forecasterId, int priority, const QString &cluster)
{
    post([engine = m_engine, threshold, forecasterId, priority, cluster] {
        engine->enqueueLowConfidence(threshold, forecasterId, priority, cluster);
    });
}

void MeasureQueue::cancel(const QList<quint64> &ids)
{
    post([engine = m_engine, ids] { engine->cancel(ids); });
}

void MeasureQueue::cancelAll()
{
    post([engine = m_engine] { engine->cancelAll(); });
}

void MeasureQueue::reloadWorkerArguments()
{
    post([engine = m_engine] { engine->reloadWorkerArguments(); });
}

void MeasureQueue::remeasure(const QList<quint64> &ids)
{
    post([engine = m_engine, ids] { engine->remeasure(ids); });
}

void MeasureQueue::clearFinished()
{
    post([engine = m_engine] { engine->clearFinished(); });
}

} // namespace gpuf
