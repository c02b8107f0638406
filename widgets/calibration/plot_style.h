// Plot colours taken from the widget palette, and applying them to a QCustomPlot's frame (background, axes, grids,
// legend, title texts), so every calibration plot follows light and dark themes and changes with them.
#pragma once

#include <QColor>
#include <QPalette>

#include <array>

class QCPAxis;
class QCustomPlot;

namespace gpuf {

struct PlotColors
{
    bool dark = false;
    QColor background;
    QColor foreground;
    QColor muted; // secondary text and reference lines (the diagonal, the random baseline)
    QColor grid;
    std::array<QColor, 2> series; // first and second forecaster

    static PlotColors fromPalette(const QPalette &palette);

    // A series colour with the given alpha (0..255), for fills and per-problem lines.
    QColor seriesColor(int index, int alpha = 255) const;
    // Black or white text, whichever reads better on `fill`.
    QColor textOn(const QColor &fill) const;
};

// Ticks at bins 1..8 named as people read them: `Names` gives "slight speedup 4" (for a vertical axis, where a line
// of text has room), `Ranges` gives "4" over "1.00×–1.41×" (for a horizontal axis with eight narrow columns).
enum class BinTicks { Names, Ranges };
void setBinTicks(QCPAxis *axis, BinTicks style);

// Background, every axis of every axis rect (colour scales included), grids, legend and text elements.
void applyFrameColors(QCustomPlot *plot, const PlotColors &colors);

} // namespace gpuf
