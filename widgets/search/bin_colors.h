// The colours of the eight speedup bins for the search views: red for slowdowns, blue for speedups, stronger the
// farther the bin lies from 1× — a red–blue scale that stays readable for the common colour-vision deficiencies and
// takes its lightness from the palette, so the bins stand out on a light and on a dark background alike.
#pragma once

#include <QColor>
#include <QPalette>

namespace gpuf {

// Whether the palette is a dark one (its base darker than its text).
bool isDarkPalette(const QPalette &palette);
// The colour of bin 1..8 (an invalid bin gets the palette's mid-tone).
QColor binColor(int bin, bool dark);
QColor binColor(int bin, const QPalette &palette);

} // namespace gpuf
