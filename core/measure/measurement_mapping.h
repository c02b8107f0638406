// How gpuf-measure's answers become store rows: a device_info object → Hardware, one case result of a measure
// response → Measurement. Shared by the measurement queue and the corpus import (tests/gpu/measure_corpus.py lines
// are the same case results, flattened with their request's device, provenance and compile objects).
#pragma once

#include "core/domain/hardware.h"
#include "core/domain/measurement.h"

#include <QJsonObject>

namespace gpuf::measure {

// What a case result is read with: the request's context, as the worker sent it.
struct CaseContext
{
    QJsonObject device; // device_info's `device`
    QJsonObject provenance; // the measure response's `provenance`
    QJsonObject compile; // the candidate's compile object (`compile.candidate`)
    QJsonObject options; // the request's options (flush_l2 when the case says nothing)
    QString measuredAt; // ISO 8601 with milliseconds; empty: now, when stored
    QString clusterNode; // the Slurm node that ran the worker; empty: this machine's worker
};

Hardware hardwareFromDevice(const QJsonObject &device, const QString &toolkitVersion);

// One case result (docs/measure-protocol.md, `cases[]`; the case name in `name`, or `case` for corpus lines).
// The measurement's source is Local: these are runs on a real device. A Python case carries two figures (device
// time in `timing`, call time in `call_timing`): the runtime is the one its `speedup_time` names, and both, with
// their methods, the launch-bound flag and the noise marks, are kept in the counters' `timings`. A CUDA case's
// provenance keeps the evidence's facts: the stop rule (the worker's `provenance.stop_rule`, else the request's
// options, with the case's `reached_target`), the compiled binary's `binary_sha256` and the cluster node.
Measurement measurementFromCase(
    const QJsonObject &caseResult, const CaseContext &context, RowId kernelId, RowId hardwareId);

// The reference's timing of the same case in the same process (`reference_timing`, `reference_call_timing`) as a
// measurement of the reference kernel, marked as timed beside `candidateName` (counters `timed_as`: "reference",
// `timed_with`). Empty when the case holds no reference timing.
std::optional<Measurement> referenceMeasurementFromCase(const QJsonObject &caseResult, const CaseContext &context,
    RowId referenceKernelId, RowId hardwareId, const QString &candidateName);

} // namespace gpuf::measure
