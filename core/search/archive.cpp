// PUCT over the archive; see archive.h.
#include "core/search/archive.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace gpuf::search {

const ArchiveNode *Archive::find(const QString &id) const
{
    const auto it = index.constFind(id);
    return it == index.cend() ? nullptr : &nodes[size_t(*it)];
}

ArchiveNode *Archive::find(const QString &id)
{
    const auto it = index.constFind(id);
    return it == index.cend() ? nullptr : &nodes[size_t(*it)];
}

void Archive::add(ArchiveNode node)
{
    node.order = nextOrder++;
    const int position = int(nodes.size());
    index.insert(node.id, position);
    if (!node.contentHash.isEmpty() && !byHash.contains(node.contentHash))
        byHash.insert(node.contentHash, position);
    nodes.push_back(std::move(node));
}

void Archive::rebuildIndex()
{
    index.clear();
    byHash.clear();
    for (int i = 0; i < int(nodes.size()); ++i) {
        index.insert(nodes[size_t(i)].id, i);
        const QString &hash = nodes[size_t(i)].contentHash;
        if (!hash.isEmpty() && !byHash.contains(hash))
            byHash.insert(hash, i);
    }
}

double rewardScale(const Archive &archive)
{
    auto span = [&archive](bool nonSeedOnly) -> std::optional<double> {
        std::optional<double> lo, hi;
        for (const ArchiveNode &node : archive.nodes) {
            if (!node.reward || (nonSeedOnly && node.seed))
                continue;
            lo = lo ? std::min(*lo, *node.reward) : *node.reward;
            hi = hi ? std::max(*hi, *node.reward) : *node.reward;
        }
        if (!lo)
            return std::nullopt;
        return *hi - *lo;
    };
    std::optional<double> range = span(true);
    if (!range)
        range = span(false);
    if (!range)
        return 1.0;
    return std::max(1e-6, *range);
}

