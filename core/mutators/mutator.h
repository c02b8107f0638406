// The Mutator interface: where a search's proposals come from (kernel families, an LLM, a recorded pool, kernels the
// user injects). The engine asks for a batch of mutations of chosen parents and records every answer as an event.
#pragma once

#include "core/common/result.h"
#include "core/domain/kernel.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace gpuf::search {

// One benchmark case of an evaluation that succeeded (paper-facts §6 evaluation payload).
struct CaseFeedback
{
    QString caseName;
    double speedup = 0.0; // reference time / candidate time
    double runtimeNs = 0.0; // the candidate's
    double referenceRuntimeNs = 0.0;
};

// What the evaluation of a kernel said: the feedback the generation prompt shows for a parent (paper-facts §7).
struct EvaluationFeedback
{
    enum class Kind { None, Success, CompileFailed, RuntimeError, Incorrect, InfrastructureFailure };
    Kind kind = Kind::None; // None: not evaluated (a seed that was never measured, an unmeasured proposal)
    double aggregatedSpeedup = 0.0; // geometric mean over the cases, when Success
    QList<CaseFeedback> cases; // when Success
    QString errorType; // RuntimeError: the error's type or status name
    QString message; // CompileFailed: the log; RuntimeError / Incorrect / InfrastructureFailure: what went wrong
    QString traceback; // RuntimeError, when the harness gives one
    bool replayed = false; // taken from recorded runtimes, not measured by this search
};

// The node a mutation starts from.
struct MutationParent
{
    QString nodeId; // the archive node's id (a ULID; "seed" style ids in imported logs)
    RowId kernelId = 0; // the stored kernel, 0 when not stored
    QString source;
    QString language; // "cuda" | "triton" | "python" | …
    QJsonObject parameters; // the stored kernel's parameters: {"spec": gpuf-kernel/1 without source, "family": …,
                            // "tunables": {name: value}} for family kernels; {} when none
    EvaluationFeedback feedback;
    QStringList ancestors; // node ids, nearest first
};

// One mutation the engine asks for. Everything a mutator may base its answer on is in here, so that a replay of the
// same log asks the same questions.
struct MutationRequest
{
    QString requestId; // the mutation_requested event's request id (a ULID)
    int step = 0;
    int index = 0; // position among this step's requests for this parent (0-based)
    qint64 ordinal = 0; // position among all of the search's mutation requests (0-based): a recorded pool's cursor
    quint64 seed = 0; // derived from the search's seed, the step, the parent and the index: use it for any randomness
    RowId problemId = 0;
    QString problemName;
    MutationParent parent;
};

// A kernel a mutator proposes. For CUDA kernels that need a launch description, parameters["spec"] holds the
// gpuf-kernel/1 spec without its source (the layout the corpus import uses), so the proposal can be measured.
struct Proposal
{
    QString source;
    QString language;
    QJsonObject parameters;
    QString origin; // "param" | "llm:<model>" | "manual" | "import:<source>" (Kernel::origin)
    QString name; // optional human name ("bm=64 bn=64 tm=8")
    QString notes; // optional teaching text
};

// The answer to one request: a proposal, or a failure that is recorded as a mutation_failed event (never a crash).
struct MutationResult
{
    QString requestId;
    std::optional<Proposal> proposal;
    QString error; // why no proposal: "pool exhausted", "no code block in the answer", an HTTP failure, …
    bool exhausted = false; // no proposal, and none will come for any later request: the search ends after this step
    QJsonObject details; // what the event should keep besides the code (prompt version, model, tokens, attempts)
};

// What a mutator learns once before it is asked for anything.
struct MutatorSetup
{
    RowId problemId = 0;
    QString problemName;
    quint64 seed = 0; // the search's seed
};

// A source of proposals. Contract:
// - prepare() is called once (fresh run and resume alike) before any request; an error there (a family with no valid
//   configuration, an endpoint that is not configured) stops the search before anything is written.
// - seed() gives the search's first archive node when the mutator defines it (a family's default configuration);
//   nullopt: the search starts from the problem's reference kernel.
// - request() answers each request exactly once through `done`, unless cancel() came first. `done` may be called
//   from any thread and before request() returns; the engine brings answers back to its own thread and processes a
//   step's answers in request order, so the order answers arrive in never changes the search.
// - A mutator must answer a request the same way whenever it is asked it again with the same request (same seed,
//   same parent) where it can (families, recorded pools): resume after a crash re-asks requests that were in flight.
// - configuration() describes everything that changes its answers; a search resumed with a different configuration
//   is refused.
class Mutator
{
public:
    using Done = std::function<void(MutationResult)>;

    virtual ~Mutator() = default;

    virtual QString kind() const = 0; // "family" | "llm" | "pool" | "injected"
    virtual QJsonObject configuration() const = 0;
    virtual Status prepare(const MutatorSetup &setup) = 0;
    virtual std::optional<Proposal> seed() const { return std::nullopt; }
    virtual void request(const QList<MutationRequest> &requests, Done done) = 0;
    virtual void cancel() = 0;
};

} // namespace gpuf::search
