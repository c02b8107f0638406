// The probability policy (docs/search.md, "Selection rules"): each proposal of a step gets an outlook — the learner's
// belief about its speedup (or the prior forecaster's alone), the probability that it beats its parent and the best
// so far, and its expected gain over the best — and a parent's GPU slots go to the proposals with the most to gain:
// promising and unsure first, confidently worse ones skipped (selective). Pure functions of the state.
#pragma once

#include "core/search/search_learner.h"
#include "core/search/speedup_belief.h"

#include <QHash>
#include <QList>
#include <QString>

namespace gpuf::search {

struct SearchState;
struct Decision;

struct ProposalOutlook
{
    int position = 0; // in SearchState::candidates
    SpeedupBelief belief; // Kind::None: nothing known (a failed forecast before the learner starts)
    int learnerVersion = 0; // the learner version that forecast it; 0: the prior forecaster alone
    double pBeatParent = 0.5;
    double pBeatBest = 0.5;
    double gainOverBest = 0.0; // E[max(0, log2 S − log2 best)]
    double gainOverParent = 0.0;
};

struct StepOutlook
{
    int learnerVersion = 0;
    QString learnerReason; // why the prior alone forecasts this step; empty when the learner does
    QHash<int, ProposalOutlook> proposals; // by position
};

// Below this probability of beating its parent a proposal is confidently worse: the selective mode does not measure
// it, however many GPU slots are free.
inline constexpr double kConfidentlyWorse = 0.05;

// The outlook of the active step's forecastable proposals: the learner fitted on the measurements before the step.
StepOutlook stepOutlook(const SearchState &state);
// One proposal's outlook from its belief, its parent's and the best's measured log2 speedups.
ProposalOutlook outlookOf(int position, const SpeedupBelief &belief, int version, double parentLog2, double bestLog2);

// One parent's decisions, proposals in request order, `budget` GPU slots: proposals ranked by expected gain over
// the best (then over the parent, then request order), proposals without a belief after every other; the first
// `budget` measured. With `skipWorse` (selective) a proposal whose probability of beating its parent is below
// kConfidentlyWorse is never measured.
void decideByProbability(const QList<ProposalOutlook> &group, int budget, bool skipWorse, QList<Decision> &out);

} // namespace gpuf::search
