// What one queue item sends to gpuf-measure and what it keeps of the answer: the kernel and its problem's reference
// as gpuf-kernel/1 specs (built from each kernel's stored `parameters.spec` and source), the request, and the rows
// a response becomes. Plain functions over values and a Store; the engine calls them on its own thread.
#pragma once

#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/domain/measurement.h"
#include "core/measure/measurement_mapping.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace gpuf {
class Store;
}

namespace gpuf::measure {

// A KERNEL argument: a kernel id ("42") or a prefix of its content hash (at least 6 hex digits, unambiguous).
Result<RowId> resolveKernelRef(Store &store, const QString &ref);

struct MeasurePlan
{
    RowId kernelId = 0;
    RowId referenceId = 0; // 0: the kernel is its problem's reference, measured without a correctness check
    QString label; // "problem / kernel"
    QString problemName;
    QJsonObject candidate; // complete gpuf-kernel/1 spec
    QJsonObject reference; // empty when referenceId is 0
    QStringList cases; // the spec's case names, in order
    // Non-empty: the candidate is a gpuf-python/1 module measured against this Python problem's own reference
    // (docs/python-problems.md); `reference` stays empty.
    QString pythonProblem;
    // The Python problem's reference kernel, timed in the candidate's process: its timings are stored as its rows.
    RowId pythonReferenceId = 0;
};

// The spec of a stored kernel: its `parameters.spec` with its source and a name put back (the corpus stores the
// spec without the source, which is the kernel's own text). Fails with the exact reason when there is none.
Result<QJsonObject> kernelSpec(Store &store, RowId kernelId);

// Loads the kernel, its problem and the problem's reference and builds both specs.
Result<MeasurePlan> planMeasurement(Store &store, RowId kernelId);

QJsonObject measureRequest(const MeasurePlan &plan, qint64 requestId, const QJsonObject &options);
// A compile-only request for the candidate's spec on the worker's own GPU (docs/measure-protocol.md, `compile`).
QJsonObject compileRequest(const MeasurePlan &plan, qint64 requestId);

// What a local compile answer comes to: `compiled` (the binary's hash set) or `refused` (NVRTC refused the source:
// the kernel's outcome, `compile_failed`); neither: the request could not be served (no GPU, a bad request).
struct CompileAnswer
{
    QString status; // the worker's status name
    QString message;
    QString binarySha256;
    bool compiled = false;
    bool refused = false;
};
CompileAnswer compileAnswer(const QJsonObject &response);

// How long the application waits for one measure answer before it kills the worker: the worker's own watchdog
// (timeout_ms per wait) and sampling budget per case, the correctness runs, and a fixed allowance for compiling and
// generating inputs. Generous on purpose: this only stops a worker that will never answer.
int requestBudgetMs(const MeasurePlan &plan, const QJsonObject &options);

// What a measure response comes to: the rows to store (none for an infrastructure failure or a bad request:
// nothing was measured), the overall status and the first message.
struct ResponseRows
{
    QString status; // the worker's status name
    QString message;
    bool store = false;
    QList<Measurement> rows; // kernelId set, hardwareId to be set by the caller
    // A Python candidate's answer: the reference's timings of the same cases (plan.pythonReferenceId), stored with
    // the rows but not counted as the item's cases.
    QList<Measurement> referenceRows;
};

// `clusterNode`: the Slurm node whose worker answered (kept in each row's provenance); empty for this machine's.
ResponseRows rowsFromResponse(const QJsonObject &response, const MeasurePlan &plan, const QJsonObject &device,
    const QJsonObject &options, const QString &measuredAt, const QString &clusterNode = {});

// Stores the rows of one answer on the hardware `device` (device_info's `device`) describes, inserting that hardware
// when it is new; the caller holds the transaction. Shared by the local queue and the cluster backend.
// `referenceRows` (a Python answer's reference timings) are stored on the same hardware; the ids returned are the
// rows'.
Result<QList<RowId>> storeMeasuredRows(Store &store, QList<Measurement> &rows, const QJsonObject &device,
    const QString &toolkit, QList<Measurement> *referenceRows = nullptr);

// Replay: the newest stored non-replay measurement of each case of `kernelId` on `hardwareId` (0: the hardware with
// most of them), copied as rows whose source is `replay` and whose provenance names the row they copy. Fails when the
// kernel has no stored runtime to replay.
Result<QList<Measurement>> replayRows(Store &store, RowId kernelId, RowId hardwareId);

// Candidates whose newest ok forecast (by `forecasterId`, or any forecaster when 0) has a confidence — the
// probability of its predicted bin — below `threshold`; ascending ids, each once.
QList<RowId> lowConfidenceCandidates(const QList<Forecast> &forecasts, double threshold, RowId forecasterId = 0);

} // namespace gpuf::measure
