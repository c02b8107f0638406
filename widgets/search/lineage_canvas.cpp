// LineageCanvas: the view over the lineage — zoom, pan, selection and the input events that drive them. What is drawn
// is in lineage_canvas_painting.cpp, which node lies where in lineage_canvas_hit_testing.cpp.
#include "widgets/search/lineage_canvas.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace gpuf {

using search::LineagePoint;

namespace {

constexpr double kBaseRadius = 5.0; // node radius in pixels at zoom 1
constexpr double kMargin = 24.0; // pixels around the tree when fitted
constexpr double kZoomStep = 1.25;
constexpr int kDragThreshold = 4; // pixels a press must move before it pans instead of clicking

} // namespace

LineageCanvas::LineageCanvas(QWidget *parent)
    : QWidget(parent)
    , m_colors(LineageColors::fromPalette(palette()))
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    // Small enough that a low dock squeezes the tree rather than laying it over its legend.
    setMinimumSize(160, 48);
}

void LineageCanvas::setLineage(search::Lineage lineage)
{
    m_lineage = std::move(lineage);
    m_layout = search::layoutLineage(m_lineage);
    ++m_revision;
    if (!m_lineage.find(m_selected))
        m_selected.clear();
    if (m_autoFit)
        fitToView();
    update();
}

QSizeF LineageCanvas::sceneSize() const
{
    const double columns = std::max(0, m_layout.columnCount() - 1);
    return {columns * kColumnWidth, (m_layout.maxY - m_layout.minY) * kRowHeight};
}

QPointF LineageCanvas::toWidget(const LineagePoint &p) const
{
    return {m_offset.x() + p.x * kColumnWidth * m_zoom, m_offset.y() + p.y * kRowHeight * m_zoom};
}

QPointF LineageCanvas::toScene(const QPointF &pos) const
{
    return {(pos.x() - m_offset.x()) / (kColumnWidth * m_zoom), (pos.y() - m_offset.y()) / (kRowHeight * m_zoom)};
}

double LineageCanvas::nodeRadius() const { return std::clamp(kBaseRadius * m_zoom, 1.5, 14.0); }

void LineageCanvas::setZoomAndOffset(double zoom, const QPointF &offset)
{
    const double clamped = std::clamp(zoom, kMinZoom, kMaxZoom);
    const bool changed = clamped != m_zoom;
    m_zoom = clamped;
    m_offset = offset;
    m_autoFit = false; // the user's view from now on; fitToView() hands it back
    update();
    if (changed)
        Q_EMIT zoomChanged(m_zoom);
}

void LineageCanvas::zoomBy(double factor, const QPointF &anchor)
{
    const QPointF scene = toScene(anchor);
    const double zoom = std::clamp(m_zoom * factor, kMinZoom, kMaxZoom);
    // Keep the scene point under the anchor where it is.
    const QPointF offset(anchor.x() - scene.x() * kColumnWidth * zoom, anchor.y() - scene.y() * kRowHeight * zoom);
    setZoomAndOffset(zoom, offset);
}

void LineageCanvas::zoomIn() { zoomBy(kZoomStep, QPointF(width() / 2.0, height() / 2.0)); }

void LineageCanvas::zoomOut() { zoomBy(1.0 / kZoomStep, QPointF(width() / 2.0, height() / 2.0)); }

void LineageCanvas::fitToView()
{
    const QSizeF scene = sceneSize();
    const double w = std::max(1.0, width() - 2 * kMargin);
    const double h = std::max(1.0, height() - 2 * kMargin - kHeaderHeight);
    double zoom = kMaxZoom;
    if (scene.width() > 0)
        zoom = std::min(zoom, w / scene.width());
    if (scene.height() > 0)
        zoom = std::min(zoom, h / scene.height());
    zoom = std::clamp(std::min(zoom, 2.0), kMinZoom, kMaxZoom); // a tiny tree is not blown up past twice its size
    const double drawnW = scene.width() * zoom;
    const double drawnH = scene.height() * zoom;
    const QPointF offset(
        kMargin + (w - drawnW) / 2.0, kMargin + kHeaderHeight + (h - drawnH) / 2.0 - m_layout.minY * kRowHeight * zoom);
    setZoomAndOffset(zoom, offset);
    m_autoFit = true;
}

void LineageCanvas::centreOn(const QString &nodeId)
{
    const auto it = m_lineage.index.constFind(nodeId);
    if (it == m_lineage.index.cend())
        return;
    const QPointF at = toWidget(m_layout.points[*it]);
    setZoomAndOffset(m_zoom, m_offset + QPointF(width() / 2.0, height() / 2.0) - at);
}

void LineageCanvas::selectNode(const QString &nodeId)
{
    const QString id = m_lineage.find(nodeId) ? nodeId : QString();
    if (id == m_selected)
        return;
    m_selected = id;
    if (!id.isEmpty() && !rect().adjusted(8, 8, -8, -8).contains(nodePosition(id).toPoint()))
        centreOn(id);
    update();
}

void LineageCanvas::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_autoFit)
        fitToView();
}

void LineageCanvas::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0.0)
        return;
    zoomBy(std::pow(kZoomStep, steps), event->position());
    event->accept();
}

void LineageCanvas::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_pressPos = event->pos();
    m_pressOffset = m_offset;
    m_dragging = false;
}

void LineageCanvas::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton) {
        if (!m_dragging && (event->pos() - m_pressPos).manhattanLength() >= kDragThreshold) {
            m_dragging = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging)
            setZoomAndOffset(m_zoom, m_pressOffset + QPointF(event->pos() - m_pressPos));
        return;
    }
    setCursor(nodeAt(event->pos()).isEmpty() ? Qt::ArrowCursor : Qt::PointingHandCursor);
}

void LineageCanvas::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mouseReleaseEvent(event);
    if (m_dragging) {
        m_dragging = false;
        unsetCursor();
        return;
    }
    const QString id = nodeAt(event->pos());
    if (id.isEmpty())
        return;
    selectNode(id);
    Q_EMIT nodeActivated(id);
}

void LineageCanvas::contextMenuEvent(QContextMenuEvent *event)
{
    const QString id = nodeAt(event->pos());
    if (id.isEmpty())
        return;
    selectNode(id);
    Q_EMIT nodeContextMenuRequested(id, event->globalPos());
    event->accept();
}

void LineageCanvas::keyPressEvent(QKeyEvent *event)
{
    const double panStep = 40.0;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        fitToView();
        break;
    case Qt::Key_Left:
        setZoomAndOffset(m_zoom, m_offset + QPointF(panStep, 0));
        break;
    case Qt::Key_Right:
        setZoomAndOffset(m_zoom, m_offset - QPointF(panStep, 0));
        break;
    case Qt::Key_Up:
        setZoomAndOffset(m_zoom, m_offset + QPointF(0, panStep));
        break;
    case Qt::Key_Down:
        setZoomAndOffset(m_zoom, m_offset - QPointF(0, panStep));
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (!m_selected.isEmpty())
            Q_EMIT nodeActivated(m_selected);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void LineageCanvas::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_colors = LineageColors::fromPalette(palette());
        ++m_revision;
        m_edgeImage = {}; // in the old colours
        m_glyphs.clear();
        update();
    }
}

bool LineageCanvas::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipFor(nodeAt(help->pos()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace gpuf
