// How the lineage tree draws a node: one shape per kind (disc, ring, triangle, cross, diamond, square), filled or
// outlined with its bin's colour, and the marks for pinned, vetoed, best-path and selected nodes. Shared by the tree
// and its legend so the legend shows exactly what the tree draws.
#pragma once

#include "core/search/lineage.h"

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QPointF>

class QPainter;

namespace gpuf {

struct LineageColors
{
    bool dark = false;
    QColor background;
    QColor foreground;
    QColor muted; // edges, deferred and failed nodes
    QColor edge;
    QColor highlight; // the best path and the selection
    QColor veto;

    static LineageColors fromPalette(const QPalette &palette);
};

// Draws node `kind` centred at `centre` with radius `r` (pixels); `bin` picks the colour (0: none). `detailed` adds the
// outlines, which are dropped when nodes are a few pixels wide.
void drawLineageNode(QPainter &painter, const QPointF &centre, double r, search::LineageKind kind, int bin,
    const LineageColors &colors, bool detailed = true);
void drawPinMark(QPainter &painter, const QPointF &centre, double r, const LineageColors &colors);
void drawVetoMark(QPainter &painter, const QPointF &centre, double r, const LineageColors &colors);
// The pin mark as the tree draws it, on a small node of `colors`, as an icon for a table's row (`side` pixels).
QIcon pinMarkIcon(const LineageColors &colors, int side = 16);
void drawBestMark(QPainter &painter, const QPointF &centre, double r, const LineageColors &colors);
void drawSelectionMark(QPainter &painter, const QPointF &centre, double r, const LineageColors &colors);

} // namespace gpuf
