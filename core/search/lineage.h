// The lineage of a search as the tree view draws it: one node per candidate (seeds, proposals, injected kernels) with
// what became of it, the best path from a seed to the best node, and a layered layout — x is the step, children sit
// next to their parent — computed from values alone so it can be tested without a screen.
#pragma once

#include "core/search/search_state.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpuf::search {

// What a node is, as far as the tree shows it: each kind has its own shape or fill, so the kinds read without colour.
enum class LineageKind {
    Seed, // a seed of the archive
    Measured, // measured, correct: it has a speedup
    ForecastOnly, // not measured; what is known of it is its forecast (ranked below the GPU budget)
    Deferred, // not measured and not ranked on a forecast: queued for a free GPU slot, a duplicate, vetoed
    Failed, // the mutation failed, the kernel failed to compile or run or was wrong, or nothing could be measured
    Injected, // added by the user (measured or not)
    Pending, // still in flight: proposal, forecast or measurement not answered yet
};
QString lineageKindName(LineageKind kind); // "seed", "measured", "forecast-only", … (stable, for tests and tools)

struct LineageNode
{
    QString id;
    QString parentId; // "" for seeds and parentless injected kernels
    int parent = -1; // index of the parent in the node list; -1 when none (or not a node of this search)
    int step = -1; // the step that proposed it (-1: a seed)
    int candidate = -1; // position in SearchState::candidates
    LineageKind kind = LineageKind::Pending;
    std::optional<double> speedup; // measured
    std::optional<int> bin; // measured bin, else the forecast's predicted bin (the colour)
    bool binFromForecast = false; // bin is the forecast's, not a measurement's
    std::optional<int> predictedBin; // the forecast's predicted bin
    std::optional<double> expectedBin; // the forecast's Σ b·p_b
    std::optional<double> confidence; // the forecast's p of its predicted bin
    QString kernel; // a short name of the kernel: the family's tunables, the origin, or the kernel id
    QString status; // candidateStatusName() of the candidate
    bool inArchive = false;
    bool pinned = false;
    bool vetoed = false;
    bool onBestPath = false;
    bool best = false;
};

struct Lineage
{
    QList<LineageNode> nodes; // in candidate order (seeds first, then proposals in request order)
    QHash<QString, int> index; // node id → position in nodes
    QStringList bestPath; // seed → … → best node; empty while nothing has a speedup
    int maxStep = -1;

    const LineageNode *find(const QString &id) const
    {
        const auto it = index.constFind(id);
        return it == index.cend() ? nullptr : &nodes[*it];
    }
};

// The kind of one candidate of `state` (a pure classification of its status, feedback and forecast).
LineageKind lineageKind(const Candidate &candidate);
// A short name for the kernel of a candidate: "TW=32 TH=8 …" for a family's configuration, else its origin with its
// stored kernel id ("llm:gpt #412"), else its origin alone.
QString kernelLabel(const Candidate &candidate);
// The node ids from a seed down to the best node (the state's bestNode), following parent ids; empty without a best.
QStringList bestPathOf(const SearchState &state);

// Every candidate of the state as a node, with the best path marked.
Lineage buildLineage(const SearchState &state);

// What the tree shows: every candidate, or only what was measured (seeds, measured and injected nodes, and anything
// on the best path, pinned or vetoed), with the ancestors that connect them. A long search proposes many more
// candidates than it measures; the measured lineage is what its archive grew from.
enum class LineageScope { All, Measured };
Lineage scopedLineage(const Lineage &lineage, LineageScope scope);

// Where each node sits, in layout units: x = step + 1 (seeds at 0), y = row (one unit between neighbours). Within a
// step, children are grouped by parent, the groups ordered by their parent's row and centred on it as far as the
// groups already placed let them; within a group, request order. So a child is always drawn right of and next to its
// parent, and the tree reads left to right, step by step.
struct LineagePoint
{
    double x = 0.0;
    double y = 0.0;
};
struct LineageLayout
{
    QList<LineagePoint> points; // one per node, same order as Lineage::nodes
    QList<QList<int>> columns; // per column (x), the nodes in it sorted by y: what a view culls against
    double minY = 0.0;
    double maxY = 0.0;
    int columnCount() const { return int(columns.size()); }
};
LineageLayout layoutLineage(const Lineage &lineage);

} // namespace gpuf::search
