// LineageCanvas's painting: edges (culled by their bounding box, many of them rasterised off the GUI thread), nodes
// from cached glyphs or as a sketch when they are a few pixels wide, their marks and labels, and the step numbers.
#include "widgets/search/lineage_canvas.h"

#include "core/bins/bins.h"
#include "widgets/search/bin_colors.h"

#include <QPainter>
#include <QPixmap>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace gpuf {

using search::LineageKind;
using search::LineageNode;
using search::LineagePoint;

namespace {

constexpr double kDetailRadius = 2.5; // below this, nodes are drawn without outlines and marks shrink
constexpr double kLabelRadius = 8.0; // from this, measured nodes carry their speedup as text
constexpr qsizetype kBackgroundEdges = 3000; // from this many edges on screen, they are drawn off the GUI thread
constexpr qsizetype kSmoothEdges = 600; // up to this many edges on screen are drawn antialiased

} // namespace

void LineageCanvas::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), m_colors.background);
    m_paintedNodes = m_paintedEdges = 0;
    if (m_lineage.nodes.isEmpty()) {
        painter.setPen(m_colors.muted);
        painter.drawText(rect(), Qt::AlignCenter, tr("No nodes yet"));
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    const double r = nodeRadius();
    // The viewport in layout units, widened by a node's reach so nodes cut by the edge are drawn.
    const double pad = r * 2.5 + 12.0;
    const QRectF visible(toScene(QPointF(-pad, -pad)), toScene(QPointF(width() + pad, height() + pad)));
    paintEdges(painter, visible);
    paintNodes(painter, visible, r);
    paintColumnHeaders(painter, std::max(0, int(std::floor(visible.left()))),
        std::min(m_layout.columnCount() - 1, int(std::ceil(visible.right()))));
}

void LineageCanvas::paintEdges(QPainter &painter, const QRectF &visible)
{
    QList<QLineF> normal;
    QList<QLineF> best;
    normal.reserve(m_lineage.nodes.size());
    for (int i = 0; i < m_lineage.nodes.size(); ++i) {
        const LineageNode &n = m_lineage.nodes[i];
        if (n.parent < 0)
            continue;
        const LineagePoint &a = m_layout.points[n.parent];
        const LineagePoint &b = m_layout.points[i];
        // Bounding-box culling: an edge from an old parent crosses many columns, so columns alone would miss it.
        if (std::max(a.x, b.x) < visible.left() || std::min(a.x, b.x) > visible.right()
            || std::max(a.y, b.y) < visible.top() || std::min(a.y, b.y) > visible.bottom())
            continue;
        const QLineF line(toWidget(a), toWidget(b));
        (n.onBestPath && m_lineage.nodes[n.parent].onBestPath ? best : normal).append(line);
    }
    m_paintedEdges = int(normal.size() + best.size());
    // Antialiasing is most of the edges' cost: only a zoomed-in view with few edges gets it (a fitted tree of two
    // thousand nodes on a 4K screen paints in half the time without).
    if (normal.size() >= kBackgroundEdges) {
        drawEdgeImage(painter);
        requestEdgeImage(std::move(normal));
    } else {
        painter.setRenderHint(QPainter::Antialiasing, nodeRadius() >= kDetailRadius && normal.size() <= kSmoothEdges);
        painter.setPen(QPen(m_colors.edge, 1.0));
        painter.drawLines(normal);
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(m_colors.highlight, std::max(2.5, nodeRadius() * 0.6), Qt::SolidLine, Qt::RoundCap));
    painter.drawLines(best);
}

void LineageCanvas::drawEdgeImage(QPainter &painter) const
{
    if (m_edgeImage.image.isNull() || m_edgeImage.zoom <= 0.0)
        return;
    // A point drawn at w0 = o0 + p·z0 now lies at o1 + p·z1 = (o1 − o0·s) + w0·s, with s = z1 / z0.
    const double scale = m_zoom / m_edgeImage.zoom;
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.translate(m_offset - m_edgeImage.offset * scale);
    painter.scale(scale, scale);
    painter.drawImage(QPointF(0, 0), m_edgeImage.image);
    painter.restore();
}

