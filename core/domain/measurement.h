// Measurement: one kernel timed (or failed) on one GPU for one case (DESIGN §3).
#pragma once

#include "core/domain/problem.h"

#include <optional>

namespace gpuf {

enum class MeasurementStatus { Ok, CompileFailed, RuntimeError, Incorrect, Timeout, InfrastructureFailure };
enum class MeasurementSource { Local, Replay, Import };

QString measurementStatusName(MeasurementStatus status);
std::optional<MeasurementStatus> measurementStatusFromName(const QString &name);
QString measurementSourceName(MeasurementSource source);
std::optional<MeasurementSource> measurementSourceFromName(const QString &name);

struct RuntimeStats
{
    double medianNs = 0.0;
    double meanNs = 0.0;
    double minNs = 0.0;
    double stdNs = 0.0;
    double relStdErr = 0.0;
    int samples = 0;
};

struct ResourceUsage
{
    int registers = -1; // -1: unknown
    int sharedMemoryBytes = -1;
    int localMemoryBytes = -1;
    double occupancy = -1.0;
};

struct Measurement
{
    RowId id = 0;
    RowId kernelId = 0;
    RowId hardwareId = 0;
    QString caseName;
    MeasurementStatus status = MeasurementStatus::Ok;
    QString errorText;
    std::optional<RuntimeStats> runtime; // present when status is Ok
    QString timingMethod; // "cuda_events" | "cupti" | …
    bool l2Flush = true;
    ResourceUsage resources;
    QJsonObject counters;
    QJsonObject provenance;
    MeasurementSource source = MeasurementSource::Local;
    QDateTime createdAt;
};

// A speedup label for a (reference, candidate) pair that is known without per-kernel runtimes,
// e.g. the published eval set's aggregated speedups. speedup absent ⇒ the candidate failed.
struct PairLabel
{
    RowId id = 0;
    RowId referenceKernelId = 0;
    RowId candidateKernelId = 0;
    RowId hardwareId = 0;
    std::optional<double> speedup;
    std::optional<int> trueBin; // kept as published
    QString kind; // "eval" | "discovery" | "rl_pool" | "manual"
    QString externalId; // e.g. the published comparison_id
    QString source; // "import:<file kind>"
    QJsonObject extra; // remaining published fields (pair_type, source_search, …)
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::Measurement)
Q_DECLARE_METATYPE(gpuf::PairLabel)
