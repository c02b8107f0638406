// How good the search's own forecaster was in one replayed search (docs/search.md, "Reading the figures"): the space
// knows every configuration's outcome, so the learner and the trusted forecasts can be checked against all of it, not
// only against what the search chose to measure. Pure functions of a folded search and its space.
#pragma once

#include <limits>

namespace gpuf::search {

struct SearchState;
struct TuningSpace;

inline constexpr int kLearnerCheckMeasurements = 30;

struct LearnerQuality
{
    // Spearman's correlation between the learner's expected log2 speedup and the recorded one over every configuration
    // of the space it did not learn from, the learner fitted on the search's first kLearnerCheckMeasurements
    // measurements (their tunables alone: the space's other configurations were never forecast); NaN with fewer.
    double spearmanSpace = std::numeric_limits<double>::quiet_NaN();
    // The same over the proposals the search's learner forecast once it had learned from at least
    // kLearnerCheckMeasurements measurements (its logged mean, prior included), measured or not; NaN with fewer than 3.
    double spearmanProposals = std::numeric_limits<double>::quiet_NaN();
    // Certified setting (α): proposals whose forecast was trusted when decided, and of them those the space proves
    // wrong (probability policy: the child beats its parent after all; paper policy: the speedup is outside the
    // forecast's top bin), measured or not. 0 of 0 without α.
    int trusted = 0;
    int trustedWrong = 0;
};

LearnerQuality learnerQuality(const SearchState &state, const TuningSpace &space);

} // namespace gpuf::search