void LineageCanvas::requestEdgeImage(QList<QLineF> lines)
{
    const qreal ratio = devicePixelRatioF();
    const QSize size = this->size();
    const QString view = QStringLiteral("%1 %2 %3,%4 %5x%6@%7")
                             .arg(m_revision)
                             .arg(m_zoom, 0, 'g', 12)
                             .arg(m_offset.x(), 0, 'g', 12)
                             .arg(m_offset.y(), 0, 'g', 12)
                             .arg(size.width())
                             .arg(size.height())
                             .arg(ratio);
    if (view == m_requestedEdges)
        return; // that image is on its way, or shown
    m_requestedEdges = view;
    m_edgeJob.start(
        [lines = std::move(lines), size, ratio, color = m_colors.edge, zoom = m_zoom, offset = m_offset](
            const CancelToken &cancel) -> Result<EdgeImage> {
            if (cancel.isCancelled())
                return Error::cancelled();
            QImage image(size * ratio, QImage::Format_ARGB32_Premultiplied);
            image.setDevicePixelRatio(ratio);
            image.fill(Qt::transparent);
            QPainter painter(&image);
            painter.setPen(QPen(color, 1.0));
            painter.drawLines(lines);
            painter.end();
            return EdgeImage {std::move(image), zoom, offset};
        },
        [this](Result<EdgeImage> edges) {
            if (!edges)
                return;
            m_edgeImage = std::move(*edges);
            update();
        });
}

void LineageCanvas::paintNodes(QPainter &painter, const QRectF &visible, double r)
{
    const bool detailed = r >= kDetailRadius;
    const QList<int> nodes = visibleNodes(visible);
    m_paintedNodes = int(nodes.size());
    QList<int> marked; // drawn last, over every node
    for (int i : nodes) {
        const LineageNode &n = m_lineage.nodes[i];
        if (n.onBestPath || n.pinned || n.vetoed || n.id == m_selected)
            marked.append(i);
        if (detailed) {
            const QPixmap &glyph = glyphFor(n.kind, n.bin.value_or(0), r);
            const QPointF c = toWidget(m_layout.points[i]);
            const double half = glyph.width() / glyph.devicePixelRatio() / 2.0;
            painter.drawPixmap(QPointF(c.x() - half, c.y() - half), glyph);
        }
    }
    if (!detailed)
        paintSketch(painter, nodes, r);
    const double markRadius = std::max(r, 3.0);
    for (int i : std::as_const(marked)) {
        const LineageNode &n = m_lineage.nodes[i];
        const QPointF c = toWidget(m_layout.points[i]);
        if (n.best)
            drawBestMark(painter, c, markRadius, m_colors);
        if (n.vetoed)
            drawVetoMark(painter, c, markRadius, m_colors);
        if (n.pinned)
            drawPinMark(painter, c, markRadius, m_colors);
        if (n.id == m_selected)
            drawSelectionMark(painter, c, markRadius, m_colors);
    }
    if (r < kLabelRadius)
        return;
    painter.setPen(m_colors.foreground);
    for (int i : nodes) {
        const LineageNode &n = m_lineage.nodes[i];
        if (!n.speedup)
            continue;
        const QPointF c = toWidget(m_layout.points[i]);
        painter.drawText(
            QPointF(c.x() + r + 3.0, c.y() + r + fontMetrics().ascent() / 2.0), bins::speedupText(*n.speedup));
    }
}

