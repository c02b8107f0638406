// gpuf measure STORE KERNEL… and gpuf device: the measurement queue and the local GPU without a display. Both run
// the engine on this thread inside an event loop (no blocking waits) and say exactly why when there is no GPU.
#include "app/cli/cli_engine.h"
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "app/cli/progress.h"
#include "core/measure/cluster_profile.h"
#include "core/measure/measure_engine.h"
#include "core/measure/worker_locator.h"
#include "core/store/store.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

namespace gpuf::cli {
namespace {

const QString kNoWait = QStringLiteral("no-wait");
const QString kTimeoutMs = QStringLiteral("timeout-ms");

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

QJsonObject deviceStateJson(const DeviceState &device)
{
    QJsonArray devices;
    for (const DeviceDescription &d : std::as_const(device.devices))
        devices.append(deviceJson(d));
    return QJsonObject {{QStringLiteral("available"), device.isAvailable()},
        {QStringLiteral("reason"), device.isAvailable() ? QJsonValue() : QJsonValue(device.reason)},
        {QStringLiteral("worker"), device.workerPath.isEmpty() ? QJsonValue() : QJsonValue(device.workerPath)},
        {QStringLiteral("worker_version"),
            device.workerVersion.isEmpty() ? QJsonValue() : QJsonValue(device.workerVersion)},
        {QStringLiteral("devices"), devices}};
}

int runDevice(Invocation &run)
{
    DeviceState device;
    if (auto worker = measure::locateMeasureWorker(); !worker) {
        device.availability = DeviceState::Availability::Unavailable;
        device.reason = worker.error();
    } else {
        device = CliEngine(*worker).probeDevice();
    }
    if (run.json()) {
        run.printJson(deviceStateJson(device));
        return Success;
    }
    if (!device.isAvailable()) {
        run.out() << "no GPU available: " << device.reason << '\n';
        return Success;
    }
    for (const DeviceDescription &d : std::as_const(device.devices))
        run.out() << deviceLine(d) << '\n';
    run.out() << "worker: " << device.workerPath << " (gpuf-measure " << device.workerVersion << ", NVRTC "
              << device.nvrtcVersion << ")\n";
    return Success;
}

// Submits to the cluster's Slurm; waits for the results unless --no-wait (gpuf cluster collect gets them later).
int measureOnCluster(Invocation &run, const QString &storePath, QList<MeasureJob> jobs)
{
    const QString cluster = run.value(kCluster);
    if (run.isSet(kUnsandboxed))
        return run.bad(CliEngine::unsandboxedOnCluster(cluster));
    if (auto profile = usableClusterProfile(cluster); !profile)
        return run.bad(profile.error());
    for (MeasureJob &job : jobs) {
        job.mode = MeasureMode::Cluster;
        job.cluster = cluster;
    }
    const bool wait = !run.isSet(kNoWait);
    CliEngine engine(CliEngine::ForCluster {});
    Progress progress(run.err());
    QObject::connect(&engine.engine(), &MeasureEngine::notice, &engine.engine(),
        [&progress](const QString &text) { progress.line(QStringLiteral("measure: ") + text); });
    engine->setStorePath(storePath);
    engine->enqueue(jobs);
    const MeasureSnapshot done = engine.runUntil([wait](const MeasureSnapshot &s) {
        if (wait)
            return CliEngine::isIdle(s);
        // Submitted: every item has its job id, or has failed.
        return std::all_of(s.items.cbegin(), s.items.cend(),
            [](const MeasureItem &i) { return isFinished(i.state) || !i.clusterJobId.isEmpty(); });
    });
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
    if (run.json()) {
        run.printJson(QJsonObject {{QStringLiteral("cluster"), cluster}, {QStringLiteral("results"), results}});
    } else {
        for (const MeasureItem &item : done.items)
            run.out() << itemLine(item) << '\n';
        if (!wait)
            run.out() << "submitted; gpuf cluster collect " << storePath << " stores the results as the jobs finish\n";
    }
    return allDone ? int(Success) : int(BadInput);
}

// The jobs measuring each KERNEL given (an id or a content-hash prefix) against its problem's reference.
Result<QList<MeasureJob>> jobsFor(Store &store, const QStringList &kernels, const QJsonObject &options)
{
    QList<MeasureJob> jobs;
    for (const QString &ref : kernels) {
        auto id = measure::resolveKernelRef(store, ref);
        if (!id)
            return id.failure();
        if (auto plan = measure::planMeasurement(store, *id); !plan)
            return plan.failure();
        jobs.append(MeasureJob {*id, 0, MeasureMode::Local, options, 0});
    }
    return jobs;
}

int measureOnThisGpu(Invocation &run, const QList<MeasureJob> &jobs)
{
    auto worker = measure::locateMeasureWorker();
    if (!worker)
        return run.bad(QStringLiteral("nothing measured: %1").arg(worker.error()));
    CliEngine engine(*worker, CliEngine::workerArguments(run.isSet(kUnsandboxed)));
    engine.sayNoticesOn(run.err(), QStringLiteral("measure"));
    const DeviceState device = engine.probeDevice();
    if (!device.isAvailable())
        return run.bad(QStringLiteral("nothing measured: no GPU available: %1").arg(device.reason));
    engine->setStorePath(run.args().first());
    engine->enqueue(jobs);
    const MeasureSnapshot done = engine.runUntilIdle();
    engine.shutdown();
    bool allDone = true;
    QJsonArray results;
    for (const MeasureItem &item : done.items) {
        allDone = allDone && item.state == MeasureItemState::Done;
        results.append(itemJson(item));
    }
    if (run.json()) {
        run.printJson(
            QJsonObject {{QStringLiteral("device"),
                             device.devices.isEmpty() ? QJsonValue() : QJsonValue(deviceJson(device.devices.first()))},
                {QStringLiteral("results"), results}});
    } else {
        for (const MeasureItem &item : done.items)
            run.out() << itemLine(item) << '\n';
    }
    return allDone ? int(Success) : int(BadInput);
}

int runMeasure(Invocation &run)
{
    if (run.args().size() < 2)
        return run.usage(QStringLiteral("give a STORE and at least one KERNEL"));
    auto given = run.checkOptions();
    if (!given)
        return run.usage(given.error());
    QJsonObject options;
    if (run.isSet(kTimeoutMs))
        options.insert(QStringLiteral("timeout_ms"), given->integer(kTimeoutMs));
    auto store = run.existingStore(run.args().first());
    if (!store)
        return run.bad(store.error());
    auto jobs = jobsFor(**store, run.args().mid(1), options);
    if (!jobs)
        return run.bad(jobs.error());
    if (run.isSet(kCluster))
        return measureOnCluster(run, run.args().first(), *jobs);
    return measureOnThisGpu(run, *jobs);
}

} // namespace

Command measureCommand()
{
    Command c;
    c.name = QStringLiteral("measure");
    c.summary = QStringLiteral("Measure kernels on the local GPU (or a Slurm cluster's) against their problem's "
                               "reference and store the results (KERNEL: an id or a content-hash prefix).");
    c.usage = QStringLiteral("STORE KERNEL…");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("the gpuf store")},
        {QStringLiteral("KERNEL"), QStringLiteral("kernel id or content-hash prefix"), QStringLiteral("KERNEL…")}};
    c.options = {
        Option::text(kCluster, QStringLiteral("PROFILE"),
            QStringLiteral(
                "measure on the GPUs of this Slurm cluster profile (gpuf cluster profiles; docs/cluster.md)")),
        Option::flag(kNoWait,
            QStringLiteral("with --cluster: return once submitted (gpuf cluster collect stores the results later)")),
        Option::integer(
            kTimeoutMs, QStringLiteral("MS"), QStringLiteral("the worker's watchdog per wait (default 10000)"))
            .atLeast(1)
            .refusedAs(QStringLiteral("takes a positive number")),
        Option::flag(kUnsandboxed,
            QStringLiteral("run Python candidates even where their sandbox (bubblewrap) cannot be made; only for "
                           "candidates you trust (docs/python-problems.md)")),
    };
    c.invoke = runMeasure;
    return c;
}

Command deviceCommand()
{
    Command c;
    c.name = QStringLiteral("device");
    c.summary = QStringLiteral("Describe the local GPU as gpuf-measure sees it, or say why there is none.");
    c.invoke = runDevice;
    return c;
}

} // namespace gpuf::cli
