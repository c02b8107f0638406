// Node shapes of the lineage tree; see lineage_painter.h.
#include "widgets/search/lineage_painter.h"

#include "widgets/search/bin_colors.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QPolygonF>

#include <cmath>

namespace gpuf {

using search::LineageKind;

namespace {

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
        float(a.blueF() * (1 - t) + b.blueF() * t));
}

QPolygonF diamond(const QPointF &c, double r)
{
    return QPolygonF {{c.x(), c.y() - r}, {c.x() + r, c.y()}, {c.x(), c.y() + r}, {c.x() - r, c.y()}};
}

QPolygonF triangleDown(const QPointF &c, double r)
{
    return QPolygonF {{c.x() - r, c.y() - r * 0.75}, {c.x() + r, c.y() - r * 0.75}, {c.x(), c.y() + r}};
}

} // namespace

LineageColors LineageColors::fromPalette(const QPalette &palette)
{
    LineageColors c;
    c.dark = isDarkPalette(palette);
    c.background = palette.color(QPalette::Base);
    c.foreground = palette.color(QPalette::Text);
    c.muted = mix(c.background, c.foreground, 0.55);
    c.edge = mix(c.background, c.foreground, 0.30);
    c.highlight = QColor::fromHslF(38.0f / 360.0f, 0.95f, c.dark ? 0.60f : 0.47f); // amber: apart from red and blue
    c.veto = c.foreground;
    return c;
}

void drawLineageNode(
    QPainter &p, const QPointF &c, double r, LineageKind kind, int bin, const LineageColors &colors, bool detailed)
{
    const QColor fill = binColor(bin, colors.dark);
    const QColor outline = detailed ? mix(fill, colors.foreground, 0.55) : fill;
    const QPen outlinePen(outline, detailed ? std::max(1.0, r / 5.0) : 1.0);
    switch (kind) {
    case LineageKind::Seed:
        p.setPen(QPen(colors.foreground, std::max(1.0, r / 4.0)));
        p.setBrush(bin ? fill : colors.muted);
        p.drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r));
        break;
    case LineageKind::Measured:
        p.setPen(detailed ? outlinePen : Qt::NoPen);
        p.setBrush(fill);
        p.drawEllipse(c, r, r);
        break;
    case LineageKind::ForecastOnly: {
        // A ring: only the forecast's colour, nothing measured inside.
        const double w = std::max(1.5, r / 2.5);
        p.setPen(QPen(fill, w));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(c, r - w / 2, r - w / 2);
        break;
    }
    case LineageKind::Deferred:
        p.setPen(QPen(colors.muted, std::max(1.0, r / 5.0)));
        p.setBrush(Qt::NoBrush);
        p.drawPolygon(triangleDown(c, r * 0.85));
        break;
    case LineageKind::Failed: {
        const double a = r * 0.75;
        p.setPen(QPen(colors.muted, std::max(1.2, r / 3.5), Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(c.x() - a, c.y() - a), QPointF(c.x() + a, c.y() + a));
        p.drawLine(QPointF(c.x() - a, c.y() + a), QPointF(c.x() + a, c.y() - a));
        break;
    }
    case LineageKind::Injected:
        p.setPen(QPen(colors.foreground, std::max(1.0, r / 4.0)));
        p.setBrush(bin ? fill : Qt::NoBrush);
        p.drawPolygon(diamond(c, r * 1.2));
        break;
    case LineageKind::Pending:
        p.setPen(QPen(colors.muted, 1.0, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(c, r * 0.6, r * 0.6);
        break;
    }
}

void drawPinMark(QPainter &p, const QPointF &c, double r, const LineageColors &colors)
{
    // A flag above the node: a stem and a pennant, large enough to find on nodes drawn a few pixels wide.
    const QPointF top(c.x(), c.y() - r - std::max(8.0, r * 1.4));
    p.setPen(QPen(colors.foreground, std::max(1.0, r / 5.0)));
    p.drawLine(QPointF(c.x(), c.y() - r), top);
    p.setBrush(colors.highlight);
    const double s = std::max(6.0, r * 0.8);
    p.drawPolygon(QPolygonF {top, {top.x() + s, top.y() + s / 2}, {top.x(), top.y() + s}});
}

QIcon pinMarkIcon(const LineageColors &colors, int side)
{
    QIcon icon;
    for (const double ratio : {1.0, 2.0}) {
        QPixmap pixmap(QSize(side, side) * ratio);
        pixmap.setDevicePixelRatio(ratio);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing, true);
        // A node low and left, its flag above: the legend's "pinned" entry at a row's height.
        const double r = side / 6.0;
        const QPointF centre(side * 0.35, side - r - 1.0);
        drawLineageNode(p, centre, r, LineageKind::Measured, 6, colors);
        drawPinMark(p, centre, r, colors);
        p.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

void drawVetoMark(QPainter &p, const QPointF &c, double r, const LineageColors &colors)
{
    const double a = r * 1.35;
    p.setPen(QPen(colors.veto, std::max(1.5, r / 3.0), Qt::SolidLine, Qt::RoundCap));
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(c, a, a);
    p.drawLine(QPointF(c.x() - a * 0.7, c.y() + a * 0.7), QPointF(c.x() + a * 0.7, c.y() - a * 0.7));
}

void drawBestMark(QPainter &p, const QPointF &c, double r, const LineageColors &colors)
{
    p.setPen(QPen(colors.highlight, std::max(2.0, r / 2.5)));
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(c, r + std::max(3.0, r * 0.5), r + std::max(3.0, r * 0.5));
}

void drawSelectionMark(QPainter &p, const QPointF &c, double r, const LineageColors &colors)
{
    const double a = r + std::max(5.0, r * 0.9);
    p.setPen(QPen(colors.foreground, 1.5, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(c.x() - a, c.y() - a, 2 * a, 2 * a));
}

} // namespace gpuf
