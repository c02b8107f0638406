// LineageCanvas's hit testing: where a node is drawn, which nodes lie in a part of the scene (a binary search per
// column), the node under a point, and what hovering a node shows.
#include "widgets/search/lineage_canvas.h"

#include "core/bins/bins.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace gpuf {

using search::LineageKind;
using search::LineageNode;

QPointF LineageCanvas::nodePosition(const QString &nodeId) const
{
    const auto it = m_lineage.index.constFind(nodeId);
    return it == m_lineage.index.cend() ? QPointF() : toWidget(m_layout.points[*it]);
}

QList<int> LineageCanvas::visibleNodes(const QRectF &visible) const
{
    QList<int> out;
    const int first = std::max(0, int(std::floor(visible.left())));
    const int last = std::min(m_layout.columnCount() - 1, int(std::ceil(visible.right())));
    for (int c = first; c <= last; ++c) {
        const QList<int> &column = m_layout.columns[c];
        // Columns are sorted by y: the visible run starts at the first node at or below the top edge.
        auto it = std::lower_bound(column.cbegin(), column.cend(), visible.top(),
            [this](int node, double y) { return m_layout.points[node].y < y; });
        for (; it != column.cend() && m_layout.points[*it].y <= visible.bottom(); ++it)
            out.append(*it);
    }
    return out;
}

QString LineageCanvas::nodeAt(const QPoint &pos) const
{
    const double r = nodeRadius() + 3.0;
    const QPointF a = toScene(QPointF(pos) - QPointF(r, r));
    const QPointF b = toScene(QPointF(pos) + QPointF(r, r));
    QString best;
    double bestDistance = r * r;
    for (int i : visibleNodes(QRectF(a, b))) {
        const QPointF d = toWidget(m_layout.points[i]) - QPointF(pos);
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = m_lineage.nodes[i].id;
        }
    }
    return best;
}

QString LineageCanvas::toolTipFor(const QString &nodeId) const
{
    const LineageNode *n = m_lineage.find(nodeId);
    if (!n)
        return {};
    QStringList lines;
    lines << n->id;
    if (!n->kernel.isEmpty())
        lines << tr("Kernel: %1").arg(n->kernel);
    const QString step = n->step < 0 ? tr("seed") : tr("step %1").arg(n->step);
    QString what;
    switch (n->kind) {
    case LineageKind::Seed:
        what = tr("seed");
        break;
    case LineageKind::Measured:
        what = tr("measured");
        break;
    case LineageKind::ForecastOnly:
        what = tr("forecast only (not measured)");
        break;
    case LineageKind::Deferred:
        what = tr("deferred (not measured)");
        break;
    case LineageKind::Failed:
        what = tr("failed");
        break;
    case LineageKind::Injected:
        what = tr("injected by the user");
        break;
    case LineageKind::Pending:
        what = tr("in progress");
        break;
    }
    lines << tr("%1 · %2").arg(step, what);
    if (n->speedup)
        lines << tr("Speedup: %1 (bin %2)").arg(bins::speedupText(*n->speedup)).arg(n->bin.value_or(0));
    if (n->expectedBin) {
        const QString confidence = QLocale().toString(n->confidence.value_or(0.0) * 100.0, 'f', 0);
        const QString expected = QLocale().toString(*n->expectedBin, 'f', 2);
        lines << (n->predictedBin
                ? tr("Forecast: bin %1 at %2% (expected bin %3)").arg(*n->predictedBin).arg(confidence, expected)
                : tr("Forecast: expected bin %1, confidence %2%").arg(expected, confidence));
    }
    QStringList marks;
    if (n->best)
        marks << tr("best so far");
    else if (n->onBestPath)
        marks << tr("on the best path");
    if (n->inArchive)
        marks << tr("in the archive");
    if (n->pinned)
        marks << tr("pinned");
    if (n->vetoed)
        marks << tr("vetoed");
    if (!marks.isEmpty())
        lines << marks.join(QStringLiteral(" · "));
    return lines.join(QLatin1Char('\n'));
}

} // namespace gpuf
