// Questions asked of a folded search state — a candidate by node, vetoes along a lineage, duplicates, the step's
// children, the archive's canonical text — apart from the fold itself (search_state.cpp); see search_state.h.
#include "core/search/search_state.h"

namespace gpuf::search {

QString candidateStatusName(CandidateStatus status)
{
    switch (status) {
    case CandidateStatus::Requested:
        return QStringLiteral("requested");
    case CandidateStatus::Proposed:
        return QStringLiteral("proposed");
    case CandidateStatus::MutationFailed:
        return QStringLiteral("mutation_failed");
    case CandidateStatus::Deferred:
        return QStringLiteral("deferred");
    case CandidateStatus::Queued:
        return QStringLiteral("queued");
    case CandidateStatus::Selected:
        return QStringLiteral("selected");
    case CandidateStatus::Evaluated:
        return QStringLiteral("evaluated");
    case CandidateStatus::EvaluationFailed:
        return QStringLiteral("evaluation_failed");
    }
    return {};
}

const Candidate *SearchState::candidate(const QString &nodeId) const
{
    const auto it = byNode.constFind(nodeId);
    return it == byNode.cend() ? nullptr : &candidates[size_t(*it)];
}

bool isVetoed(const SearchState &state, const QString &nodeId)
{
    if (state.vetoed.contains(nodeId))
        return true;
    if (state.vetoedBranches.isEmpty())
        return false;
    // Up the lineage; bounded by the number of candidates, so a malformed cycle cannot loop forever.
    const Candidate *c = state.candidate(nodeId);
    for (size_t hops = 0; c && !c->parentId.isEmpty() && hops <= state.candidates.size(); ++hops) {
        if (state.vetoedBranches.contains(c->parentId))
            return true;
        c = state.candidate(c->parentId);
    }
    return false;
}

QStringList vetoedArchiveNodes(const SearchState &state)
{
    if (state.vetoedBranches.isEmpty())
        return state.vetoed;
    QStringList out = state.vetoed;
    for (const ArchiveNode &node : state.archive.nodes) {
        if (!state.vetoed.contains(node.id) && isVetoed(state, node.id))
            out.append(node.id);
    }
    return out;
}

QList<ChildCandidate> stepChildren(const SearchState &state)
{
    QList<ChildCandidate> children;
    if (const StepRecord *record = state.active()) {
        for (int position : record->measured) {
            const Candidate &c = state.candidates[size_t(position)];
            children.append({c.nodeId, c.parentId, c.reward, c.contentHash, c.kernelId, c.forced});
        }
    }
    return children;
}

bool isDuplicate(const SearchState &state, int position)
{
    const Candidate &c = state.candidates[size_t(position)];
    if (c.contentHash.isEmpty())
        return false;
    const auto it = state.evaluatedHashes.constFind(c.contentHash);
    if (it != state.evaluatedHashes.cend() && *it != position)
        return true;
    if (state.archive.byHash.contains(c.contentHash))
        return true;
    if (c.step < 0 || c.step >= int(state.steps.size()))
        return false;
    for (int other : state.steps[size_t(c.step)].candidates) {
        if (other == position)
            break;
        const Candidate &o = state.candidates[size_t(other)];
        if (o.status != CandidateStatus::MutationFailed && o.status != CandidateStatus::Requested
            && o.contentHash == c.contentHash)
            return true;
    }
    return false;
}

QString canonicalArchive(const SearchState &state)
{
    auto hashOf = [&state](const QString &nodeId) {
        const Candidate *c = state.candidate(nodeId);
        return c ? c->contentHash.left(16) : nodeId;
    };
    QStringList lines;
    for (const ArchiveNode &n : state.archive.nodes) {
        QStringList lineage;
        for (const QString &a : n.ancestors)
            lineage << hashOf(a);
        lines << QStringLiteral("%1 r=%2 q=%3 n=%4 step=%5 seed=%6 <- %7")
                     .arg(n.contentHash.left(16))
                     .arg(n.reward ? QString::number(*n.reward, 'g', 12) : QStringLiteral("none"))
                     .arg(QString::number(n.q, 'g', 12))
                     .arg(n.visits)
                     .arg(n.step)
                     .arg(n.seed ? 1 : 0)
                     .arg(lineage.join(QLatin1Char(',')));
    }
    lines << QStringLiteral("T=%1 steps=%2 gpu=%3 forecasts=%4 deferred=%5 best=%6 (%7)")
                 .arg(state.archive.expansions)
                 .arg(state.completedSteps())
                 .arg(state.gpuEvaluations)
                 .arg(state.forecastsDone)
                 .arg(state.deferred)
                 .arg(state.bestReward ? QString::number(*state.bestReward, 'g', 12) : QStringLiteral("none"))
                 .arg(hashOf(state.bestNode));
    return lines.join(QLatin1Char('\n'));
}

} // namespace gpuf::search
