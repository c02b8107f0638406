// The lineage tree's nodes and layout; see lineage.h.
#include "core/search/lineage.h"

#include "core/bins/bins.h"

#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuf::search {

namespace {

constexpr double kGroupGap = 1.5; // rows between the last child of one parent and the first of the next
constexpr double kSiblingGap = 1.0;

bool hasForecast(const Candidate &c) { return c.forecastDone && !c.forecastFailed; }

} // namespace

QString lineageKindName(LineageKind kind)
{
    switch (kind) {
    case LineageKind::Seed:
        return QStringLiteral("seed");
    case LineageKind::Measured:
        return QStringLiteral("measured");
    case LineageKind::ForecastOnly:
        return QStringLiteral("forecast-only");
    case LineageKind::Deferred:
        return QStringLiteral("deferred");
    case LineageKind::Failed:
        return QStringLiteral("failed");
    case LineageKind::Injected:
        return QStringLiteral("injected");
    case LineageKind::Pending:
        return QStringLiteral("pending");
    }
    return {};
}

LineageKind lineageKind(const Candidate &c)
{
    if (c.seedNode)
        return LineageKind::Seed;
    if (c.injected)
        return LineageKind::Injected;
    switch (c.status) {
    case CandidateStatus::MutationFailed:
    case CandidateStatus::EvaluationFailed:
        return LineageKind::Failed;
    case CandidateStatus::Evaluated:
        return c.feedback.kind == EvaluationFeedback::Kind::Success ? LineageKind::Measured : LineageKind::Failed;
    case CandidateStatus::Deferred:
        return hasForecast(c) ? LineageKind::ForecastOnly : LineageKind::Deferred;
    case CandidateStatus::Queued:
        return LineageKind::Deferred;
    case CandidateStatus::Requested:
    case CandidateStatus::Proposed:
    case CandidateStatus::Selected:
        break;
    }
    return LineageKind::Pending;
}

QString kernelLabel(const Candidate &c)
{
    const QJsonObject tunables = c.parameters.value(QStringLiteral("tunables")).toObject();
    if (!tunables.isEmpty()) {
        QStringList parts;
        for (auto it = tunables.constBegin(); it != tunables.constEnd(); ++it)
            parts.append(QStringLiteral("%1=%2").arg(it.key(), it.value().toVariant().toString()));
        return parts.join(QLatin1Char(' '));
    }
    if (c.kernelId > 0)
        return c.origin.isEmpty() ? QStringLiteral("#%1").arg(c.kernelId)
                                  : QStringLiteral("%1 #%2").arg(c.origin).arg(c.kernelId);
    return c.origin;
}

QStringList bestPathOf(const SearchState &state)
{
    QStringList path;
    QSet<QString> seen; // a corrupt log with a parent cycle must not loop
    QString id = state.bestNode;
    while (!id.isEmpty() && !seen.contains(id)) {
        const Candidate *c = state.candidate(id);
        if (!c)
            break;
        seen.insert(id);
        path.prepend(id);
        id = c->parentId;
    }
    return path;
}

Lineage buildLineage(const SearchState &state)
{
    Lineage lineage;
    lineage.nodes.reserve(qsizetype(state.candidates.size()));
    const QSet<QString> pinned(state.pinned.cbegin(), state.pinned.cend());
    const QSet<QString> vetoed(state.vetoed.cbegin(), state.vetoed.cend());
    for (size_t i = 0; i < state.candidates.size(); ++i) {
        const Candidate &c = state.candidates[i];
        LineageNode node;
        node.id = c.nodeId;
        node.parentId = c.parentId;
        node.step = c.seedNode ? -1 : c.step;
        node.candidate = int(i);
        node.kind = lineageKind(c);
        node.speedup = c.reward;
        if (c.reward)
            node.bin = bins::binOf(*c.reward);
        if (hasForecast(c)) {
            if (c.predictedBin >= 1 && c.predictedBin <= bins::kBinCount)
                node.predictedBin = c.predictedBin;
            node.expectedBin = c.expectedBin;
            node.confidence = c.confidence;
            if (!node.bin && c.predictedBin >= 1 && c.predictedBin <= bins::kBinCount) {
                node.bin = c.predictedBin;
                node.binFromForecast = true;
            }
        }
        node.kernel = kernelLabel(c);
        node.status = candidateStatusName(c.status);
        node.inArchive = state.archive.index.contains(c.nodeId);
        node.pinned = pinned.contains(c.nodeId);
        node.vetoed = vetoed.contains(c.nodeId);
        lineage.maxStep = std::max(lineage.maxStep, node.step);
        lineage.index.insert(node.id, int(lineage.nodes.size()));
        lineage.nodes.append(node);
    }
    for (LineageNode &node : lineage.nodes) {
        if (!node.parentId.isEmpty())
            node.parent = lineage.index.value(node.parentId, -1);
    }
    lineage.bestPath = bestPathOf(state);
    for (const QString &id : std::as_const(lineage.bestPath))
        lineage.nodes[lineage.index.value(id)].onBestPath = true;
    if (!lineage.bestPath.isEmpty())
        lineage.nodes[lineage.index.value(lineage.bestPath.last())].best = true;
    return lineage;
}

