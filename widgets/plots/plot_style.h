// Plot colours taken from the widget palette, and applying them to a QCustomPlot's frame (background, axes, grids,
// legend, title texts), so every calibration plot follows light and dark themes and changes with them.
#pragma once

#include <QColor>
#include <QPalette>

#include <array>

class QCPAxis;
class QFontMetrics;
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
// of text has room), `Ranges` gives "4" over "1.00×–1.41×" (for a horizontal axis; where the columns are too narrow
// for the ranges, fitBinTicks() falls back to the numbers), `Numbers` gives "4".
enum class BinTicks { Names, Ranges, Numbers };
void setBinTicks(QCPAxis *axis, BinTicks style);
// Shows an axis's bin ranges where its columns are wide enough for them, else the bin numbers alone; true when the
// labels changed. Axes without bin ranges are left alone.
bool fitBinTicks(QCPAxis *axis, int columnWidth, int labelWidth);
// The widest line of the range labels of setBinTicks(…, Ranges) in `metrics`.
int binRangeLabelWidth(const QFontMetrics &metrics);

// Background, every axis of every axis rect (colour scales included), grids, legend and text elements.
void applyFrameColors(QCustomPlot *plot, const PlotColors &colors);

// Shows the legend in a row of its own above the axis rect, its entries side by side and wrapped to the width:
// inside the axes a legend covers curves once a dock is small.
void placeLegendAbove(QCustomPlot *plot);

} // namespace gpuf
