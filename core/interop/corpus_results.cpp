// The measurement half of the corpus import: lines written by tests/gpu/measure_corpus.py, one per
// (operation, variant, case): the worker's case result (docs/measure-protocol.md) flattened into the line, plus
// `device` (device_info), `provenance` and `compile` of the request. Every line becomes one measurement of the
// variant's kernel on that device; cases the worker never reached (`not_run`, after a fault) are skipped.
#include "core/interop/corpus.h"

#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace gpuf::interop {
namespace {

Hardware hardwareFrom(const QJsonObject &device, const QString &toolkit)
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
    h.toolkitVersion = toolkit;
    return h;
}

MeasurementStatus statusFrom(const QString &name)
{
    return measurementStatusFromName(name).value_or(MeasurementStatus::InfrastructureFailure);
}

Measurement measurementFrom(const QJsonObject &line, RowId kernelId, RowId hardwareId)
{
    const QJsonObject &result = line;
    const QJsonObject provenance = line.value(QStringLiteral("provenance")).toObject();
    const QJsonObject compile = line.value(QStringLiteral("compile")).toObject();
    const QJsonObject device = line.value(QStringLiteral("device")).toObject();
    Measurement m;
    m.kernelId = kernelId;
    m.hardwareId = hardwareId;
    m.caseName = result.value(QStringLiteral("case")).toString();
    m.status = statusFrom(result.value(QStringLiteral("status")).toString());
    m.errorText = result.value(QStringLiteral("message")).toString();
    if (m.status == MeasurementStatus::CompileFailed && m.errorText.isEmpty())
        m.errorText = compile.value(QStringLiteral("log")).toString();
    const QJsonObject timing = result.value(QStringLiteral("timing")).toObject();
    if (m.status == MeasurementStatus::Ok && !timing.isEmpty()) {
        RuntimeStats r;
        r.medianNs = timing.value(QStringLiteral("median_us")).toDouble() * 1e3;
        r.meanNs = timing.value(QStringLiteral("mean_us")).toDouble() * 1e3;
        r.minNs = timing.value(QStringLiteral("min_us")).toDouble() * 1e3;
        r.stdNs = timing.value(QStringLiteral("std_us")).toDouble() * 1e3;
        r.relStdErr = timing.value(QStringLiteral("rel_std_error")).toDouble();
        r.samples = timing.value(QStringLiteral("n")).toInt();
        m.runtime = r;
    }
    m.timingMethod = timing.value(QStringLiteral("method")).toString();
    m.l2Flush
        = timing.value(QStringLiteral("flush_l2"))
              .toBool(line.value(QStringLiteral("options")).toObject().value(QStringLiteral("flush_l2")).toBool(true));
    const QJsonArray kernels = compile.value(QStringLiteral("kernels")).toArray();
    const QJsonArray launches = result.value(QStringLiteral("launches")).toArray();
    if (!kernels.isEmpty()) {
        // The heaviest launch's resources: the one with the most registers.
        QJsonObject heaviest = kernels.first().toObject();
        for (const QJsonValue &k : kernels) {
            if (k.toObject().value(QStringLiteral("registers")).toInt()
                > heaviest.value(QStringLiteral("registers")).toInt())
                heaviest = k.toObject();
        }
        m.resources.registers = heaviest.value(QStringLiteral("registers")).toInt(-1);
        m.resources.localMemoryBytes = heaviest.value(QStringLiteral("local_bytes")).toInt(-1);
        int shared = heaviest.value(QStringLiteral("static_shared_bytes")).toInt(0);
        for (const QJsonValue &l : launches) {
            if (l.toObject().value(QStringLiteral("entry")) == heaviest.value(QStringLiteral("entry")))
                shared += l.toObject().value(QStringLiteral("shared_bytes")).toInt(0);
        }
        m.resources.sharedMemoryBytes = shared;
    }
    if (!launches.isEmpty())
        m.resources.occupancy = launches.first().toObject().value(QStringLiteral("occupancy")).toDouble(-1.0);
    for (const char *key : {"bytes_moved", "flops", "floor_us", "achieved_bandwidth_gbs", "implausible"}) {
        const QString name = QString::fromLatin1(key);
        if (result.contains(name))
            m.counters.insert(name, result.value(name));
    }
    m.counters.insert(QStringLiteral("correctness"), result.value(QStringLiteral("correctness")));
    m.counters.insert(QStringLiteral("launches"), launches);
    m.provenance = QJsonObject {
        {QStringLiteral("gpu"), device.value(QStringLiteral("name"))},
        {QStringLiteral("uuid"), device.value(QStringLiteral("uuid"))},
        {QStringLiteral("compute_capability"), device.value(QStringLiteral("compute_capability"))},
        {QStringLiteral("driver_version"), device.value(QStringLiteral("driver_version"))},
        {QStringLiteral("toolkit_version"), provenance.value(QStringLiteral("toolkit_version"))},
        {QStringLiteral("worker_version"), provenance.value(QStringLiteral("worker_version"))},
        {QStringLiteral("peak_bandwidth_gbs"), provenance.value(QStringLiteral("peak_bandwidth_gbs"))},
        {QStringLiteral("arch"), compile.value(QStringLiteral("arch"))},
        {QStringLiteral("compile_options"), compile.value(QStringLiteral("options"))},
        {QStringLiteral("clocks_before"), result.value(QStringLiteral("clocks_before"))},
        {QStringLiteral("clocks_after"), result.value(QStringLiteral("clocks_after"))},
        {QStringLiteral("timing_method"), timing.value(QStringLiteral("method"))},
        {QStringLiteral("timing_note"), timing.value(QStringLiteral("method_note"))},
        {QStringLiteral("event_timing"), timing.value(QStringLiteral("events"))},
        {QStringLiteral("flush_l2"), m.l2Flush},
        {QStringLiteral("measured_at"), line.value(QStringLiteral("measured_at"))},
    };
    if (const QString when = line.value(QStringLiteral("measured_at")).toString(); !when.isEmpty())
        m.createdAt = QDateTime::fromString(when, Qt::ISODateWithMs);
    m.source = MeasurementSource::Local;
    return m;
}

} // namespace

