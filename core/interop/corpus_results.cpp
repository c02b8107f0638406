// The measurement half of the corpus import: lines written by tests/gpu/measure_corpus.py, one per
// (operation, variant, case): the worker's case result (docs/measure-protocol.md) flattened into the line, plus
// `device` (device_info), `provenance` and `compile` of the request. Every line becomes one measurement of the
// variant's kernel on that device; cases the worker never reached (`not_run`, after a fault) are skipped. A Python
// line's `reference_timing` (the problem's reference, timed in the same process on the same inputs) becomes a
// measurement of the problem's reference kernel too.
#include "core/interop/corpus.h"

#include "core/measure/measurement_mapping.h"

#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QFile>
#include <QJsonDocument>

namespace gpuf::interop {
namespace {

// A corpus line is a case result flattened together with its request's context.
measure::CaseContext contextOf(const QJsonObject &line)
{
    measure::CaseContext context;
    context.device = line.value(QStringLiteral("device")).toObject();
    context.provenance = line.value(QStringLiteral("provenance")).toObject();
    context.compile = line.value(QStringLiteral("compile")).toObject();
    context.options = line.value(QStringLiteral("options")).toObject();
    context.measuredAt = line.value(QStringLiteral("measured_at")).toString();
    return context;
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
        if (line.value(QStringLiteral("case")).isNull()
            && line.value(QStringLiteral("language")) == QLatin1StringView("python"))
            continue; // a Python request that failed before any case (tests/gpu/measure_python.py): nothing measured
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
        Hardware h = measure::hardwareFromDevice(line.value(QStringLiteral("device")).toObject(),
            line.value(QStringLiteral("provenance")).toObject().value(QStringLiteral("toolkit_version")).toString());
        if (h.name.isEmpty())
            return Error {QStringLiteral("%1: field 'device.name' is missing").arg(where)};
        if (auto id = hardware.ensure(h); !id)
            return Error {QStringLiteral("%1: %2").arg(where, id.error())};
        Measurement m = measure::measurementFromCase(line, contextOf(line), kernelId, h.id);
        if (auto id = measurements.insert(m); !id)
            return Error {QStringLiteral("%1: %2").arg(where, id.error())};
        ++report.measurements;
        // A Python line carries the reference's timing of the same case, made in the candidate's process: the
        // reference kernel's measurement, so that every pair against it has a measured truth.
        const RowId referenceId = (*problem)->referenceKernelId;
        if (line.value(QStringLiteral("language")) != QLatin1StringView("python") || referenceId == 0
            || referenceId == kernelId)
            continue;
        if (auto r = measure::referenceMeasurementFromCase(line, contextOf(line), referenceId, h.id, variant)) {
            if (auto id = measurements.insert(*r); !id)
                return Error {QStringLiteral("%1: the reference's timing: %2").arg(where, id.error())};
            ++report.referenceMeasurements;
        }
    }
    return {};
}

} // namespace gpuf::interop
