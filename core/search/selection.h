// Which proposals of a step go to the GPU, per mode (docs/search.md "Selection rules"): standard measures every
// proposal, surrogate-filtered the top by expected bin per parent, selective measures what its forecaster is unsure
// of and ranks only trusted forecasts. A pure function of the state, so a resume recomputes the same decisions.
#pragma once

#include "core/search/certified_trust.h"
#include "core/search/probability_policy.h"
#include "core/search/search_state.h"

namespace gpuf::search {

struct Decision
{
    int position = 0; // in SearchState::candidates
    bool measure = false;
    bool queue = false; // selective: not measured now, waiting for a free GPU slot
    QString reason;
    int rank = -1; // the candidate's place in its parent's ranking (0 = first); -1 when not ranked
};

// A forecast is trusted when it parsed and its confidence (p of its predicted bin) is at least τ.
bool isTrusted(const Candidate &candidate, double tau);

// The decisions for the active step and what they were made from: every proposal of the step gets one (in request
// order), then nodes from the selective queue fill GPU slots the step left free, then nodes the user forced or
// injected (outside the budget). Under the probability policy `outlook` holds each forecast proposal's outlook and
// the learner version; under the paper's it is empty.
struct Selection
{
    QList<Decision> decisions;
    StepOutlook outlook;
    TrustReport trust; // the certified setting's τ and drift check (inactive without α)
    double tau = 0.5; // the τ in force: the certified one with α, else the configured one
};
Selection selectStep(const SearchState &state);
QList<Decision> selectCandidates(const SearchState &state); // selectStep's decisions

// The positions of the active step's proposals that get a forecast: valid, not vetoed, not duplicates.
QList<int> forecastable(const SearchState &state);

} // namespace gpuf::search
