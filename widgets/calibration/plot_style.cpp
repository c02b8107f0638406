// Palette-derived plot colours; see plot_style.h.
#include "widgets/calibration/plot_style.h"
#include "widgets/calibration/plot_qcustomplot.h"

#include "core/bins/bins.h"

namespace gpuf {

namespace {

// Fixed hues (blue, orange) stay distinguishable for the common colour-vision deficiencies; only their lightness
// follows the theme, so lines keep their contrast against a dark or a light background.
constexpr std::array<int, 2> kSeriesHues {210, 28};

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
        float(a.blueF() * (1 - t) + b.blueF() * t));
}

void colorAxis(QCPAxis *axis, const PlotColors &colors)
{
    const QPen pen(colors.foreground);
    axis->setBasePen(pen);
    axis->setTickPen(pen);
    axis->setSubTickPen(pen);
    axis->setLabelColor(colors.foreground);
    axis->setTickLabelColor(colors.foreground);
    axis->grid()->setPen(QPen(colors.grid, 0, Qt::DotLine));
    axis->grid()->setSubGridPen(Qt::NoPen);
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

} // namespace

PlotColors PlotColors::fromPalette(const QPalette &palette)
{
    PlotColors colors;
    colors.background = palette.color(QPalette::Active, QPalette::Base);
    colors.foreground = palette.color(QPalette::Active, QPalette::Text);
    colors.dark = colors.background.lightnessF() < colors.foreground.lightnessF();
    colors.muted = mix(colors.background, colors.foreground, 0.55);
    colors.grid = mix(colors.background, colors.foreground, 0.22);
    for (std::size_t i = 0; i < colors.series.size(); ++i)
        colors.series[i] = QColor::fromHslF(kSeriesHues[i] / 360.0f, 0.75f, colors.dark ? 0.66f : 0.42f);
    return colors;
}

QColor PlotColors::seriesColor(int index, int alpha) const
{
    QColor c = series[std::size_t(std::clamp(index, 0, int(series.size()) - 1))];
    c.setAlpha(alpha);
    return c;
}

QColor PlotColors::textOn(const QColor &fill) const
{
    // Relative luminance (sRGB weights) decides; alpha is blended towards the background first.
    const QColor seen = mix(background, fill, fill.alphaF());
    const double luminance = 0.2126 * seen.redF() + 0.7152 * seen.greenF() + 0.0722 * seen.blueF();
    return luminance > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

void setBinTicks(QCPAxis *axis, BinTicks style)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int bin = 1; bin <= bins::kBinCount; ++bin) {
        const QString text = style == BinTicks::Names
            ? QStringLiteral("%1  %2").arg(bins::label(bin)).arg(bin)
            : QStringLiteral("%1\n%2").arg(bin).arg(bins::rangeText(bin).remove(QLatin1Char(' ')));
        ticker->addTick(bin, text);
    }
    axis->setTicker(ticker);
    axis->setSubTicks(false);
}

void applyFrameColors(QCustomPlot *plot, const PlotColors &colors)
{
    plot->setBackground(QBrush(colors.background));
    for (QCPAxisRect *rect : plot->axisRects()) {
        rect->setBackground(QBrush(colors.background));
        for (QCPAxis *axis : rect->axes())
            colorAxis(axis, colors);
    }
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(element))
            text->setTextColor(colors.foreground);
        else if (auto *scale = qobject_cast<QCPColorScale *>(element))
            colorAxis(scale->axis(), colors);
        else if (auto *legend = qobject_cast<QCPLegend *>(element)) {
            legend->setBrush(QBrush(colors.background));
            legend->setBorderPen(QPen(colors.grid));
            legend->setTextColor(colors.foreground);
        }
    }
}

} // namespace gpuf
