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

#include <vector>

namespace gpuf::search {

struct SearchState;
struct Decision;
struct TrajectoryPoint;

// Below this probability of beating its parent a proposal is confidently worse: the selective mode does not measure
// it, however many GPU slots are free.
inline constexpr double kConfidentlyWorse = 0.05;

struct ProposalOutlook
{
    int position = 0; // in SearchState::candidates
    SpeedupBelief belief; // Kind::None: nothing known (a failed forecast before the learner starts)
    int learnerVersion = 0; // the learner version that forecast it; 0: the prior forecaster alone
    double pBeatParent = 0.5;
    double pBeatBest = 0.5;
    double gainOverBest = 0.0; // E[max(0, log2 S − log2 best)]
    double gainOverParent = 0.0;
    double rawSd = 0.0; // the learner's sd before the temperature (the belief's own sd for the prior forecaster)
};
// The outlook of a learner's forecast: the ranking's expected gains from its own belief (`raw`, the spread it was
// fitted with), the probabilities of beating the parent and the best from the belief recalibrated by `temperature`.
ProposalOutlook learnedOutlookOf(
    int position, const SpeedupBelief &raw, double temperature, int version, double parentLog2, double bestLog2);

struct StepOutlook
{
    int learnerVersion = 0;
    QString learnerReason; // why the prior alone forecasts this step; empty when the learner does
    double temperature = 1.0; // the learner's sd is multiplied by it (recalibration.h, temperatureOf)
    int calibrationPairs = 0; // the measured pairs the temperature was fitted on
    double worseBelow = kConfidentlyWorse; // selective: P(beat parent) below this is confidently worse
    double improvementRate = 0.5; // improvementRate(state.trajectory)
    QHash<int, ProposalOutlook> proposals; // by position
};

// The outlook of the active step's forecastable proposals: the learner fitted on the measurements before the step.
StepOutlook stepOutlook(const SearchState &state);
// The learner's temperature on the search's measured pairs: every measured proposal the learner forecast (version > 0)
// with its standardised error (log2 measured − mean) / raw sd; `pairs` gets their number.
double learnerTemperature(const SearchState &state, int *pairs = nullptr);
// One proposal's outlook from its belief, its parent's and the best's measured log2 speedups.
ProposalOutlook outlookOf(int position, const SpeedupBelief &belief, int version, double parentLog2, double bestLog2);

// How one parent's GPU slots are given out under the probability policy.
struct ProbabilityRule
{
    int budget = 0; // the parent's GPU slots (--measure)
    bool skipWorse = false; // selective: never measure what is confidently worse than its parent
    double worseBelow = kConfidentlyWorse; // P(beat parent) below this is confidently worse (a certified τ moves it)
    // After a parent's first measurement, a learned proposal whose P(beat best) is below this is not measured
    // (0: the budget is filled).
    double improvementRate = 0.0;
};

// The share of the search's measurements that raised its best so far, (improvements + 1)/(measurements + 2) over the
// trajectory after the first evaluation (the seed's): what one more measurement has been worth, as a probability.
double improvementRate(const std::vector<TrajectoryPoint> &trajectory);

// One parent's decisions, proposals in request order: proposals ranked by the probability of beating the best (then
// the expected gain over the best, over the parent, request order), proposals without a belief after every other.
// The first is measured; the next ones up to `budget`, except that once the learner forecasts the step (a proposal of
// learner version > 0) a proposal whose P(beat best) is below rule.improvementRate is not. With skipWorse (selective)
// a proposal whose probability of beating its parent is below worseBelow is never measured.
void decideByProbability(const QList<ProposalOutlook> &group, const ProbabilityRule &rule, QList<Decision> &out);
// The same with `budget` slots and the default threshold.
void decideByProbability(const QList<ProposalOutlook> &group, int budget, bool skipWorse, QList<Decision> &out);

} // namespace gpuf::search
