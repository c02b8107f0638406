// How a search's best speedup grew; see search_progress.h.
#include "core/search/search_progress.h"

#include <algorithm>

namespace gpuf::search {

namespace {

bool considered(const Candidate &c)
{
    if (c.seedNode)
        return false;
    return c.status != CandidateStatus::Requested && c.status != CandidateStatus::MutationFailed;
}

// The best reward the seeds brought without an evaluation (the reference's 1.0).
std::optional<double> startingBest(const SearchState &state)
{
    std::optional<double> best;
    for (const Candidate &c : state.candidates) {
        if (c.seedNode && c.reward && c.evaluationRequestId.isEmpty())
            best = std::max(best.value_or(*c.reward), *c.reward);
    }
    return best;
}

} // namespace

int candidatesConsidered(const SearchState &state, int step)
{
    return int(std::count_if(state.candidates.cbegin(), state.candidates.cend(),
        [step](const Candidate &c) { return considered(c) && (step < 0 || c.step <= step); }));
}

ProgressCurve progressCurve(const SearchState &state)
{
    ProgressCurve curve;
    const std::optional<double> start = startingBest(state);
    if (start) {
        curve.byEvaluations.append({0.0, *start});
        curve.byCandidates.append({0.0, *start});
    }
    for (const TrajectoryPoint &p : state.trajectory) {
        if (state.bestReward || p.best > 0.0)
            curve.byEvaluations.append({double(p.gpuEvaluations), p.best});
    }
    // Per step: proposals through it, best over what its selection (and every earlier one) measured.
    const int steps = int(state.steps.size());
    QList<int> proposals(steps + 1, 0); // by step; index steps holds injected kernels awaiting the next step
    QList<std::optional<double>> bestIn(steps + 1);
    std::optional<double> seedBest = start;
    for (const Candidate &c : state.candidates) {
        if (considered(c) && c.step >= 0)
            ++proposals[std::min(c.step, steps)];
        if (!c.reward)
            continue;
        if (c.measuredInStep < 0) {
            seedBest = std::max(seedBest.value_or(*c.reward), *c.reward);
        } else if (c.measuredInStep < steps) {
            std::optional<double> &b = bestIn[c.measuredInStep];
            b = std::max(b.value_or(*c.reward), *c.reward);
        }
    }
    int count = 0;
    std::optional<double> best = seedBest;
    if (!start && seedBest)
        curve.byCandidates.append({0.0, *seedBest});
    for (int s = 0; s < steps; ++s) {
        count += proposals[s];
        if (bestIn[s])
            best = std::max(best.value_or(*bestIn[s]), *bestIn[s]);
        const bool measuredSomething = !state.steps[size_t(s)].measured.isEmpty();
        if (best && measuredSomething)
            curve.byCandidates.append({double(count), *best});
    }
    return curve;
}

} // namespace gpuf::search
