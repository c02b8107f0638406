// DiffColors: every colour the diff panes, gutters and overview bar paint with, derived from a palette.
#pragma once

#include <QColor>

class QPalette;

namespace gpuf {

struct DiffColors
{
    QColor text;
    QColor base;
    QColor removedLine; // left side of Deleted and Changed rows
    QColor addedLine; // right side of Inserted and Changed rows
    QColor removedToken; // the differing tokens inside a changed line
    QColor addedToken;
    QColor filler; // the side without a line in an Inserted or Deleted row
    QColor foldBackground; // the "show N lines" band
    QColor foldText;
    QColor gutterBackground;
    QColor gutterText;
    QColor overviewBackground;
    QColor overviewAdded; // overview marks are saturated so that a one-pixel mark stays visible
    QColor overviewRemoved;
    QColor overviewChanged;
    QColor overviewViewport;
    // Forecast annotations: hues apart from the diff's green, red and blue, so a mark never reads as a change.
    QColor annotationFaster; // gutter markers, stripes and overview ticks (saturated)
    QColor annotationSlower;
    QColor annotationFasterBand; // translucent tints laid over a line's own background
    QColor annotationSlowerBand;
    bool dark = false;

    friend bool operator==(const DiffColors &, const DiffColors &) = default;
};

// Tints are blended into the palette's base colour, so they keep the contrast of any light or dark scheme.
DiffColors diffColorsFor(const QPalette &palette);

// a·(1 − amount) + b·amount per channel, opaque.
QColor blendColors(const QColor &a, const QColor &b, qreal amount);

} // namespace gpuf
