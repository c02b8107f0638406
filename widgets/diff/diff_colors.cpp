// Palette-derived diff colours: green/red tints over the base colour, stronger in dark schemes where tints fade.
#include "widgets/diff/diff_colors.h"

#include "widgets/diff/syntax_highlighting.h"

#include <QPalette>

namespace gpuf {

QColor blendColors(const QColor &a, const QColor &b, qreal amount)
{
    const qreal keep = 1.0 - amount;
    return QColor::fromRgbF(static_cast<float>(a.redF() * keep + b.redF() * amount),
        static_cast<float>(a.greenF() * keep + b.greenF() * amount),
        static_cast<float>(a.blueF() * keep + b.blueF() * amount));
}

DiffColors diffColorsFor(const QPalette &palette)
{
    DiffColors colors;
    colors.dark = syntaxThemeFor(palette) == SyntaxTheme::Dark;
    colors.text = palette.color(QPalette::Text);
    colors.base = palette.color(QPalette::Base);

    // Hues close to the usual review-tool green and red; dark schemes need a larger share to read as a tint.
    const QColor green = colors.dark ? QColor(63, 185, 80) : QColor(46, 160, 67);
    const QColor red = colors.dark ? QColor(248, 81, 73) : QColor(207, 34, 46);
    const QColor blue = colors.dark ? QColor(88, 166, 255) : QColor(9, 105, 218);
    const qreal line = colors.dark ? 0.20 : 0.13;
    const qreal token = colors.dark ? 0.42 : 0.32;

    colors.addedLine = blendColors(colors.base, green, line);
    colors.removedLine = blendColors(colors.base, red, line);
    colors.addedToken = blendColors(colors.base, green, token);
    colors.removedToken = blendColors(colors.base, red, token);
    colors.filler = blendColors(colors.base, colors.text, colors.dark ? 0.07 : 0.05);
    colors.foldBackground = blendColors(colors.base, palette.color(QPalette::Highlight), colors.dark ? 0.18 : 0.10);
    colors.foldText = blendColors(colors.text, colors.base, 0.25);
    colors.gutterBackground = blendColors(colors.base, palette.color(QPalette::Window), 0.6);
    colors.gutterText = blendColors(colors.text, colors.base, 0.45);
    colors.overviewBackground = colors.gutterBackground;
    colors.overviewAdded = green;
    colors.overviewRemoved = red;
    colors.overviewChanged = blue;
    colors.overviewViewport = colors.text;
    colors.overviewViewport.setAlphaF(0.14f);
    // Violet toward faster, orange toward slower: a pair that stays apart for the common colour-vision deficiencies.
    colors.annotationFaster = colors.dark ? QColor(188, 140, 255) : QColor(130, 80, 223);
    colors.annotationSlower = colors.dark ? QColor(255, 166, 87) : QColor(212, 106, 0);
    colors.annotationFasterBand = colors.annotationFaster;
    colors.annotationSlowerBand = colors.annotationSlower;
    colors.annotationFasterBand.setAlphaF(colors.dark ? 0.22f : 0.14f);
    colors.annotationSlowerBand.setAlphaF(colors.dark ? 0.22f : 0.14f);
    return colors;
}

} // namespace gpuf
