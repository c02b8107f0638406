// A MeasureEngine driven from the command line, on this thread: "probe the device and wait until it settles",
// "run until the queue is idle" and "shut the workers down and wait for them" written once for gpuf measure, device,
// forecast --hardware local, sweep and cluster.
#pragma once

#include "core/measure/measure_engine.h"

#include <QTextStream>

#include <functional>

namespace gpuf::cli {

class CliEngine
{
public:
    // Measurements on this machine through `worker` (gpuf-measure, started with `arguments`; empty when only a
    // cluster's GPUs measure): one worker process, a snapshot every 50 ms; the workers are shut down, and waited for,
    // when this goes.
    explicit CliEngine(const QString &worker, const QStringList &arguments = {});
    // A cluster's jobs (Slurm measures them; they run on when this goes), with the engine's default configuration.
    struct ForCluster
    {
    };
    explicit CliEngine(ForCluster);
    ~CliEngine();
    CliEngine(const CliEngine &) = delete;
    CliEngine &operator=(const CliEngine &) = delete;

    MeasureEngine &engine() { return m_engine; }
    // Prints what the engine says once (that this machine's worker refuses Python candidates for want of a sandbox,
    // and why) on `err`, "PREFIX: text", as soon as it says it.
    void sayNoticesOn(QTextStream &err, const QString &prefix);
    // gpuf-measure's arguments for --unsandboxed.
    static QStringList workerArguments(bool unsandboxed);
    // Why --unsandboxed does not reach a cluster's nodes, and what does.
    static QString unsandboxedOnCluster(const QString &cluster);
    MeasureEngine *operator->() { return &m_engine; }

    // Asks the worker for its GPU and waits until the answer is in: available, or unavailable and why.
    DeviceState probeDevice();
    // Waits until `done` holds for the engine's snapshot (at once when the current one does); that snapshot.
    MeasureSnapshot runUntil(const std::function<bool(const MeasureSnapshot &)> &done);
    // Waits until nothing is queued or running.
    MeasureSnapshot runUntilIdle();
    // Stops the workers politely and returns once every process has ended; once (later calls do nothing).
    void shutdown();

    static bool isIdle(const MeasureSnapshot &s) { return s.queued == 0 && s.running == 0; }

private:
    MeasureEngine m_engine;
    bool m_shutDownAtEnd = false;
    bool m_shutDown = false;
};

} // namespace gpuf::cli
