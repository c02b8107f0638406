// The state of a search as a fold over its event log (DESIGN §7): the archive, every proposal and what became of it,
// the open requests, the counters and the best kernel. applyEvent() is the only way the state changes, so a fresh
// run, a resume after a crash and a replay of a stored log reach the same state through the same code.
#pragma once

#include "core/bins/bins.h"
#include "core/domain/search.h"
#include "core/domain/search_event_kind.h"
#include "core/mutators/mutator.h"
#include "core/search/archive.h"
#include "core/search/search_config.h"

#include <QSet>

#include <limits>
#include <vector>

namespace gpuf::search {

enum class CandidateStatus {
    Requested, // mutation asked for
    Proposed, // the mutator gave code
    MutationFailed,
    Deferred, // recorded as not measured (ranked below the budget, a duplicate, vetoed)
    Queued, // selective: an untrusted forecast waiting for a free GPU slot
    Selected, // sent to the GPU
    Evaluated, // measured: feedback holds the outcome (a failure included)
    EvaluationFailed, // the measurement itself could not be made (infrastructure)
};
QString candidateStatusName(CandidateStatus status);

struct Candidate
{
    QString nodeId;
    QString requestId; // the mutation request ("" for seeds and injected kernels)
    QString parentId; // "" for seeds and parentless injected kernels
    int step = -1; // the step that proposed it (-1: a seed)
    int index = 0;
    qint64 ordinal = -1;
    quint64 seed = 0;
    CandidateStatus status = CandidateStatus::Requested;
    QString code; // dropped once the step is over unless the node joined the archive
    QString language;
    QString origin;
    QString contentHash;
    QJsonObject parameters; // the proposal's parameters (a family's tunables and spec)
    RowId kernelId = 0;
    QString mutationError;
    // forecast (surrogate and selective modes)
    QString forecastRequestId;
    bool forecastDone = false;
    bool forecastFailed = false;
    double expectedBin = 0.0;
    double confidence = 0.0;
    int predictedBin = 0;
    RowId forecastId = 0;
    bins::Distribution probabilities {}; // the forecast's, renormalised; all 0 when the log has none
    // the selection's outlook (probability policy): the learner version that forecast it (0: the prior alone), the
    // probability of beating its parent and the best so far; NaN when the selection did not compute them
    int learnerVersion = -1;
    double pBeatParent = std::numeric_limits<double>::quiet_NaN();
    double pBeatBest = std::numeric_limits<double>::quiet_NaN();
    // the belief it was selected on: mean and sd of log2 speedup, and the learner's sd before its temperature (NaN
    // when the log has none; raw = sd for the prior forecaster)
    double meanLog2 = std::numeric_limits<double>::quiet_NaN();
    double sdLog2 = std::numeric_limits<double>::quiet_NaN();
    double rawSdLog2 = std::numeric_limits<double>::quiet_NaN();
    int trustedAtDecision = -1; // certified setting: 1 trusted, 0 not, under the τ of its step; −1 no α
    // measurement
    QString evaluationRequestId;
    int measuredInStep = -2; // the step whose selection sent it to the GPU (-1: before step 0)
    EvaluationFeedback feedback;
    QString binarySha256; // the compiled binary's SHA-256, when the evaluator compiled it (local GPU)
    RowId reusedFromKernel = 0; // no GPU ran: the measurement of this kernel, whose binary is the same, was taken
    std::optional<double> reward;
    QString decision; // the reason of its candidate_selected / candidate_deferred
    bool forced = false; // force-measured or injected: kept whenever valid
    bool injected = false;
    bool seedNode = false;
};

struct StepRecord
{
    int step = 0;
    QStringList parents;
    QList<int> candidates; // positions in SearchState::candidates, in request order
    QList<int> measured; // positions sent to the GPU by this step's selection, in request order
    bool forecastsRequested = false;
    bool selectionDone = false;
    bool completed = false;
    QStringList admitted;
};

struct TrajectoryPoint
{
    int gpuEvaluations = 0;
    double best = 0.0;
};

struct SearchState
{
    QString name;
    SearchConfig config;
    bool initialized = false;
    bool paused = false;
    bool stopped = false;
    bool finished = false;
    QString finishReason; // the search_completed event's: "the step budget is spent", the exhausted source's words
    // Why the source of proposals has nothing more to give (a mutation_failed marked "exhausted": a recorded pool
    // whose kernels were all proposed); empty while it has. The search finishes once the step that learned it is done.
    QString exhausted;
    qint64 events = 0;
    qint64 unknownEvents = 0; // of events, those of a kind this version does not know: kept, folded as nothing

