// Bin colours; see bin_colors.h.
#include "widgets/search/bin_colors.h"

#include "core/bins/bins.h"

namespace gpuf {

namespace {

constexpr float kSlowHue = 6.0f / 360.0f;
constexpr float kFastHue = 212.0f / 360.0f;

// How far each bin lies from 1× on its side of it: bins 1..3 are the slowdowns, 4..8 the speedups.
constexpr float kIntensity[bins::kBinCount] = {1.0f, 0.67f, 0.34f, 0.2f, 0.4f, 0.6f, 0.8f, 1.0f};

} // namespace

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < palette.color(QPalette::Text).lightnessF();
}

QColor binColor(int bin, bool dark)
{
    if (bin < 1 || bin > bins::kBinCount)
        return dark ? QColor(0x80, 0x80, 0x80) : QColor(0x9a, 0x9a, 0x9a);
    const float t = kIntensity[bin - 1];
    const float hue = bin <= 3 ? kSlowHue : kFastHue;
    // Light backgrounds: pale near 1×, dark far from it; dark backgrounds the other way round.
    const float lightness = dark ? 0.34f + 0.40f * t : 0.84f - 0.52f * t;
    return QColor::fromHslF(hue, 0.72f, lightness);
}

QColor binColor(int bin, const QPalette &palette) { return binColor(bin, isDarkPalette(palette)); }

} // namespace gpuf