Lineage scopedLineage(const Lineage &lineage, LineageScope scope)
{
    if (scope == LineageScope::All)
        return lineage;
    QList<bool> keep(lineage.nodes.size(), false);
    for (qsizetype i = 0; i < lineage.nodes.size(); ++i) {
        const LineageNode &n = lineage.nodes[i];
        const bool wanted = n.kind == LineageKind::Seed || n.kind == LineageKind::Measured
            || n.kind == LineageKind::Injected || n.onBestPath || n.pinned || n.vetoed;
        // Keep it and the ancestors that connect it (stopping at one already kept).
        for (int j = int(i); wanted && j >= 0 && !keep[j]; j = lineage.nodes[j].parent)
            keep[j] = true;
    }
    Lineage out;
    QList<int> newIndex(lineage.nodes.size(), -1);
    for (qsizetype i = 0; i < lineage.nodes.size(); ++i) {
        if (!keep[i])
            continue;
        newIndex[i] = int(out.nodes.size());
        out.index.insert(lineage.nodes[i].id, int(out.nodes.size()));
        out.nodes.append(lineage.nodes[i]);
        out.maxStep = std::max(out.maxStep, lineage.nodes[i].step);
    }
    for (LineageNode &n : out.nodes)
        n.parent = n.parent >= 0 ? newIndex[n.parent] : -1;
    out.bestPath = lineage.bestPath;
    return out;
}

namespace {

struct Group
{
    int parent = -1;
    double desired = 0.0; // the parent's row (the groups' centre)
    QList<int> members;
    double start = 0.0; // row of the first member once placed
};

double median(QList<double> values)
{
    if (values.isEmpty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const qsizetype mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

// Places one column's groups top-down, each centred on its parent unless that would overlap the group above; then
// shifts the whole column by the median displacement, so a crowded column spreads around its parents rather than
// only below them.
void placeColumn(QList<Group> &groups)
{
    double next = -std::numeric_limits<double>::infinity();
    QList<double> displacement, rootDisplacement;
    for (Group &g : groups) {
        const double height = double(g.members.size() - 1) * kSiblingGap;
        g.start = std::max(g.desired - height / 2.0, next);
        next = g.start + height + kGroupGap;
        (g.parent >= 0 ? displacement : rootDisplacement).append(g.desired - height / 2.0 - g.start);
    }
    // Roots have no parent to stay near: they follow the column unless the column holds nothing else.
    const double shift = median(displacement.isEmpty() ? rootDisplacement : displacement);
    for (Group &g : groups)
        g.start += shift;
}

} // namespace

LineageLayout layoutLineage(const Lineage &lineage)
{
    LineageLayout layout;
    const int n = int(lineage.nodes.size());
    layout.points.resize(n);
    if (n == 0)
        return layout;
    const int columns = lineage.maxStep + 2;
    QList<QList<int>> byColumn(columns);
    for (int i = 0; i < n; ++i)
        byColumn[std::clamp(lineage.nodes[i].step + 1, 0, columns - 1)].append(i);
    QList<bool> placed(n, false);
    for (int column = 0; column < columns; ++column) {
        QList<Group> groups;
        QHash<int, int> groupOf; // parent index (−1: none) → group
        for (int i : std::as_const(byColumn[column])) {
            int parent = lineage.nodes[i].parent;
            if (parent >= 0 && !placed[parent])
                parent = -1; // a parent in the same or a later column (a foreign log): laid out as a root
            auto it = groupOf.constFind(parent);
            if (it == groupOf.cend()) {
                it = groupOf.insert(parent, int(groups.size()));
                groups.append(Group {parent, parent >= 0 ? layout.points[parent].y : 0.0, {}, 0.0});
            }
            groups[*it].members.append(i);
        }
        // By the parent's row (ties: the parent's index); parentless groups (seeds, injected roots) last.
        std::stable_sort(groups.begin(), groups.end(), [](const Group &a, const Group &b) {
            if ((a.parent < 0) != (b.parent < 0))
                return b.parent < 0;
            if (a.desired != b.desired)
                return a.desired < b.desired;
            return a.parent < b.parent;
        });
        placeColumn(groups);
        QList<int> sorted;
        for (const Group &g : std::as_const(groups)) {
            for (qsizetype k = 0; k < g.members.size(); ++k) {
                const int i = g.members[k];
                layout.points[i] = {double(column), g.start + double(k) * kSiblingGap};
                placed[i] = true;
                sorted.append(i);
            }
        }
        layout.columns.append(sorted);
    }
    layout.minY = layout.maxY = layout.points.first().y;
    for (const LineagePoint &p : std::as_const(layout.points)) {
        layout.minY = std::min(layout.minY, p.y);
        layout.maxY = std::max(layout.maxY, p.y);
    }
    return layout;
}

} // namespace gpuf::search
