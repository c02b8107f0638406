// Values of the measurement queue that cross threads: what to measure (MeasureJob), how each item stands
// (MeasureItem), what the local GPU is (DeviceState) and the whole queue at one moment (MeasureSnapshot).
#pragma once

#include "core/domain/problem.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace gpuf {

// Local: the kernel runs on this machine's GPU through gpuf-measure. Replay: the result is copied from runtimes
// already stored for the kernel (imported or measured before) and stored with source `replay`, never as local.
// Cluster: gpuf-measure runs on a node of the Slurm cluster that MeasureJob::cluster names (docs/cluster.md).
enum class MeasureMode { Local, Replay, Cluster };

// What a request asks of gpuf-measure: a measurement (the default); a compile (a cluster's: for the profile's
// architecture, no GPU needed; a local one: for this machine's GPU, answering the cubin's SHA-256 without running it,
// so a search can reuse a measurement of the same binary); or, on a cluster, only its hello (the node's GPUs).
enum class MeasureKind { Measure, Compile, Hello };
QString measureKindName(MeasureKind kind); // "measure" | "compile" | "hello"
MeasureKind measureKindFromName(const QString &name);

struct MeasureJob
{
    RowId kernelId = 0;
    int priority = 0; // higher first; equal priorities run in the order they were queued
    MeasureMode mode = MeasureMode::Local;
    QJsonObject options; // gpuf-measure `options` (docs/measure-protocol.md); empty: the worker's defaults
    RowId replayHardwareId = 0; // Replay only: whose runtimes to copy (0: the hardware with most of them)
    QString cluster; // Cluster only: the profile's name
    MeasureKind kind = MeasureKind::Measure;
};

enum class MeasureItemState {
    Queued,
    Running,
    Done, // the worker answered; outcome says how the kernel fared (ok, incorrect, compile_failed…)
    Failed, // nothing was measured: no spec, no GPU (infrastructure_failure), a bad request
    TimedOut, // no answer within the request budget: the worker was killed and restarted
    Cancelled,
};

QString measureItemStateName(MeasureItemState state); // "queued" | "running" | "done" | "failed" | "timeout" | …
bool isFinished(MeasureItemState state);

struct MeasureItem
{
    quint64 id = 0; // unique per queue, increasing
    MeasureJob job;
    QString kernelLabel; // "vector_axpy / v1_vec4"
    QString problemName;
    MeasureItemState state = MeasureItemState::Queued;
    QString outcome; // the worker's status name (`ok`, `incorrect`, `timeout`, `infrastructure_failure`…); empty while
                     // queued or running
    QString message; // why, in words, when not ok
    QList<RowId> measurementIds; // rows stored for this item
    QString binarySha256; // a compile item that compiled: the cubin's SHA-256 (64 hex digits); nothing is stored
    RowId hardwareId = 0;
    int casesOk = 0;
    int casesTotal = 0;
    double medianNs = -1.0; // the first ok case's median runtime; -1: none
    bool replayed = false; // the stored rows are replays of earlier runtimes (source `replay`)
    int worker = -1; // index of the worker running it
    quint64 dispatchIndex = 0; // the order in which items went to a worker (1 = first); 0: never sent
    // Cluster items: the profile, the array job and task, Slurm's state for it and the node it ran on.
    QString cluster;
    QString clusterJobId; // "1234_5"; empty until sbatch answered
    QString clusterState; // "submitting", "PENDING", "RUNNING", "NODE_FAIL"…
    QString clusterNode;
    int clusterAttempts = 0;
    QDateTime queuedAt;
    QDateTime startedAt;
    QDateTime finishedAt;
};

// One GPU as gpuf-measure's device_info (or hello, for devices not opened) describes it.
struct DeviceDescription
{
    int ordinal = 0;
    QString name;
    QString uuid;
    QString computeCapability; // "9.0"
    QString arch; // "sm_90"
    int multiprocessors = 0; // 0: not known (hello lists devices without opening them)
    qint64 totalMemoryBytes = 0;
    qint64 l2Bytes = 0;
    int memoryBusWidthBits = 0;
    int maxSmClockMhz = 0;
    int maxMemoryClockMhz = 0;
    double peakBandwidthGBs = 0.0;
    QString driverVersion;
    bool clocksAvailable = false;
    int smClockMhz = 0; // current (NVML)
    int memoryClockMhz = 0;
    QString clocksReason; // why current clocks are unknown
    QJsonObject deviceInfo; // the worker's device_info object as sent, for the Hardware row
};

struct DeviceState
{
    enum class Availability { Unknown, Probing, Available, Unavailable };
    Availability availability = Availability::Unknown;
    QString reason; // exactly why there is no GPU or no worker ("no NVIDIA driver found (…)")
    QString workerPath;
    QString workerVersion;
    QString nvrtcVersion;
    QList<DeviceDescription> devices;

    bool isAvailable() const { return availability == Availability::Available; }
};

struct WorkerStatus
{
    qint64 pid = 0; // 0: not running
    QString state; // "starting" | "idle" | "busy" | "stopped"
    quint64 itemId = 0; // the item in flight
    int restarts = 0;
};

struct MeasureSnapshot
{
    quint64 sequence = 0; // increases with every snapshot
    QList<MeasureItem> items; // in queue order (id ascending)
    DeviceState device;
    QList<WorkerStatus> workers;
    int queued = 0;
    int running = 0;
    int finished = 0;

    const MeasureItem *item(quint64 id) const;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::MeasureJob)
Q_DECLARE_METATYPE(gpuf::MeasureItem)
Q_DECLARE_METATYPE(gpuf::DeviceState)
Q_DECLARE_METATYPE(gpuf::MeasureSnapshot)