Status importCorpusMeasurements(Store &store, const QString &resultsFile, CorpusReport &report)
{
    QFile file(resultsFile);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: cannot read (%2)").arg(resultsFile, file.errorString())};
    ProblemRepo problems(store);
    KernelRepo kernels(store);
    HardwareRepo hardware(store);
    MeasurementRepo measurements(store);
    qint64 lineNumber = 0;
    while (!file.atEnd()) {
        const QByteArray raw = file.readLine();
        ++lineNumber;
        if (raw.trimmed().isEmpty())
            continue;
        const QString where = QStringLiteral("%1:%2").arg(resultsFile).arg(lineNumber);
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(raw, &parseError);
        if (!doc.isObject())
            return Error {QStringLiteral("%1: not a JSON object (%2)").arg(where, parseError.errorString())};
        const QJsonObject line = doc.object();
        const QString operation = line.value(QStringLiteral("operation")).toString();
        const QString variant = line.value(QStringLiteral("variant")).toString();
        if (!line.value(QStringLiteral("case")).isString() || !line.value(QStringLiteral("device")).isObject())
            return Error {QStringLiteral("%1: field 'case' must be a case name and 'device' an object").arg(where)};
        if (line.value(QStringLiteral("status")).toString() == QLatin1StringView("not_run"))
            continue;
        auto problem = problems.findByName(operation);
        if (!problem)
            return Error {problem.error()};
        if (!problem->has_value())
            return Error {
                QStringLiteral("%1: field 'operation': no problem named '%2' in the corpus").arg(where, operation)};
        auto list = kernels.list((*problem)->id);
        if (!list)
            return Error {list.error()};
        RowId kernelId = 0;
        for (const Kernel &k : *list) {
            if (k.name == variant && k.origin == QLatin1StringView("corpus"))
                kernelId = k.id;
        }
        if (kernelId == 0)
            return Error {
                QStringLiteral("%1: field 'variant': '%2' is not a variant of '%3'").arg(where, variant, operation)};
        Hardware h = hardwareFrom(line.value(QStringLiteral("device")).toObject(),
            line.value(QStringLiteral("provenance")).toObject().value(QStringLiteral("toolkit_version")).toString());
        if (h.name.isEmpty())
            return Error {QStringLiteral("%1: field 'device.name' is missing").arg(where)};
        if (auto id = hardware.ensure(h); !id)
            return Error {QStringLiteral("%1: %2").arg(where, id.error())};
        Measurement m = measurementFrom(line, kernelId, h.id);
        if (auto id = measurements.insert(m); !id)
            return Error {QStringLiteral("%1: %2").arg(where, id.error())};
        ++report.measurements;
    }
    return {};
}

} // namespace gpuf::interop
