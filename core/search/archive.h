// The search archive and the PUCT rules over it (paper-facts §6): scores, rank prior, scale, lineage blocking for a
// batch of parents, back-propagation and admission. Pure functions over values; no Qt beyond value types, no I/O.
#pragma once

#include "core/domain/problem.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace gpuf::search {

struct ArchiveNode
{
    QString id;
    QStringList ancestors; // nearest first
    std::optional<double> reward; // aggregated speedup; none: never measured ok (an unmeasured seed)
    bool seed = false;
    double q = 0.0; // Q(s): r(s) until a child improves on it
    int visits = 0; // n(s)
    QString contentHash; // SHA-256 of the code: duplicates are dropped at admission
    RowId kernelId = 0;
    int step = -1; // the step whose completion admitted it (-1: a seed)
    qint64 order = 0; // admission order: the last tie-break everywhere
};

struct Archive
{
    std::vector<ArchiveNode> nodes; // in admission order
    QHash<QString, int> index; // node id → position in nodes
    QHash<QString, int> byHash; // content hash → position (the first node with that code)
    int expansions = 0; // T: global expansion count
    qint64 nextOrder = 0;

    const ArchiveNode *find(const QString &id) const;
    ArchiveNode *find(const QString &id);
    void add(ArchiveNode node); // assigns order; rebuilds nothing else
    void rebuildIndex();
};

struct PuctParams
{
    double c = 1.0;
};

struct ScoredNode
{
    int position = 0; // in Archive::nodes
    double score = 0.0;
    double prior = 0.0; // P(s)
    int rank = 0; // 0 = best reward
};

// scale = max(1e-6, max r − min r) over non-seed nodes with a reward (all nodes with a reward when no non-seed node
// has one; 1.0 when no node has one).
double rewardScale(const Archive &archive);
// rank(s) of every node (0 = best reward; nodes without a reward after all that have one; ties by admission order).
std::vector<int> rewardRanks(const Archive &archive);
// P(s) = (N − rank) / (N(N+1)/2).
double rankPrior(int rank, int nodeCount);
// score(s) = Q(s) + c·scale·P(s)·√(1+T)/(1+n(s)); a node without a reward has Q = 0 until a child gives it one.
// Returned sorted by (score, reward) descending, then admission order.
std::vector<ScoredNode> scoreNodes(const Archive &archive, const PuctParams &params = {});

// Greedy down the sorted list: pinned nodes first (in the order given), then by score; choosing a node blocks its
// lineage (itself, its ancestors, its descendants); vetoed nodes are never chosen. At most `count` node ids.
QStringList selectParents(const Archive &archive, int count, const QStringList &pinned = {},
    const QStringList &vetoed = {}, const PuctParams &params = {});

// One parent's outcome at the end of a step: the rewards of its valid children (failures left out).
struct ParentOutcome
{
    QString parentId;
    QList<double> childRewards;
};
// Q(parent) = max(Q, best child reward) when it has a valid child; n += 1 on the parent and its ancestors; T += 1.
void backpropagate(Archive &archive, const ParentOutcome &outcome);

// A measured proposal that may join the archive.
struct ChildCandidate
{
    QString id;
    QString parentId; // empty: a new root (an injected kernel without a parent)
    std::optional<double> reward; // none: failed
    QString contentHash;
    RowId kernelId = 0;
    bool forced = false; // injected or force-measured by the user: kept whenever valid, outside the top-k
};
struct AdmissionParams
{
    int keepPerParent = 2; // top-k children by reward per parent
    int capacity = 1000;
};
// The candidates admit() would take, in admission order, without changing the archive.
QList<ChildCandidate> planAdmission(
    const Archive &archive, const QList<ChildCandidate> &candidates, const AdmissionParams &params);
// Per parent, the valid children that are no duplicate (of a node already archived, or of an earlier candidate of
// this step), best reward first (ties: the order given), the first keepPerParent of them; then forced ones. Returns the
// ids admitted, in admission order, and trims the archive to capacity (seeds kept, then the best rewards; ties by
// admission order).
QStringList admit(Archive &archive, const QList<ChildCandidate> &candidates, int step, const AdmissionParams &params);

// Trims to capacity: seeds first, then best reward, ties by admission order; the survivors keep admission order.
void trimToCapacity(Archive &archive, int capacity);

} // namespace gpuf::search
