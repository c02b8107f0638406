// PUCT over the archive; see archive.h.
#include "core/search/archive.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

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

namespace {

// Plain keys sorted instead of nodes: a 10 000-node archive is ranked and scored every step, so the comparisons must
// not chase pointers into the nodes.
struct RankKey
{
    double reward; // −∞ for none: after every node with a reward
    qint64 order;
    int position;
};

struct ScoreKey
{
    double score;
    double reward; // −1 for none (rewards are speedups, > 0)
    qint64 order;
    int position;
};

bool scoreBefore(const ScoreKey &a, const ScoreKey &b)
{
    if (a.score != b.score)
        return a.score > b.score;
    if (a.reward != b.reward)
        return a.reward > b.reward;
    return a.order < b.order;
}

std::vector<ScoreKey> scoreKeys(const Archive &archive, const PuctParams &params, std::vector<int> *ranksOut)
{
    const int n = int(archive.nodes.size());
    std::vector<int> ranks = rewardRanks(archive);
    const double scale = rewardScale(archive);
    const double exploration = params.c * scale * std::sqrt(1.0 + archive.expansions);
    std::vector<ScoreKey> keys(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const ArchiveNode &node = archive.nodes[size_t(i)];
        const double prior = rankPrior(ranks[size_t(i)], n);
        keys[size_t(i)]
            = {node.q + exploration * prior / (1.0 + node.visits), node.reward.value_or(-1.0), node.order, i};
    }
    if (ranksOut)
        *ranksOut = std::move(ranks);
    return keys;
}

} // namespace

std::vector<int> rewardRanks(const Archive &archive)
{
    const int n = int(archive.nodes.size());
    std::vector<RankKey> keys(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const ArchiveNode &node = archive.nodes[size_t(i)];
        keys[size_t(i)] = {node.reward.value_or(-std::numeric_limits<double>::infinity()), node.order, i};
    }
    std::sort(keys.begin(), keys.end(), [](const RankKey &a, const RankKey &b) {
        if (a.reward != b.reward)
            return a.reward > b.reward;
        return a.order < b.order;
    });
    std::vector<int> ranks(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r)
        ranks[size_t(keys[size_t(r)].position)] = r;
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
    std::vector<int> ranks;
    std::vector<ScoreKey> keys = scoreKeys(archive, params, &ranks);
    std::sort(keys.begin(), keys.end(), scoreBefore);
    const int n = int(keys.size());
    std::vector<ScoredNode> scored(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const ScoreKey &k = keys[size_t(i)];
        scored[size_t(i)] = {k.position, k.score, rankPrior(ranks[size_t(k.position)], n), ranks[size_t(k.position)]};
    }
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
    // Greedy down the sorted list; only its head is sorted unless blocking reaches further.
    std::vector<ScoreKey> keys = scoreKeys(archive, params, nullptr);
    size_t sorted = 0;
    for (size_t i = 0; i < keys.size() && chosen.size() < count; ++i) {
        if (i == sorted) {
            const size_t head = std::min(keys.size(), std::max<size_t>(64, sorted * 4));
            std::partial_sort(
                keys.begin() + qsizetype(sorted), keys.begin() + qsizetype(head), keys.end(), scoreBefore);
            sorted = head;
        }
        const ArchiveNode &node = archive.nodes[size_t(keys[i].position)];
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
