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
};

Hardware hardwareFromDevice(const QJsonObject &device, const QString &toolkitVersion);

// One case result (docs/measure-protocol.md, `cases[]`; the case name in `name`, or `case` for corpus lines).
// The measurement's source is Local: these are runs on a real device.
Measurement measurementFromCase(
    const QJsonObject &caseResult, const CaseContext &context, RowId kernelId, RowId hardwareId);

} // namespace gpuf::measure
