// One step of a search laid out for reading: its parents with their PUCT scores, every proposal with its forecast,
// whether it was measured and why (the selection rule's reason, docs/search.md "Selection rules"), and its result.
// Built from the folded state and the search's history; no formatting beyond the decision's own words.
#pragma once

#include "core/search/search_history.h"

namespace gpuf::search {

// Why a proposal was or was not sent to the GPU.
enum class MeasureReason {
    Selected, // within the GPU budget by the mode's rule (every proposal in standard, top expected bin, best trusted)
    LowConfidence, // selective: its confidence was below τ (or it had no forecast), so it was measured, not trusted
    FromQueue, // selective: queued earlier on a low confidence, measured in a free GPU slot of this step
    Forced, // the user asked for its measurement
    Injected, // the user injected it
    Deferred, // ranked below the GPU budget
    Queued, // selective: low confidence and no free slot: waits for one
    Duplicate, // its code was measured before
    Vetoed,
    MutationFailed, // no code to measure
    Pending, // not decided yet
};
QString measureReasonName(MeasureReason reason); // "selected", "low-confidence", … (stable, for tests and tools)
bool isMeasuredReason(MeasureReason reason);
// The reason a candidate_selected / candidate_deferred event gave, read back; `selected` tells which kind it was (a
// reason this version does not know falls back to Selected or Deferred).
MeasureReason measureReasonOf(const QString &decision, bool selected);

// What came of a proposal's measurement.
enum class Outcome {
    AwaitingCode, // the mutation is not answered yet
    NoCode, // the mutation failed
    Undecided, // code, no decision yet
    NotMeasured, // deferred or queued
    Measuring, // sent to the GPU, no answer yet
    Ok,
    CompileFailed,
    RuntimeError,
    Incorrect,
    MeasurementFailed, // nothing could be measured (infrastructure)
};
QString outcomeName(Outcome outcome); // "ok", "compile-failed", … (stable, for tests and tools)
Outcome outcomeOf(const Candidate &candidate);

struct ProposalRow
{
    QString nodeId;
    QString parentId;
    int candidate = -1; // position in SearchState::candidates
    int proposedInStep = -1; // differs from the step shown for nodes measured from the queue or forced later
    int measuredInStep = -2; // the step whose selection sent it to the GPU (−2: none)
    QString kernel;
    // forecast
    bool forecast = false; // a forecast was made and parsed
    bool forecastFailed = false;
    int predictedBin = 0;
    double confidence = 0.0;
    double expectedBin = 0.0;
    std::optional<double> expectedSpeedup; // Σ p_b·m_b, when the distribution is known
    bool trusted = false; // selective: confidence ≥ τ
    // decision
    MeasureReason reason = MeasureReason::Pending;
    QString decision; // the event's own words ("ranked below the GPU budget")
    // result
    bool measured = false; // an outcome came back
    std::optional<double> speedup;
    std::optional<int> bin;
    Outcome outcome = Outcome::AwaitingCode;
    bool admitted = false; // joined the archive at the step's end
};

struct StepDetail
{
    int step = -1;
    bool completed = false;
    QList<ParentScore> parents;
    bool parentScoresKnown = false; // false when the history could not score this step
    QList<ProposalRow> proposals; // the step's proposals in request order, then nodes measured by its selection
    int measured = 0; // rows whose reason sends them to the GPU
};

// The detail of `step` (an index into SearchState::steps); empty (step −1) when there is no such step.
StepDetail stepDetail(const SearchState &state, const SearchHistory &history, int step);

} // namespace gpuf::search