std::vector<int> rewardRanks(const Archive &archive)
{
    const int n = int(archive.nodes.size());
    std::vector<int> order(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        order[size_t(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&archive](int a, int b) {
        const ArchiveNode &x = archive.nodes[size_t(a)];
        const ArchiveNode &y = archive.nodes[size_t(b)];
        if (x.reward.has_value() != y.reward.has_value())
            return x.reward.has_value();
        if (x.reward && *x.reward != *y.reward)
            return *x.reward > *y.reward;
        return x.order < y.order;
    });
    std::vector<int> ranks(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r)
        ranks[size_t(order[size_t(r)])] = r;
    return ranks;
}

double rankPrior(int rank, int nodeCount)
{
    if (nodeCount <= 0)
        return 0.0;
    const double n = nodeCount;
    return (n - rank) / (n * (n + 1.0) / 2.0);
}

std::vector<ScoredNode> scoreNodes(const Archive &archive, const PuctParams &params)
{
    const int n = int(archive.nodes.size());
    const double scale = rewardScale(archive);
    const std::vector<int> ranks = rewardRanks(archive);
    const double exploration = params.c * scale * std::sqrt(1.0 + archive.expansions);
    std::vector<ScoredNode> scored(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const ArchiveNode &node = archive.nodes[size_t(i)];
        ScoredNode &s = scored[size_t(i)];
        s.position = i;
        s.rank = ranks[size_t(i)];
        s.prior = rankPrior(s.rank, n);
        s.score = node.q + exploration * s.prior / (1.0 + node.visits);
    }
    std::stable_sort(scored.begin(), scored.end(), [&archive](const ScoredNode &a, const ScoredNode &b) {
        if (a.score != b.score)
            return a.score > b.score;
        const ArchiveNode &x = archive.nodes[size_t(a.position)];
        const ArchiveNode &y = archive.nodes[size_t(b.position)];
        const double rx = x.reward.value_or(-1.0);
        const double ry = y.reward.value_or(-1.0);
        if (rx != ry)
            return rx > ry;
        return x.order < y.order;
    });
    return scored;
}

QStringList selectParents(
    const Archive &archive, int count, const QStringList &pinned, const QStringList &vetoed, const PuctParams &params)
{
    QStringList chosen;
    QSet<QString> blocked; // chosen nodes and their ancestors
    const QSet<QString> veto(vetoed.cbegin(), vetoed.cend());
    auto isBlocked = [&](const ArchiveNode &node) {
        if (blocked.contains(node.id))
            return true;
        for (const QString &c : std::as_const(chosen)) {
            if (node.ancestors.contains(c)) // a descendant of a chosen node
                return true;
        }
        return false;
    };
    auto take = [&](const ArchiveNode &node) {
        chosen.append(node.id);
        blocked.insert(node.id);
        for (const QString &a : node.ancestors)
            blocked.insert(a);
    };
    for (const QString &id : pinned) {
        if (chosen.size() >= count)
            break;
        const ArchiveNode *node = archive.find(id);
        if (node && !veto.contains(id) && !isBlocked(*node))
            take(*node);
    }
    if (chosen.size() >= count)
        return chosen;
    for (const ScoredNode &s : scoreNodes(archive, params)) {
        if (chosen.size() >= count)
            break;
        const ArchiveNode &node = archive.nodes[size_t(s.position)];
        if (!veto.contains(node.id) && !isBlocked(node))
            take(node);
    }
    return chosen;
}

void backpropagate(Archive &archive, const ParentOutcome &outcome)
{
    ArchiveNode *parent = archive.find(outcome.parentId);
    if (parent) {
        if (!outcome.childRewards.isEmpty()) {
            const double best = *std::max_element(outcome.childRewards.cbegin(), outcome.childRewards.cend());
            parent->q = std::max(parent->q, best);
        }
        parent->visits += 1;
        const QStringList ancestors = parent->ancestors;
        for (const QString &id : ancestors) {
            if (ArchiveNode *a = archive.find(id))
                a->visits += 1;
        }
    }
    archive.expansions += 1;
}

QList<ChildCandidate> planAdmission(
    const Archive &archive, const QList<ChildCandidate> &candidates, const AdmissionParams &params)
{
    QSet<QString> seenHashes; // codes of earlier candidates of this step
    QStringList parentOrder;
    QHash<QString, QList<int>> perParent; // parent → candidate positions, in the order given
    QList<int> forced;
    for (int i = 0; i < candidates.size(); ++i) {
        const ChildCandidate &c = candidates.at(i);
        if (!c.reward)
            continue;
        if (!c.contentHash.isEmpty()) {
            if (archive.byHash.contains(c.contentHash) || seenHashes.contains(c.contentHash))
                continue;
            seenHashes.insert(c.contentHash);
        }
        if (c.forced) {
            forced.append(i);
            continue;
        }
        if (!perParent.contains(c.parentId))
            parentOrder.append(c.parentId);
        perParent[c.parentId].append(i);
    }
    QList<ChildCandidate> plan;
    for (const QString &parentId : std::as_const(parentOrder)) {
        QList<int> list = perParent.value(parentId);
        std::stable_sort(list.begin(), list.end(),
            [&candidates](int a, int b) { return *candidates.at(a).reward > *candidates.at(b).reward; });
        for (int k = 0; k < list.size() && k < params.keepPerParent; ++k)
            plan.append(candidates.at(list.at(k)));
    }
    for (int i : std::as_const(forced))
        plan.append(candidates.at(i));
    return plan;
}

QStringList admit(Archive &archive, const QList<ChildCandidate> &candidates, int step, const AdmissionParams &params)
{
    const QList<ChildCandidate> plan = planAdmission(archive, candidates, params);
    QStringList admitted;
    for (const ChildCandidate &c : plan) {
        ArchiveNode node;
        node.id = c.id;
        node.reward = c.reward;
        node.q = *c.reward;
        node.contentHash = c.contentHash;
        node.kernelId = c.kernelId;
        node.step = step;
        if (const ArchiveNode *parent = archive.find(c.parentId)) {
            node.ancestors.reserve(parent->ancestors.size() + 1);
            node.ancestors.append(parent->id);
            node.ancestors.append(parent->ancestors);
        } else if (!c.parentId.isEmpty()) {
            node.ancestors.append(c.parentId); // the parent left the archive: the lineage still names it
        }
        archive.add(std::move(node));
        admitted.append(c.id);
    }
    trimToCapacity(archive, params.capacity);
    return admitted;
}

void trimToCapacity(Archive &archive, int capacity)
{
    if (capacity <= 0 || int(archive.nodes.size()) <= capacity)
        return;
    std::vector<int> order(archive.nodes.size());
    for (int i = 0; i < int(order.size()); ++i)
        order[size_t(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&archive](int a, int b) {
        const ArchiveNode &x = archive.nodes[size_t(a)];
        const ArchiveNode &y = archive.nodes[size_t(b)];
        if (x.seed != y.seed)
            return x.seed;
        const double rx = x.reward.value_or(-1.0);
        const double ry = y.reward.value_or(-1.0);
        if (rx != ry)
            return rx > ry;
        return x.order < y.order;
    });
    const int seeds
        = int(std::count_if(archive.nodes.cbegin(), archive.nodes.cend(), [](const ArchiveNode &n) { return n.seed; }));
    const int keepCount = std::max(capacity, seeds);
    std::vector<bool> keep(archive.nodes.size(), false);
    for (int i = 0; i < keepCount && i < int(order.size()); ++i)
        keep[size_t(order[size_t(i)])] = true;
    std::vector<ArchiveNode> kept;
    kept.reserve(size_t(keepCount));
    for (size_t i = 0; i < archive.nodes.size(); ++i) {
        if (keep[i])
            kept.push_back(std::move(archive.nodes[i]));
    }
    archive.nodes = std::move(kept);
    archive.rebuildIndex();
}

} // namespace gpuf::search