const QPixmap &LineageCanvas::glyphFor(LineageKind kind, int bin, double r)
{
    // Nodes are drawn from pixmaps made once per (kind, bin) at the current radius and colours: a zoom or palette
    // change empties the cache, a repaint of two thousand nodes only copies pixels.
    const double dpr = devicePixelRatioF();
    if (r != m_glyphRadius || dpr != m_glyphRatio) {
        m_glyphs.clear();
        m_glyphRadius = r;
        m_glyphRatio = dpr;
    }
    const int key = int(kind) * (bins::kBinCount + 1) + std::clamp(bin, 0, bins::kBinCount);
    auto it = m_glyphs.find(key);
    if (it == m_glyphs.end()) {
        const int side = int(std::ceil(2.0 * (r * 1.25 + 2.0)));
        QPixmap glyph(QSize(side, side) * dpr);
        glyph.setDevicePixelRatio(dpr);
        glyph.fill(Qt::transparent);
        QPainter p(&glyph);
        p.setRenderHint(QPainter::Antialiasing, true);
        drawLineageNode(p, QPointF(side / 2.0, side / 2.0), r, kind, bin, m_colors);
        p.end();
        it = m_glyphs.insert(key, glyph);
    }
    return *it;
}

void LineageCanvas::paintSketch(QPainter &painter, const QList<int> &nodes, double r)
{
    // A few pixels per node: the shapes cannot be told apart at this size, but filled (measured), hollow (not
    // measured) and crossed (failed) still can. Batched by colour, without antialiasing: one call per colour.
    std::array<QList<QRectF>, bins::kBinCount + 1> filled, hollow;
    QList<QLineF> crosses;
    for (int i : nodes) {
        const LineageNode &n = m_lineage.nodes[i];
        const QPointF c = toWidget(m_layout.points[i]);
        const QRectF box(c.x() - r, c.y() - r, 2 * r, 2 * r);
        const size_t bin = size_t(std::clamp(n.bin.value_or(0), 0, bins::kBinCount));
        switch (n.kind) {
        case LineageKind::Seed:
        case LineageKind::Measured:
        case LineageKind::Injected:
            (n.speedup || n.kind == LineageKind::Seed ? filled : hollow)[bin].append(box);
            break;
        case LineageKind::ForecastOnly:
            hollow[bin].append(box);
            break;
        case LineageKind::Deferred:
        case LineageKind::Pending:
            hollow[0].append(box);
            break;
        case LineageKind::Failed:
            crosses.append(QLineF(box.topLeft(), box.bottomRight()));
            crosses.append(QLineF(box.bottomLeft(), box.topRight()));
            break;
        }
    }
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (size_t b = 0; b < filled.size(); ++b) {
        const QColor color = b == 0 ? m_colors.muted : binColor(int(b), m_colors.dark);
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawRects(filled[b]);
        painter.setPen(QPen(color, 1.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRects(hollow[b]);
    }
    painter.setPen(QPen(m_colors.muted, 1.0));
    painter.drawLines(crosses);
    painter.restore();
}

void LineageCanvas::paintColumnHeaders(QPainter &painter, int firstColumn, int lastColumn)
{
    painter.setRenderHint(QPainter::Antialiasing, false);
    QColor band = m_colors.background;
    band.setAlpha(225);
    painter.fillRect(QRectF(0, 0, width(), kHeaderHeight), band);
    painter.setPen(m_colors.muted);
    const QFontMetrics metrics = fontMetrics();
    // Label every k-th step so the numbers never run into each other.
    const double columnPixels = kColumnWidth * m_zoom;
    const int labelWidth = metrics.horizontalAdvance(QStringLiteral("seed 000")) + 6;
    const int every = std::max(1, int(std::ceil(labelWidth / std::max(1.0, columnPixels))));
    double lastRight = -std::numeric_limits<double>::infinity();
    for (int c = firstColumn; c <= lastColumn; ++c) {
        const int step = c - 1;
        if (step >= 0 && step % every != 0)
            continue;
        const double x = m_offset.x() + c * columnPixels;
        const QString text = step < 0 ? tr("seed") : QString::number(step);
        const double w = metrics.horizontalAdvance(text) + 8;
        if (x - w / 2 < lastRight)
            continue; // the seed's label and step 0's when the columns are narrow
        painter.drawText(QRectF(x - w / 2, 0, w, kHeaderHeight), Qt::AlignCenter, text);
        lastRight = x + w / 2;
    }
    painter.drawLine(QPointF(0, kHeaderHeight), QPointF(width(), kHeaderHeight));
}

} // namespace gpuf
