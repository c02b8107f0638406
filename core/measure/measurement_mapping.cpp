// The worker-answer → row mapping; see measurement_mapping.h.
#include "core/measure/measurement_mapping.h"

#include <QJsonArray>

namespace gpuf::measure {

Hardware hardwareFromDevice(const QJsonObject &device, const QString &toolkitVersion)
{
    Hardware h;
    h.name = device.value(QStringLiteral("name")).toString();
    h.computeCapability = device.value(QStringLiteral("compute_capability")).toString();
    h.smCount = device.value(QStringLiteral("sm_count")).toInt();
    h.maxThreadsPerSm = device.value(QStringLiteral("max_threads_per_sm")).toInt();
    h.clockGhz = device.value(QStringLiteral("sm_clock_khz")).toDouble() / 1e6;
    h.memoryClockGhz = device.value(QStringLiteral("memory_clock_khz")).toDouble() / 1e6;
    h.busWidthBits = device.value(QStringLiteral("memory_bus_width_bits")).toInt();
    // Vendors quote memory in GiB under the name GB ("80GB" cards hold 80 GiB).
    h.globalMemoryGb = device.value(QStringLiteral("total_memory_bytes")).toDouble() / double(1LL << 30);
    h.l2Bytes = device.value(QStringLiteral("l2_bytes")).toInteger();
    h.sharedMemoryPerSm = device.value(QStringLiteral("max_shared_per_block_optin")).toInteger();
    h.driverVersion = device.value(QStringLiteral("driver_version")).toString();
    h.toolkitVersion = toolkitVersion;
    return h;
}

namespace {

std::optional<RuntimeStats> runtimeFrom(const QJsonObject &timing)
{
    if (timing.isEmpty())
        return std::nullopt;
    RuntimeStats r;
    r.medianNs = timing.value(QStringLiteral("median_us")).toDouble() * 1e3;
    r.meanNs = timing.value(QStringLiteral("mean_us")).toDouble() * 1e3;
    r.minNs = timing.value(QStringLiteral("min_us")).toDouble() * 1e3;
    r.stdNs = timing.value(QStringLiteral("std_us")).toDouble() * 1e3;
    r.relStdErr = timing.value(QStringLiteral("rel_std_error")).toDouble();
    r.samples = timing.value(QStringLiteral("n")).toInt();
    return r;
}

// The heaviest launch's resources (the kernel with the most registers), its dynamic shared memory included.
ResourceUsage resourcesFrom(const QJsonArray &kernels, const QJsonArray &launches)
{
    ResourceUsage usage;
    if (!kernels.isEmpty()) {
        QJsonObject heaviest = kernels.first().toObject();
        for (const QJsonValue k : kernels) {
            if (k.toObject().value(QStringLiteral("registers")).toInt()
                > heaviest.value(QStringLiteral("registers")).toInt())
                heaviest = k.toObject();
        }
        usage.registers = heaviest.value(QStringLiteral("registers")).toInt(-1);
        usage.localMemoryBytes = heaviest.value(QStringLiteral("local_bytes")).toInt(-1);
        int shared = heaviest.value(QStringLiteral("static_shared_bytes")).toInt(0);
        for (const QJsonValue l : launches) {
            if (l.toObject().value(QStringLiteral("entry")) == heaviest.value(QStringLiteral("entry")))
                shared += l.toObject().value(QStringLiteral("shared_bytes")).toInt(0);
        }
        usage.sharedMemoryBytes = shared;
    }
    if (!launches.isEmpty())
        usage.occupancy = launches.first().toObject().value(QStringLiteral("occupancy")).toDouble(-1.0);
    return usage;
}

QJsonObject figureOf(const QJsonObject &timing)
{
    QJsonObject figure;
    for (const char *key : {"kind", "method", "n", "mean_us", "median_us", "min_us", "std_us", "rel_std_error",
             "stop_reason", "launch_guard_us", "noisy", "remeasured", "back_to_back", "events", "span",
             "kernel_records", "after_sync", "call_rep_ms"}) {
        const QString name = QString::fromLatin1(key);
        if (timing.contains(name))
            figure.insert(name, timing.value(name));
    }
    return figure;
}

// The two figures of one kernel's case and the speedup's choice (docs/python-problems.md).
QJsonObject timingsOf(const QJsonObject &device, const QJsonObject &call, const QString &speedupTime,
    const QJsonObject &result, const QString &prefix)
{
    QJsonObject timings {{QStringLiteral("speedup_time"), speedupTime}};
    if (!device.isEmpty())
        timings.insert(QStringLiteral("device"), figureOf(device));
    if (!call.isEmpty())
        timings.insert(QStringLiteral("call"), figureOf(call));
    for (const char *key : {"launch_bound", "host_overhead_us"}) {
        const QString name = prefix + QString::fromLatin1(key);
        if (result.contains(name))
            timings.insert(QString::fromLatin1(key), result.value(name));
    }
    if (result.contains(QStringLiteral("launch_bound_margin")))
        timings.insert(QStringLiteral("launch_bound_margin"), result.value(QStringLiteral("launch_bound_margin")));
    return timings;
}

// The speedup's figure: call time where the case names it and holds it, else device time.
QString speedupTimeOf(const QJsonObject &result, const QJsonObject &call)
{
    return result.value(QStringLiteral("speedup_time")).toString() == QLatin1StringView("call") && !call.isEmpty()
        ? QStringLiteral("call")
        : QStringLiteral("device");
}

QJsonObject provenanceOf(const QJsonObject &result, const QJsonObject &timing, const CaseContext &context, bool l2Flush)
{
    const QJsonObject &device = context.device;
    const QJsonObject &provenance = context.provenance;
    QJsonObject out {
        {QStringLiteral("gpu"), device.value(QStringLiteral("name"))},
        {QStringLiteral("uuid"), device.value(QStringLiteral("uuid"))},
        {QStringLiteral("compute_capability"), device.value(QStringLiteral("compute_capability"))},
        {QStringLiteral("driver_version"), device.value(QStringLiteral("driver_version"))},
        {QStringLiteral("toolkit_version"), provenance.value(QStringLiteral("toolkit_version"))},
        {QStringLiteral("worker_version"), provenance.value(QStringLiteral("worker_version"))},
        {QStringLiteral("peak_bandwidth_gbs"), provenance.value(QStringLiteral("peak_bandwidth_gbs"))},
        {QStringLiteral("arch"), context.compile.value(QStringLiteral("arch"))},
        {QStringLiteral("compile_options"), context.compile.value(QStringLiteral("options"))},
        {QStringLiteral("clocks_before"), result.value(QStringLiteral("clocks_before"))},
        {QStringLiteral("clocks_after"), result.value(QStringLiteral("clocks_after"))},
        {QStringLiteral("timing_method"), timing.value(QStringLiteral("method"))},
        {QStringLiteral("timing_note"), timing.value(QStringLiteral("method_note"))},
        {QStringLiteral("event_timing"), timing.value(QStringLiteral("events"))},
        {QStringLiteral("flush_l2"), l2Flush},
        {QStringLiteral("measured_at"), context.measuredAt},
    };
    if (context.measuredAt.isEmpty())
        out.remove(QStringLiteral("measured_at"));
    if (!context.clusterNode.isEmpty())
        out.insert(QStringLiteral("cluster_node"), context.clusterNode);
    return out;
}

// The rule that ended a CUDA case's sampling: the worker's own (provenance.stop_rule), or what the request asked for
// when an older worker did not say; whether the RSE target was reached is the case's. Empty for a case without a
// CUDA timing (Python figures name their stop reason in the counters' timings).
QJsonObject stopRuleOf(const QJsonObject &timing, const CaseContext &context)
{
    if (!timing.contains(QStringLiteral("reached_target")))
        return {};
    QJsonObject rule = context.provenance.value(QStringLiteral("stop_rule")).toObject();
    if (rule.isEmpty()) {
        const QJsonObject &asked = context.options;
        for (const auto &[option, key] :
            {std::pair {"target_rse", "target_rel_std_error"}, std::pair {"min_samples", "min_samples"},
                std::pair {"max_samples", "max_samples"}, std::pair {"time_budget_ms", "time_budget_ms"}}) {
            const QJsonValue v = asked.value(QLatin1StringView(option));
            if (v.isDouble())
                rule.insert(QLatin1StringView(key), v);
        }
    }
    rule.insert(QStringLiteral("reached_target"), timing.value(QStringLiteral("reached_target")).toBool());
    if (timing.value(QStringLiteral("warmup")).isDouble())
        rule.insert(QStringLiteral("warmup"), timing.value(QStringLiteral("warmup")));
    return rule;
}

} // namespace

Measurement measurementFromCase(
    const QJsonObject &caseResult, const CaseContext &context, RowId kernelId, RowId hardwareId)
{
    const QJsonObject &result = caseResult;
    Measurement m;
    m.kernelId = kernelId;
    m.hardwareId = hardwareId;
    m.caseName = result.contains(QStringLiteral("case")) ? result.value(QStringLiteral("case")).toString()
                                                         : result.value(QStringLiteral("name")).toString();
    m.status = measurementStatusFromName(result.value(QStringLiteral("status")).toString())
                   .value_or(MeasurementStatus::InfrastructureFailure);
    m.errorText = result.value(QStringLiteral("message")).toString();
    if (m.status == MeasurementStatus::CompileFailed && m.errorText.isEmpty())
        m.errorText = context.compile.value(QStringLiteral("log")).toString();
    const QJsonObject device = result.value(QStringLiteral("timing")).toObject();
    const QJsonObject call = result.value(QStringLiteral("call_timing")).toObject();
    const QString speedupTime = speedupTimeOf(result, call);
    const QJsonObject &timing = speedupTime == QLatin1StringView("call") ? call : device;
    if (m.status == MeasurementStatus::Ok)
        m.runtime = runtimeFrom(timing);
    m.timingMethod = timing.value(QStringLiteral("method")).toString();
    m.l2Flush = timing.value(QStringLiteral("flush_l2"))
                    .toBool(context.options.value(QStringLiteral("flush_l2")).toBool(true));
    const QJsonArray launches = result.value(QStringLiteral("launches")).toArray();
    m.resources = resourcesFrom(context.compile.value(QStringLiteral("kernels")).toArray(), launches);
    for (const char *key : {"bytes_moved", "flops", "floor_us", "achieved_bandwidth_gbs", "implausible"}) {
        const QString name = QString::fromLatin1(key);
        if (result.contains(name))
            m.counters.insert(name, result.value(name));
    }
    m.counters.insert(QStringLiteral("correctness"), result.value(QStringLiteral("correctness")));
    m.counters.insert(QStringLiteral("launches"), launches);
    if (!device.isEmpty() && (!call.isEmpty() || result.contains(QStringLiteral("speedup_time"))))
        m.counters.insert(QStringLiteral("timings"), timingsOf(device, call, speedupTime, result, QString()));
    m.provenance = provenanceOf(result, timing, context, m.l2Flush);
    if (const QJsonObject rule = stopRuleOf(timing, context); !rule.isEmpty())
        m.provenance.insert(QStringLiteral("stop_rule"), rule);
    const QString binary = context.compile.value(QStringLiteral("binary_sha256")).toString();
    if (!binary.isEmpty())
        m.provenance.insert(QStringLiteral("binary_sha256"), binary);
    if (!context.measuredAt.isEmpty())
        m.createdAt = QDateTime::fromString(context.measuredAt, Qt::ISODateWithMs);
    m.source = MeasurementSource::Local;
    return m;
}

std::optional<Measurement> referenceMeasurementFromCase(const QJsonObject &caseResult, const CaseContext &context,
    RowId referenceKernelId, RowId hardwareId, const QString &candidateName)
{
    const QJsonObject device = caseResult.value(QStringLiteral("reference_timing")).toObject();
    if (device.isEmpty() || device.value(QStringLiteral("median_us")).toDouble() <= 0.0)
        return std::nullopt;
    const QJsonObject call = caseResult.value(QStringLiteral("reference_call_timing")).toObject();
    const QString speedupTime = speedupTimeOf(caseResult, call);
    const QJsonObject &timing = speedupTime == QLatin1StringView("call") ? call : device;
    Measurement m;
    m.kernelId = referenceKernelId;
    m.hardwareId = hardwareId;
    m.caseName = caseResult.contains(QStringLiteral("case")) ? caseResult.value(QStringLiteral("case")).toString()
                                                             : caseResult.value(QStringLiteral("name")).toString();
    m.status = MeasurementStatus::Ok;
    m.runtime = runtimeFrom(timing);
    m.timingMethod = timing.value(QStringLiteral("method")).toString();
    m.l2Flush = timing.value(QStringLiteral("flush_l2"))
                    .toBool(context.options.value(QStringLiteral("flush_l2")).toBool(true));
    m.counters = QJsonObject {{QStringLiteral("timed_as"), QStringLiteral("reference")},
        {QStringLiteral("timed_with"), candidateName},
        {QStringLiteral("timings"), timingsOf(device, call, speedupTime, caseResult, QStringLiteral("reference_"))}};
    for (const char *key : {"bytes_moved", "flops", "floor_us"}) {
        const QString name = QString::fromLatin1(key);
        if (caseResult.contains(name))
            m.counters.insert(name, caseResult.value(name));
    }
    m.provenance = provenanceOf(caseResult, timing, context, m.l2Flush);
    m.provenance.insert(QStringLiteral("process"), QStringLiteral("the candidate's (same case, same inputs)"));
    if (!context.measuredAt.isEmpty())
        m.createdAt = QDateTime::fromString(context.measuredAt, Qt::ISODateWithMs);
    m.source = MeasurementSource::Local;
    return m;
}

} // namespace gpuf::measure
