// LineageCanvas: draws a search's lineage (core/search/lineage.h) with zoom and pan. Custom painting over the layered
// layout: only the columns and rows inside the viewport are visited (a binary search per column), edges are culled
// by their bounding box, and nodes lose their outlines when they are a few pixels wide, so 2 000 nodes repaint within
// a frame (tests/bench/search_views_bench). Fed values; no store access.
#pragma once

#include "core/search/lineage.h"
#include "core/session/latest_job.h"
#include "widgets/search/lineage_painter.h"

#include <QHash>
#include <QImage>
#include <QPixmap>
#include <QWidget>

namespace gpuf {

class LineageCanvas : public QWidget
{
    Q_OBJECT

public:
    static constexpr double kColumnWidth = 56.0; // scene pixels per step at zoom 1
    static constexpr double kRowHeight = 16.0; // scene pixels per layout row at zoom 1
    static constexpr double kMinZoom = 0.02;
    static constexpr double kMaxZoom = 8.0;

    explicit LineageCanvas(QWidget *parent = nullptr);

    // Replaces what is drawn, keeping zoom and pan once the user chose them (until then the tree is fitted to the
    // view).
    void setLineage(search::Lineage lineage);
    const search::Lineage &lineage() const { return m_lineage; }
    const search::LineageLayout &layout() const { return m_layout; }

    // The node outlined as selected ("" for none); the view scrolls to it when it is outside the viewport.
    void selectNode(const QString &nodeId);
    QString selectedNode() const { return m_selected; }

    double zoom() const { return m_zoom; }
    // Zooms by `factor` keeping the scene point under `anchor` (widget coordinates) where it is.
    void zoomBy(double factor, const QPointF &anchor);
    void zoomIn();
    void zoomOut();
    void fitToView(); // and keep fitting as the tree grows, until the user zooms or pans
    void centreOn(const QString &nodeId);

    // Where a node is drawn (widget coordinates); a null point when it is not a node.
    QPointF nodePosition(const QString &nodeId) const;
    // The node under `pos` (within its radius and a few pixels), "" when none.
    QString nodeAt(const QPoint &pos) const;
    // What hovering the node shows.
    QString toolTipFor(const QString &nodeId) const;
    // Node radius in pixels at the current zoom.
    double nodeRadius() const;
    // Nodes and edges the last paint drew (the culling's effect, for tests and the benchmark).
    int paintedNodes() const { return m_paintedNodes; }
    int paintedEdges() const { return m_paintedEdges; }

    QSize sizeHint() const override { return {640, 420}; }

Q_SIGNALS:
    void nodeActivated(const QString &nodeId);
    void nodeContextMenuRequested(const QString &nodeId, const QPoint &globalPos);
    void zoomChanged(double zoom);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    static constexpr double kHeaderHeight = 18.0; // the band of step numbers along the top, in pixels

    // Geometry (lineage_canvas.cpp).
    QPointF toWidget(const search::LineagePoint &p) const;
    QPointF toScene(const QPointF &widgetPos) const; // in layout units
    QSizeF sceneSize() const; // in scene pixels at zoom 1
    void setZoomAndOffset(double zoom, const QPointF &offset);
    // Painting (lineage_canvas_painting.cpp).
    void paintColumnHeaders(QPainter &painter, int firstColumn, int lastColumn);
    void paintEdges(QPainter &painter, const QRectF &visible);
    void paintNodes(QPainter &painter, const QRectF &visible, double r);
    void paintSketch(QPainter &painter, const QList<int> &nodes, double r);
    const QPixmap &glyphFor(search::LineageKind kind, int bin, double r);
    // Many edges are rasterised off the GUI thread (tens of milliseconds for a fitted tree of thousands of nodes):
    // the view shows the latest image, moved and scaled to the current view, until the next one arrives.
    struct EdgeImage
    {
        QImage image;
        double zoom = 0.0;
        QPointF offset;
    };
    void drawEdgeImage(QPainter &painter) const;
    void requestEdgeImage(QList<QLineF> lines);
    // Hit testing (lineage_canvas_hit_testing.cpp).
    QList<int> visibleNodes(const QRectF &visible) const;

    search::Lineage m_lineage;
    search::LineageLayout m_layout;
    LineageColors m_colors;
    QString m_selected;
    double m_zoom = 1.0;
    QPointF m_offset; // widget position of the scene origin
    // Fitted to the view on every resize and every new lineage until the user zooms or pans (and again after a fit).
    bool m_autoFit = true;
    QPoint m_pressPos;
    QPointF m_pressOffset;
    bool m_dragging = false;
    QHash<int, QPixmap> m_glyphs; // (kind, bin) → the node drawn at m_glyphRadius
    double m_glyphRadius = 0.0;
    double m_glyphRatio = 0.0;
    int m_paintedNodes = 0;
    int m_paintedEdges = 0;
    quint64 m_revision = 0; // counts what changes the edges' image: a lineage, the colours
    QString m_requestedEdges; // the view (revision, zoom, offset, size) of the image asked for last
    EdgeImage m_edgeImage;
    LatestJob<EdgeImage> m_edgeJob {this};
};

} // namespace gpuf
