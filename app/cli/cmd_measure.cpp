// gpuf measure STORE KERNEL… and gpuf device: the measurement queue and the local GPU without a display. Both run
// the engine on this thread inside an event loop (no blocking waits) and say exactly why when there is no GPU.
#include "app/cli/command.h"
#include "core/measure/cluster_profile.h"
#include "core/measure/measure_engine.h"
#include "core/measure/worker_locator.h"
#include "core/store/store.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <functional>

namespace gpuf::cli {
namespace {

// Runs the event loop until `done` holds for the engine's snapshot.
void runUntil(MeasureEngine &engine, const std::function<bool(const MeasureSnapshot &)> &done)
{
    if (done(engine.snapshot()))
        return;
    QEventLoop loop;
    QObject::connect(&engine, &MeasureEngine::snapshotReady, &loop, [&](const MeasureSnapshot &s) {
        if (done(s))
            loop.quit();
    });
    loop.exec();
}

// Stops the workers politely (shutdown request) and returns once every process has ended.
void shutdown(MeasureEngine &engine)
{
    QEventLoop loop;
    QObject::connect(&engine, &MeasureEngine::shutDown, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    engine.shutdown();
    loop.exec();
}

DeviceState probe(MeasureEngine &engine)
{
    engine.probeDevice();
    runUntil(engine, [](const MeasureSnapshot &s) {
        return s.device.availability == DeviceState::Availability::Available
            || s.device.availability == DeviceState::Availability::Unavailable;
    });
    return engine.snapshot().device;
}

QJsonObject deviceJson(const DeviceDescription &d)
{
    QJsonObject o {{QStringLiteral("ordinal"), d.ordinal}, {QStringLiteral("name"), d.name},
        {QStringLiteral("uuid"), d.uuid}, {QStringLiteral("compute_capability"), d.computeCapability},
        {QStringLiteral("arch"), d.arch}};
    if (d.multiprocessors > 0) {
        o.insert(QStringLiteral("multiprocessors"), d.multiprocessors);
        o.insert(QStringLiteral("total_memory_bytes"), d.totalMemoryBytes);
        o.insert(QStringLiteral("l2_bytes"), d.l2Bytes);
        o.insert(QStringLiteral("memory_bus_width_bits"), d.memoryBusWidthBits);
        o.insert(QStringLiteral("max_sm_clock_mhz"), d.maxSmClockMhz);
        o.insert(QStringLiteral("max_memory_clock_mhz"), d.maxMemoryClockMhz);
        o.insert(QStringLiteral("peak_bandwidth_gbs"), d.peakBandwidthGBs);
        o.insert(QStringLiteral("driver_version"), d.driverVersion);
        o.insert(QStringLiteral("clocks"),
            d.clocksAvailable
                ? QJsonObject {{QStringLiteral("available"), true}, {QStringLiteral("sm_mhz"), d.smClockMhz},
                    {QStringLiteral("mem_mhz"), d.memoryClockMhz}}
                : QJsonObject {{QStringLiteral("available"), false}, {QStringLiteral("reason"), d.clocksReason}});
    }
    return o;
}

QString deviceLine(const DeviceDescription &d)
{
    QString line = QStringLiteral("%1: %2 (compute capability %3)").arg(d.ordinal).arg(d.name, d.computeCapability);
    if (d.multiprocessors > 0)
        line += QStringLiteral(", %1 SMs, %2 MHz SM / %3 MHz memory clock, %4 GiB, driver %5")
                    .arg(d.multiprocessors)
                    .arg(d.maxSmClockMhz)
                    .arg(d.maxMemoryClockMhz)
                    .arg(double(d.totalMemoryBytes) / double(1LL << 30), 0, 'f', 1)
                    .arg(d.driverVersion);
    return line;
}

QJsonObject itemJson(const MeasureItem &item)
{
    QJsonArray ids;
    for (RowId id : item.measurementIds)
        ids.append(id);
    return QJsonObject {{QStringLiteral("kernel_id"), item.job.kernelId}, {QStringLiteral("label"), item.kernelLabel},
        {QStringLiteral("state"), measureItemStateName(item.state)}, {QStringLiteral("outcome"), item.outcome},
        {QStringLiteral("message"), item.message.isEmpty() ? QJsonValue() : QJsonValue(item.message)},
        {QStringLiteral("source"),
            item.replayed ? QStringLiteral("replay")
                          : (item.cluster.isEmpty() ? QStringLiteral("local") : QStringLiteral("cluster"))},
        {QStringLiteral("measurement_ids"), ids}, {QStringLiteral("cases_ok"), item.casesOk},
        {QStringLiteral("cases"), item.casesTotal},
        {QStringLiteral("median_us"), item.medianNs >= 0 ? QJsonValue(item.medianNs / 1e3) : QJsonValue()}};
}

QString itemLine(const MeasureItem &item)
{
    QString line = QStringLiteral("%1: %2").arg(
        item.kernelLabel, item.outcome.isEmpty() ? measureItemStateName(item.state) : item.outcome);
    if (item.casesTotal > 0)
        line += QStringLiteral(", %1/%2 cases ok").arg(item.casesOk).arg(item.casesTotal);
    if (item.medianNs >= 0)
        line += QStringLiteral(", median %1 us").arg(item.medianNs / 1e3, 0, 'f', 2);
    if (!item.measurementIds.isEmpty())
        line += QStringLiteral(", %1 measurement(s) stored").arg(item.measurementIds.size());
    if (!item.clusterJobId.isEmpty())
        line += QStringLiteral(" [job %1 %2%3]")
                    .arg(item.clusterJobId, item.clusterState,
                        item.clusterNode.isEmpty() ? QString() : QStringLiteral(" on ") + item.clusterNode);
    if (!item.message.isEmpty())
        line += QStringLiteral(" — ") + item.message;
    return line;
}

int runDevice(const QCommandLineParser &parser, Io &io)
{
    DeviceState device;
    if (auto worker = measure::locateMeasureWorker(); !worker) {
        device.availability = DeviceState::Availability::Unavailable;
        device.reason = worker.error();
    } else {
        MeasureEngine engine(MeasureEngineConfig {*worker, {}, 1, 0, 30000, 50, 3});
        device = probe(engine);
        shutdown(engine);
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray devices;
        for (const DeviceDescription &d : std::as_const(device.devices))
            devices.append(deviceJson(d));
        printJson(io,
            QJsonDocument(QJsonObject {{QStringLiteral("available"), device.isAvailable()},
                {QStringLiteral("reason"), device.isAvailable() ? QJsonValue() : QJsonValue(device.reason)},
                {QStringLiteral("worker"), device.workerPath.isEmpty() ? QJsonValue() : QJsonValue(device.workerPath)},
                {QStringLiteral("worker_version"),
                    device.workerVersion.isEmpty() ? QJsonValue() : QJsonValue(device.workerVersion)},
                {QStringLiteral("devices"), devices}}));
        return Success;
    }
    if (!device.isAvailable()) {
        io.out << "no GPU available: " << device.reason << '\n';
        return Success;
    }
    for (const DeviceDescription &d : std::as_const(device.devices))
        io.out << deviceLine(d) << '\n';
    io.out << "worker: " << device.workerPath << " (gpuf-measure " << device.workerVersion << ", NVRTC "
           << device.nvrtcVersion << ")\n";
    return Success;
}

// Submits to the cluster's Slurm; waits for the results unless --no-wait (gpuf cluster collect gets them later).
int measureOnCluster(const QCommandLineParser &parser, Io &io, const QString &storePath, QList<MeasureJob> jobs)
{
    const QString cluster = parser.value(QStringLiteral("cluster"));
    if (auto profile = clusterProfile(cluster); !profile)
        return fail(io, BadInput, QStringLiteral("measure: %1").arg(profile.error()));
    for (MeasureJob &job : jobs) {
        job.mode = MeasureMode::Cluster;
        job.cluster = cluster;
    }
    const bool wait = !parser.isSet(QStringLiteral("no-wait"));
    MeasureEngine engine(MeasureEngineConfig {});
    engine.setStorePath(storePath);
    QObject::connect(&engine, &MeasureEngine::notice, &engine, [&io](const QString &text) {
        io.err << "measure: " << text << '\n';
        io.err.flush();
    });
    engine.enqueue(jobs);
    runUntil(engine, [wait](const MeasureSnapshot &s) {
        if (wait)
            return s.queued == 0 && s.running == 0;
        // Submitted: every item has its job id, or has failed.
        return std::all_of(s.items.cbegin(), s.items.cend(),
            [](const MeasureItem &i) { return isFinished(i.state) || !i.clusterJobId.isEmpty(); });
    });
    const MeasureSnapshot done = engine.snapshot();
    bool allDone = true;
    QJsonArray results;
    for (const MeasureItem &item : done.items) {
        allDone = allDone && (item.state == MeasureItemState::Done || (!wait && !isFinished(item.state)));
        QJsonObject o = itemJson(item);
        o.insert(QStringLiteral("cluster"), item.cluster);
        o.insert(QStringLiteral("job"), item.clusterJobId);
        o.insert(QStringLiteral("slurm_state"), item.clusterState);
        o.insert(QStringLiteral("node"), item.clusterNode);
        results.append(o);
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io,
            QJsonDocument(QJsonObject {{QStringLiteral("cluster"), cluster}, {QStringLiteral("results"), results}}));
    } else {
        for (const MeasureItem &item : done.items)
            io.out << itemLine(item) << '\n';
        if (!wait)
            io.out << "submitted; gpuf cluster collect " << storePath << " stores the results as the jobs finish\n";
    }
    return allDone ? int(Success) : int(BadInput);
}

int runMeasure(const QCommandLineParser &parser, Io &io)
{
    const QStringList args = parser.positionalArguments();
    if (args.size() < 2)
        return fail(io, UsageError, QStringLiteral("measure: give a STORE and at least one KERNEL"));
    QJsonObject options;
    if (parser.isSet(QStringLiteral("timeout-ms"))) {
        bool ok = false;
        const int ms = parser.value(QStringLiteral("timeout-ms")).toInt(&ok);
        if (!ok || ms <= 0)
            return fail(io, UsageError, QStringLiteral("measure: --timeout-ms takes a positive number"));
        options.insert(QStringLiteral("timeout_ms"), ms);
    }
    auto store = Store::open(args.first(), Store::Mode::ExistingOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("measure: %1").arg(store.error()));
    QList<MeasureJob> jobs;
    for (const QString &ref : args.mid(1)) {
        auto id = measure::resolveKernelRef(**store, ref);
        if (!id)
            return fail(io, BadInput, QStringLiteral("measure: %1").arg(id.error()));
        if (auto plan = measure::planMeasurement(**store, *id); !plan)
            return fail(io, BadInput, QStringLiteral("measure: %1").arg(plan.error()));
        jobs.append(MeasureJob {*id, 0, MeasureMode::Local, options, 0});
    }
    if (parser.isSet(QStringLiteral("cluster")))
        return measureOnCluster(parser, io, args.first(), jobs);
    auto worker = measure::locateMeasureWorker();
    if (!worker)
        return fail(io, BadInput, QStringLiteral("measure: nothing measured: %1").arg(worker.error()));
    MeasureEngine engine(MeasureEngineConfig {*worker, {}, 1, 0, 30000, 50, 3});
    const DeviceState device = probe(engine);
    if (!device.isAvailable()) {
        shutdown(engine);
        return fail(io, BadInput, QStringLiteral("measure: nothing measured: no GPU available: %1").arg(device.reason));
    }
    engine.setStorePath(args.first());
    engine.enqueue(jobs);
    runUntil(engine, [](const MeasureSnapshot &s) { return s.queued == 0 && s.running == 0; });
    const MeasureSnapshot done = engine.snapshot();
    shutdown(engine);
    bool allDone = true;
    QJsonArray results;
    for (const MeasureItem &item : done.items) {
        allDone = allDone && item.state == MeasureItemState::Done;
        results.append(itemJson(item));
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonObject doc {{QStringLiteral("device"),
                             device.devices.isEmpty() ? QJsonValue() : QJsonValue(deviceJson(device.devices.first()))},
            {QStringLiteral("results"), results}};
        printJson(io, QJsonDocument(doc));
    } else {
        for (const MeasureItem &item : done.items)
            io.out << itemLine(item) << '\n';
    }
    return allDone ? int(Success) : int(BadInput);
}

} // namespace

Command measureCommand()
{
    Command c;
    c.name = QStringLiteral("measure");
    c.summary = QStringLiteral("Measure kernels on the local GPU (or a Slurm cluster's) against their problem's "
                               "reference and store the results (KERNEL: an id or a content-hash prefix).");
    c.usage = QStringLiteral("STORE KERNEL…");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("the gpuf store"));
        parser.addPositionalArgument(
            QStringLiteral("KERNEL"), QStringLiteral("kernel id or content-hash prefix"), QStringLiteral("KERNEL…"));
        parser.addOption({QStringLiteral("cluster"),
            QStringLiteral(
                "measure on the GPUs of this Slurm cluster profile (gpuf cluster profiles; docs/cluster.md)"),
            QStringLiteral("PROFILE")});
        parser.addOption({QStringLiteral("no-wait"),
            QStringLiteral("with --cluster: return once submitted (gpuf cluster collect stores the results later)")});
        parser.addOption({QStringLiteral("timeout-ms"),
            QStringLiteral("the worker's watchdog per wait (default 10000)"), QStringLiteral("MS")});
    };
    c.run = runMeasure;
    return c;
}

Command deviceCommand()
{
    Command c;
    c.name = QStringLiteral("device");
    c.summary = QStringLiteral("Describe the local GPU as gpuf-measure sees it, or say why there is none.");
    c.run = runDevice;
    return c;
}

} // namespace gpuf::cli
