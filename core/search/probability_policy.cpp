// The probability policy; see probability_policy.h.
#include "core/search/probability_policy.h"

#include "core/search/recalibration.h"
#include "core/search/search_state.h"
#include "core/search/selection.h"

#include <algorithm>
#include <cmath>

namespace gpuf::search {

namespace {

// A measured node's log2 speedup; an unmeasured seed (the problem's reference) stands at 1×.
double measuredLog2(const SearchState &state, const QString &nodeId)
{
    const Candidate *c = state.candidate(nodeId);
    if (c && c->reward && *c->reward > 0.0)
        return std::log2(*c->reward);
    if (const ArchiveNode *node = state.archive.find(nodeId); node && node->reward && *node->reward > 0.0)
        return std::log2(*node->reward);
    return 0.0;
}

QString percentText(double p) { return QString::number(100.0 * p, 'f', 1) + QLatin1Char('%'); }

} // namespace

ProposalOutlook outlookOf(int position, const SpeedupBelief &belief, int version, double parentLog2, double bestLog2)
{
    ProposalOutlook o;
    o.position = position;
    o.belief = belief;
    o.learnerVersion = version;
    o.pBeatParent = belief.probabilityAbove(parentLog2);
    o.pBeatBest = belief.probabilityAbove(bestLog2);
    o.gainOverBest = belief.expectedGain(bestLog2);
    o.gainOverParent = belief.expectedGain(parentLog2);
    return o;
}

double learnerTemperature(const SearchState &state, int *pairs)
{
    std::vector<double> z;
    for (const Candidate &c : state.candidates) {
        if (c.status != CandidateStatus::Evaluated || c.learnerVersion <= 0 || !c.reward || !(*c.reward > 0.0)
            || !std::isfinite(c.meanLog2) || !(c.rawSdLog2 > 0.0))
            continue;
        z.push_back((std::log2(*c.reward) - c.meanLog2) / c.rawSdLog2);
    }
    if (pairs)
        *pairs = int(z.size());
    return temperatureOf(z);
}

ProposalOutlook learnedOutlookOf(
    int position, const SpeedupBelief &raw, double temperature, int version, double parentLog2, double bestLog2)
{
    SpeedupBelief calibrated = raw;
    calibrated.sd *= temperature;
    ProposalOutlook o = outlookOf(position, calibrated, version, parentLog2, bestLog2);
    o.gainOverBest = raw.expectedGain(bestLog2);
    o.gainOverParent = raw.expectedGain(parentLog2);
    o.rawSd = raw.sd;
    return o;
}

StepOutlook stepOutlook(const SearchState &state)
{
    StepOutlook out;
    out.temperature = learnerTemperature(state, &out.calibrationPairs);
    out.improvementRate = improvementRate(state.trajectory);
    const LearnerData training = learnerTraining(state);
    const LearnerFit fit = LearnerFit::fit(training);
    out.learnerVersion = fit.learned() ? fit.version() : 0;
    out.learnerReason = fit.reason();
    const double bestLog2 = state.bestReward && *state.bestReward > 0.0 ? std::log2(*state.bestReward) : 0.0;
    for (int position : forecastable(state)) {
        const Candidate &c = state.candidates[size_t(position)];
        const double prior = priorMeanLog2(state, position);
        SpeedupBelief belief;
        int version = 0;
        if (fit.learned()) {
            const std::vector<double> row = learnerRow(training, state, position);
            if (!row.empty()) {
                belief = fit.predict(row, prior);
                version = fit.version();
            }
        }
        if (!belief.known() && c.forecastDone && !c.forecastFailed) {
            belief = SpeedupBelief::fromBins(c.probabilities);
            if (!belief.known()) // a log without probabilities: the expected bin, a bin wide
                belief = SpeedupBelief::gaussian(prior, 0.5);
        }
        const double parentLog2 = measuredLog2(state, c.parentId);
        ProposalOutlook o = version > 0
            ? learnedOutlookOf(position, belief, out.temperature, version, parentLog2, std::max(bestLog2, 0.0))
            : outlookOf(position, belief, version, parentLog2, std::max(bestLog2, 0.0));
        if (version == 0)
            o.rawSd = belief.sdLog2();
        out.proposals.insert(position, o);
    }
    return out;
}

double improvementRate(const std::vector<TrajectoryPoint> &trajectory)
{
    int improvements = 0;
    for (size_t i = 1; i < trajectory.size(); ++i)
        improvements += trajectory[i].best > trajectory[i - 1].best ? 1 : 0;
    const int measured = std::max(0, int(trajectory.size()) - 1);
    return double(improvements + 1) / double(measured + 2);
}

void decideByProbability(const QList<ProposalOutlook> &group, int budget, bool skipWorse, QList<Decision> &out)
{
    decideByProbability(group, ProbabilityRule {budget, skipWorse, kConfidentlyWorse, 0.0}, out);
}

void decideByProbability(const QList<ProposalOutlook> &group, const ProbabilityRule &rule, QList<Decision> &out)
{
    QList<ProposalOutlook> ranked = group;
    std::stable_sort(ranked.begin(), ranked.end(), [](const ProposalOutlook &a, const ProposalOutlook &b) {
        if (a.belief.known() != b.belief.known())
            return a.belief.known();
        if (a.pBeatBest != b.pBeatBest)
            return a.pBeatBest > b.pBeatBest;
        if (a.gainOverBest != b.gainOverBest)
            return a.gainOverBest > b.gainOverBest;
        return a.gainOverParent > b.gainOverParent;
    });
    // The learner's probabilities are recalibrated, so they can be held against the search's improvement rate; the
    // prior forecaster's are not, and its proposals fill the budget.
    const bool learned
        = std::any_of(group.cbegin(), group.cend(), [](const ProposalOutlook &o) { return o.learnerVersion > 0; });
    int freeSlots = rule.budget;
    int rank = 0;
    for (const ProposalOutlook &o : std::as_const(ranked)) {
        if (rule.skipWorse && o.belief.known() && o.pBeatParent < rule.worseBelow) {
            out.append({o.position, false, false,
                QStringLiteral("confidently worse than its parent (P(beat parent) = %1)")
                    .arg(percentText(o.pBeatParent)),
                rank++});
            continue;
        }
        bool measure = freeSlots > 0;
        // After the parent's first measurement, another one only where beating the best is at least as likely as a
        // measurement's record says.
        const bool belowRate
            = measure && learned && freeSlots < rule.budget && o.belief.known() && o.pBeatBest < rule.improvementRate;
        if (belowRate)
            measure = false;
        if (measure)
            --freeSlots;
        QString reason;
        if (belowRate)
            reason = QStringLiteral("P(beat best) = %1, below the search's improvement rate %2")
                         .arg(percentText(o.pBeatBest), percentText(rule.improvementRate));
        else if (!o.belief.known())
            reason = measure ? QStringLiteral("no forecast: measured in a free slot")
                             : QStringLiteral("no forecast, no free slot");
        else
            reason = (measure ? QStringLiteral("expected gain within the GPU budget (P(beat best) = %1)")
                              : QStringLiteral("expected gain below the GPU budget (P(beat best) = %1)"))
                         .arg(percentText(o.pBeatBest));
        out.append({o.position, measure, false, reason, rank++});
    }
}

} // namespace gpuf::search
