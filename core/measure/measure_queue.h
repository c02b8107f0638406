// MeasureQueue: the GUI-side handle of the measurement engine. It owns the engine's thread, forwards requests as
// queued calls, and keeps the latest snapshot the engine sent (DESIGN §8: results cross threads as values).
#pragma once

#include "core/measure/measure_engine.h"

#include <QObject>
#include <QThread>

namespace gpuf {

class MeasureQueue : public QObject
{
    Q_OBJECT

public:
    explicit MeasureQueue(MeasureEngineConfig config = {}, QObject *parent = nullptr);
    ~MeasureQueue() override; // stops the workers (killing any still running) and the thread

    const MeasureSnapshot &snapshot() const { return m_snapshot; }

    void setStorePath(const QString &path);
    void probeDevice();
    void enqueue(const QList<MeasureJob> &jobs);
    void enqueueLowConfidence(double threshold, RowId forecasterId = 0, int priority = 0, const QString &cluster = {});
    void cancel(const QList<quint64> &ids);
    void cancelAll();
    void remeasure(const QList<quint64> &ids);
    void clearFinished();
    // Workers started with other arguments than the settings now give are restarted (MeasureEngine).
    void reloadWorkerArguments();

Q_SIGNALS:
    void snapshotChanged(const gpuf::MeasureSnapshot &snapshot);
    void measurementsStored(const QList<gpuf::RowId> &measurementIds, const QList<gpuf::RowId> &kernelIds);
    void notice(const QString &text);

private:
    template<typename F>
    void post(F &&call);

    QThread m_thread;
    MeasureEngine *m_engine;
    MeasureSnapshot m_snapshot;
};

} // namespace gpuf
