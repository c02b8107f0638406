// Selection rules; see selection.h and docs/search.md.
#include "core/search/selection.h"

#include <algorithm>

namespace gpuf::search {

bool isTrusted(const Candidate &c, double tau) { return c.forecastDone && !c.forecastFailed && c.confidence >= tau; }

namespace {

bool eligible(const SearchState &state, int position)
{
    const Candidate &c = state.candidates[size_t(position)];
    return c.status == CandidateStatus::Proposed && !isVetoed(state, c.nodeId) && !c.forced
        && !isDuplicate(state, position);
}

// Forecast order: expected bin descending; failed forecasts last; ties by request order (the list's order).
QList<int> rankedByForecast(const SearchState &state, QList<int> positions)
{
    std::stable_sort(positions.begin(), positions.end(), [&state](int a, int b) {
        const Candidate &x = state.candidates[size_t(a)];
        const Candidate &y = state.candidates[size_t(b)];
        const bool xs = x.forecastDone && !x.forecastFailed;
        const bool ys = y.forecastDone && !y.forecastFailed;
        if (xs != ys)
            return xs;
        return xs && x.expectedBin > y.expectedBin;
    });
    return positions;
}

void decideForParent(const SearchState &state, const QList<int> &group, QList<Decision> &out, int budget,
    const StepOutlook &outlook, double tau)
{
    const SearchConfig &config = state.config;
    if (config.mode != Mode::Standard && config.policy == Policy::Probability) {
        QList<ProposalOutlook> outlooks;
        for (int position : group)
            outlooks.append(outlook.proposals.value(position, ProposalOutlook {position, {}, 0, 0.5, 0.5, 0.0, 0.0}));
        const bool selective = config.mode == Mode::Selective;
        decideByProbability(
            outlooks, ProbabilityRule {budget, selective, outlook.worseBelow, outlook.improvementRate}, out);
        return;
    }
    auto add = [&out](int position, bool measure, const QString &reason, int rank, bool queue = false) {
        out.append({position, measure, queue, reason, rank});
    };
    if (config.mode == Mode::Standard) {
        for (int i = 0; i < group.size(); ++i)
            add(group.at(i), i < budget, i < budget ? QStringLiteral("measure all") : QStringLiteral("over budget"), i);
        return;
    }
    if (config.mode == Mode::Surrogate) {
        const QList<int> ranked = rankedByForecast(state, group);
        for (int i = 0; i < ranked.size(); ++i)
            add(ranked.at(i), i < budget,
                i < budget ? QStringLiteral("top expected bin") : QStringLiteral("ranked below the GPU budget"), i);
        return;
    }
    // Selective: the best trusted forecast keeps one slot; untrusted ones take the next openSlots in request order
    // (those that do not fit are queued, never discarded on a forecast nobody trusts); trusted ones fill the rest.
    QList<int> trusted, untrusted;
    for (int position : group)
        (isTrusted(state.candidates[size_t(position)], tau) ? trusted : untrusted).append(position);
    trusted = rankedByForecast(state, trusted);
    int openSlots = budget;
    int rank = 0;
    QList<int> trustedLeft = trusted;
    if (!trustedLeft.isEmpty() && openSlots > 0) {
        add(trustedLeft.takeFirst(), true, QStringLiteral("best trusted forecast"), rank++);
        --openSlots;
    }
    for (int position : std::as_const(untrusted)) {
        if (openSlots > 0) {
            add(position, true, QStringLiteral("untrusted forecast: measured"), -1);
            --openSlots;
        } else {
            add(position, false, QStringLiteral("untrusted forecast: queued for a free GPU slot"), -1, true);
        }
    }
    for (int position : std::as_const(trustedLeft)) {
        const bool measure = openSlots > 0;
        if (measure)
            --openSlots;
        add(position, measure,
            measure ? QStringLiteral("trusted forecast, ranked within the GPU budget")
                    : QStringLiteral("trusted forecast, ranked below the GPU budget"),
            rank++);
    }
}

// GPU slots the step's own selection left free go to the selective queue's head; nodes the user forced or injected
// are measured outside the budget.
void fillFreeSlots(const SearchState &state, QList<Decision> &out)
{
    int used = int(std::count_if(out.cbegin(), out.cend(), [](const Decision &d) { return d.measure; }));
    int spare = state.config.gpuBudgetPerStep() - used;
    QSet<QString> hashes; // code sent to the GPU by this selection
    for (const Decision &d : std::as_const(out)) {
        if (d.measure)
            hashes.insert(state.candidates[size_t(d.position)].contentHash);
    }
    for (const QString &nodeId : state.queue) {
        if (spare <= 0)
            break;
        const int position = state.byNode.value(nodeId, -1);
        if (position < 0 || isVetoed(state, nodeId))
            continue;
        const Candidate &c = state.candidates[size_t(position)];
        if (hashes.contains(c.contentHash) || state.evaluatedHashes.contains(c.contentHash))
            continue;
        hashes.insert(c.contentHash);
        out.append({position, true, false, QStringLiteral("queued earlier: a free GPU slot"), -1});
        --spare;
    }
    for (const QString &nodeId : state.forcedQueue) {
        const int position = state.byNode.value(nodeId, -1);
        if (position < 0 || isVetoed(state, nodeId))
            continue;
        out.append({position, true, false,
            state.candidates[size_t(position)].injected ? QStringLiteral("injected by the user")
                                                        : QStringLiteral("measurement forced by the user"),
            -1});
    }
}

} // namespace

QList<int> forecastable(const SearchState &state)
{
    QList<int> out;
    if (const StepRecord *step = state.active()) {
        for (int position : step->candidates) {
            if (eligible(state, position))
                out.append(position);
        }
    }
    return out;
}

QList<Decision> selectCandidates(const SearchState &state) { return selectStep(state).decisions; }

Selection selectStep(const SearchState &state)
{
    Selection selection;
    const StepRecord *step = state.active();
    if (!step)
        return selection;
    if (state.config.mode != Mode::Standard) {
        selection.trust = trustReport(state);
        selection.tau = effectiveTau(state, selection.trust);
    }
    if (state.config.mode != Mode::Standard && state.config.policy == Policy::Probability) {
        selection.outlook = stepOutlook(state);
        if (selection.trust.active) // the claim "worse than its parent" is trusted at 1 − P(beat parent) ≥ τ
            selection.outlook.worseBelow = 1.0 - selection.tau;
    }
    QList<Decision> &out = selection.decisions;
    QStringList parentOrder;
    QHash<QString, QList<int>> groups;
    for (int position : step->candidates) {
        const Candidate &c = state.candidates[size_t(position)];
        if (c.status != CandidateStatus::Proposed || c.forced)
            continue;
        if (isVetoed(state, c.nodeId)) {
            out.append({position, false, false, QStringLiteral("vetoed"), -1});
            continue;
        }
        if (isDuplicate(state, position)) {
            out.append({position, false, false, QStringLiteral("duplicate of code already measured"), -1});
            continue;
        }
        if (!groups.contains(c.parentId))
            parentOrder.append(c.parentId);
        groups[c.parentId].append(position);
    }
    QList<Decision> decided;
    for (const QString &parent : std::as_const(parentOrder))
        decideForParent(
            state, groups.value(parent), decided, state.config.measurementsPerParent, selection.outlook, selection.tau);
    // Decisions in request order, as the log shows them.
    std::stable_sort(
        decided.begin(), decided.end(), [](const Decision &a, const Decision &b) { return a.position < b.position; });
    out.append(decided);
    std::stable_sort(
        out.begin(), out.end(), [](const Decision &a, const Decision &b) { return a.position < b.position; });
    fillFreeSlots(state, out);
    return selection;
}

} // namespace gpuf::search
