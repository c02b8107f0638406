// One step laid out for reading; see step_detail.h.
#include "core/search/step_detail.h"

#include "core/search/lineage.h"
#include "core/search/selection.h"

#include <QSet>

namespace gpuf::search {

QString measureReasonName(MeasureReason reason)
{
    switch (reason) {
    case MeasureReason::Selected:
        return QStringLiteral("selected");
    case MeasureReason::LowConfidence:
        return QStringLiteral("low-confidence");
    case MeasureReason::FromQueue:
        return QStringLiteral("from-queue");
    case MeasureReason::Forced:
        return QStringLiteral("forced");
    case MeasureReason::Injected:
        return QStringLiteral("injected");
    case MeasureReason::Deferred:
        return QStringLiteral("deferred");
    case MeasureReason::Queued:
        return QStringLiteral("queued");
    case MeasureReason::Duplicate:
        return QStringLiteral("duplicate");
    case MeasureReason::Vetoed:
        return QStringLiteral("vetoed");
    case MeasureReason::MutationFailed:
        return QStringLiteral("mutation-failed");
    case MeasureReason::Pending:
        return QStringLiteral("pending");
    }
    return {};
}

bool isMeasuredReason(MeasureReason reason)
{
    switch (reason) {
    case MeasureReason::Selected:
    case MeasureReason::LowConfidence:
    case MeasureReason::FromQueue:
    case MeasureReason::Forced:
    case MeasureReason::Injected:
        return true;
    default:
        return false;
    }
}

MeasureReason measureReasonOf(const QString &decision, bool selected)
{
    // The reasons selection.cpp writes; anything else (an older version's words, a foreign log) by the event's kind.
    static const QHash<QString, MeasureReason> known {
        {QStringLiteral("measure all"), MeasureReason::Selected},
        {QStringLiteral("top expected bin"), MeasureReason::Selected},
        {QStringLiteral("best trusted forecast"), MeasureReason::Selected},
        {QStringLiteral("trusted forecast, ranked within the GPU budget"), MeasureReason::Selected},
        {QStringLiteral("untrusted forecast: measured"), MeasureReason::LowConfidence},
        {QStringLiteral("queued earlier: a free GPU slot"), MeasureReason::FromQueue},
        {QStringLiteral("measurement forced by the user"), MeasureReason::Forced},
        {QStringLiteral("injected by the user"), MeasureReason::Injected},
        {QStringLiteral("over budget"), MeasureReason::Deferred},
        {QStringLiteral("ranked below the GPU budget"), MeasureReason::Deferred},
        {QStringLiteral("trusted forecast, ranked below the GPU budget"), MeasureReason::Deferred},
        {QStringLiteral("untrusted forecast: queued for a free GPU slot"), MeasureReason::Queued},
        {QStringLiteral("vetoed"), MeasureReason::Vetoed},
        {QStringLiteral("duplicate of code already measured"), MeasureReason::Duplicate},
    };
    const auto it = known.constFind(decision);
    if (it != known.cend() && isMeasuredReason(*it) == selected)
        return *it;
    return selected ? MeasureReason::Selected : MeasureReason::Deferred;
}

QString outcomeName(Outcome outcome)
{
    switch (outcome) {
    case Outcome::AwaitingCode:
        return QStringLiteral("awaiting-code");
    case Outcome::NoCode:
        return QStringLiteral("no-code");
    case Outcome::Undecided:
        return QStringLiteral("undecided");
    case Outcome::NotMeasured:
        return QStringLiteral("not-measured");
    case Outcome::Measuring:
        return QStringLiteral("measuring");
    case Outcome::Ok:
        return QStringLiteral("ok");
    case Outcome::CompileFailed:
        return QStringLiteral("compile-failed");
    case Outcome::RuntimeError:
        return QStringLiteral("runtime-error");
    case Outcome::Incorrect:
        return QStringLiteral("incorrect");
    case Outcome::MeasurementFailed:
        return QStringLiteral("measurement-failed");
    }
    return {};
}

Outcome outcomeOf(const Candidate &c)
{
    switch (c.status) {
    case CandidateStatus::Requested:
        return Outcome::AwaitingCode;
    case CandidateStatus::MutationFailed:
        return Outcome::NoCode;
    case CandidateStatus::Proposed:
        return Outcome::Undecided;
    case CandidateStatus::Deferred:
    case CandidateStatus::Queued:
        return Outcome::NotMeasured;
    case CandidateStatus::Selected:
        return Outcome::Measuring;
    case CandidateStatus::EvaluationFailed:
        return Outcome::MeasurementFailed;
    case CandidateStatus::Evaluated:
        break;
    }
    switch (c.feedback.kind) {
    case EvaluationFeedback::Kind::Success:
        return Outcome::Ok;
    case EvaluationFeedback::Kind::CompileFailed:
        return Outcome::CompileFailed;
    case EvaluationFeedback::Kind::RuntimeError:
        return Outcome::RuntimeError;
    case EvaluationFeedback::Kind::Incorrect:
        return Outcome::Incorrect;
    case EvaluationFeedback::Kind::InfrastructureFailure:
    case EvaluationFeedback::Kind::None:
        break;
    }
    return Outcome::MeasurementFailed;
}

namespace {

MeasureReason reasonOf(const Candidate &c)
{
    switch (c.status) {
    case CandidateStatus::MutationFailed:
        return MeasureReason::MutationFailed;
    case CandidateStatus::Requested:
        return MeasureReason::Pending;
    case CandidateStatus::Proposed:
        // Forced or injected and waiting for the next selection: already decided by the user.
        return c.injected ? MeasureReason::Injected : c.forced ? MeasureReason::Forced : MeasureReason::Pending;
    case CandidateStatus::Deferred:
    case CandidateStatus::Queued:
        return c.forced ? MeasureReason::Forced : measureReasonOf(c.decision, false);
    case CandidateStatus::Selected:
    case CandidateStatus::Evaluated:
    case CandidateStatus::EvaluationFailed:
        break;
    }
    // Imported standard logs carry no decisions: whatever was measured was measured because every proposal is.
    if (c.decision.isEmpty())
        return c.injected ? MeasureReason::Injected : c.forced ? MeasureReason::Forced : MeasureReason::Selected;
    return measureReasonOf(c.decision, true);
}

ProposalRow rowOf(const SearchState &state, const SearchHistory &history, int position, int step)
{
    const Candidate &c = state.candidates[size_t(position)];
    ProposalRow row;
    row.nodeId = c.nodeId;
    row.parentId = c.parentId;
    row.candidate = position;
    row.proposedInStep = c.step;
    row.measuredInStep = c.measuredInStep;
    row.kernel = kernelLabel(c);
    row.forecastFailed = c.forecastDone && c.forecastFailed;
    row.forecast = c.forecastDone && !c.forecastFailed;
    if (row.forecast) {
        row.predictedBin = c.predictedBin;
        row.confidence = c.confidence;
        row.expectedBin = c.expectedBin;
        row.trusted = isTrusted(c, state.config.tau);
        if (const bins::Distribution *p = history.forecast(c.nodeId))
            row.expectedSpeedup = bins::expectedSpeedup(*p);
    }
    row.reason = reasonOf(c);
    // A node queued (or deferred, then forced) in its own step and measured by a later one: in its own step it shows
    // as what it was then.
    if (isMeasuredReason(row.reason) && c.measuredInStep > step && c.step == step)
        row.reason = row.reason == MeasureReason::FromQueue ? MeasureReason::Queued : MeasureReason::Deferred;
    row.decision = c.decision;
    row.outcome = outcomeOf(c);
    row.measured = c.status == CandidateStatus::Evaluated;
    row.speedup = c.reward;
    if (c.reward)
        row.bin = bins::binOf(*c.reward);
    row.admitted = state.archive.index.contains(c.nodeId) && !c.seedNode;
    return row;
}

} // namespace

StepDetail stepDetail(const SearchState &state, const SearchHistory &history, int step)
{
    StepDetail detail;
    if (step < 0 || step >= int(state.steps.size()))
        return detail;
    const StepRecord &record = state.steps[size_t(step)];
    detail.step = record.step;
    detail.completed = record.completed;
    if (const StepScores *scores = history.scores(step)) {
        detail.parents = scores->parents;
        detail.parentScoresKnown = true;
    } else {
        for (const QString &id : record.parents) {
            ParentScore p;
            p.nodeId = id;
            if (const Candidate *c = state.candidate(id))
                p.reward = c->reward;
            detail.parents.append(p);
        }
    }
    QSet<int> shown;
    auto add = [&](int position) {
        if (shown.contains(position))
            return;
        shown.insert(position);
        detail.proposals.append(rowOf(state, history, position, step));
    };
    for (int position : record.candidates)
        add(position);
    for (int position : record.measured)
        add(position);
    // Injected kernels of this step, and nodes the user forced that wait for this step's selection.
    const bool selecting = state.activeStep == step && !record.selectionDone;
    for (size_t i = 0; i < state.candidates.size(); ++i) {
        const Candidate &c = state.candidates[i];
        const bool injectedHere = c.injected && c.step == step;
        if (injectedHere || (selecting && c.forced && state.forcedQueue.contains(c.nodeId)))
            add(int(i));
    }
    for (const ProposalRow &row : std::as_const(detail.proposals)) {
        if (isMeasuredReason(row.reason))
            ++detail.measured;
    }
    return detail;
}

} // namespace gpuf::search
