// Where a search's measurements come from: the local GPU (through the measurement queue) or recorded runtimes
// (replay). Same contract shape as the Mutator: answers through a callback, from any thread, exactly once each.
#pragma once

#include "core/mutators/mutator.h"

namespace gpuf::search {

struct EvaluationRequest
{
    QString requestId; // the evaluation_requested event's request id
    QString nodeId;
    RowId kernelId = 0; // the stored kernel (0 when the search keeps no store)
    QString source;
    QString language;
    QString contentHash;
    QJsonObject parameters;
};

struct EvaluationResult
{
    QString requestId;
    // The kernel's outcome (a compile error or a wrong answer is an outcome, not an error). Kind None with
    // `error` set: nothing could be measured (no GPU, no recorded runtime) — recorded as evaluation_failed.
    EvaluationFeedback feedback;
    QString error;
    QList<RowId> measurementIds; // rows the measurement stored, when any
    QString binarySha256; // the compiled binary's SHA-256, when the evaluator compiled it (local GPU)
    // Set when no GPU ran: the measurement of another kernel whose binary is the same on this GPU was taken instead.
    // `measurementIds` are then that kernel's rows.
    RowId reusedFromKernel = 0;
};

class Evaluator
{
public:
    using Done = std::function<void(EvaluationResult)>;

    virtual ~Evaluator() = default;
    virtual QString kind() const = 0; // "local" | "replay"
    virtual void request(const QList<EvaluationRequest> &requests, Done done) = 0;
    virtual void cancel() = 0;
};

} // namespace gpuf::search