    Archive archive;
    std::vector<Candidate> candidates;
    QHash<QString, int> byNode; // node id → candidate
    QHash<QString, int> byRequest; // mutation, forecast and evaluation request ids → candidate
    QHash<QString, int> evaluatedHashes; // code sent to the GPU (or measured) → candidate: never measured twice
    std::vector<StepRecord> steps;
    int activeStep = -1; // index into steps of the step in progress; -1 between steps
    int completedStepCount = 0;

    QSet<QString> openMutations, openForecasts, openEvaluations; // request ids
    QStringList queue; // selective: node ids waiting for a free GPU slot, oldest first
    QStringList forcedQueue; // node ids the user asked to measure (or injected), measured at the next selection
    QStringList pinned, vetoed;
    QStringList vetoedBranches; // of the vetoed, those whose whole branch is vetoed (the node and every descendant)

    qint64 mutationOrdinal = 0; // mutation requests so far
    int gpuEvaluations = 0; // evaluations completed (measured or replayed), seeds included; reused ones are not
    int replayedEvaluations = 0;
    // Evaluations answered with the measurement of the same binary on this GPU (`reused_from`): no GPU ran.
    int reusedEvaluations = 0;
    int forecastsDone = 0;
    int forecastFailures = 0;
    int deferred = 0; // candidates recorded as not measured (queued ones included)
    int mutationFailures = 0;
    int unsuccessfulEvaluations = 0; // of gpuEvaluations and reusedEvaluations, those without a successful speedup
    int evaluationFailures = 0; // infrastructure failures: nothing ran, not counted in gpuEvaluations
    std::optional<double> bestReward;
    QString bestNode;
    std::vector<TrajectoryPoint> trajectory; // after each completed evaluation
    // The certified setting (config.alpha): the latest forecasts_drained's `certified` object, and the first drift
    // alarm's payload (empty: none fired).
    QJsonObject certified;
    QJsonObject driftAlarm;

    int completedSteps() const { return completedStepCount; }
    const Candidate *candidate(const QString &nodeId) const;
    const StepRecord *active() const { return activeStep >= 0 ? &steps[size_t(activeStep)] : nullptr; }
    bool hasOpenRequests() const
    {
        return !openMutations.isEmpty() || !openForecasts.isEmpty() || !openEvaluations.isEmpty();
    }
};

// Applies one event. A kind this version does not know (a log a later version wrote) is counted in unknownEvents and
// changes nothing else (an import refuses such a file, so only a store can hold one); a known kind whose payload
// lacks what the fold needs is an error naming the event's position and the field.
Status applyEvent(SearchState &state, const SearchEvent &event);
// Folds a whole log from the empty state.
Result<SearchState> foldEvents(const QList<SearchEvent> &events);

// What the engine does next, read from the state alone (so a resume picks up exactly where the log ends).
enum class NextAction {
    Wait, // requests are open: their answers come next
    StartStep,
    RequestForecasts,
    Select,
    CompleteStep,
    Finish, // the budget of steps is spent, or the source of proposals is exhausted
    Paused,
    Done, // stopped or finished
};
NextAction nextAction(const SearchState &state);

// Is the node vetoed: by itself, or as a descendant of a node whose whole branch is vetoed?
bool isVetoed(const SearchState &state, const QString &nodeId);
// The archive's nodes that can be no parent (vetoed by themselves or through a branch).
QStringList vetoedArchiveNodes(const SearchState &state);

// Is the candidate at `position` a duplicate: its code was sent to the GPU before, or an earlier candidate of its step
// has the same code?
bool isDuplicate(const SearchState &state, int position);

// The active step's measured proposals as admission candidates (what step_completed will consider).
QList<ChildCandidate> stepChildren(const SearchState &state);

// The state in canonical text (archive, counters, best, decisions), ids of nodes replaced by content hashes: equal for
// two runs that made the same search, whatever their ids and times.
QString canonicalArchive(const SearchState &state);

} // namespace gpuf::search
