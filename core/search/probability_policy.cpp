// The probability policy; see probability_policy.h.
#include "core/search/probability_policy.h"

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

StepOutlook stepOutlook(const SearchState &state)
{
    StepOutlook out;
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
        out.proposals.insert(
            position, outlookOf(position, belief, version, measuredLog2(state, c.parentId), std::max(bestLog2, 0.0)));
    }
    return out;
}

void decideByProbability(const QList<ProposalOutlook> &group, int budget, bool skipWorse, QList<Decision> &out)
{
    QList<ProposalOutlook> ranked = group;
    std::stable_sort(ranked.begin(), ranked.end(), [](const ProposalOutlook &a, const ProposalOutlook &b) {
        if (a.belief.known() != b.belief.known())
            return a.belief.known();
        if (a.gainOverBest != b.gainOverBest)
            return a.gainOverBest > b.gainOverBest;
        return a.gainOverParent > b.gainOverParent;
    });
    int freeSlots = budget;
    int rank = 0;
    for (const ProposalOutlook &o : std::as_const(ranked)) {
        if (skipWorse && o.belief.known() && o.pBeatParent < kConfidentlyWorse) {
            out.append({o.position, false, false,
                QStringLiteral("confidently worse than its parent (P(beat parent) = %1)")
                    .arg(percentText(o.pBeatParent)),
                rank++});
            continue;
        }
        const bool measure = freeSlots > 0;
        if (measure)
            --freeSlots;
        QString reason;
        if (!o.belief.known())
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
