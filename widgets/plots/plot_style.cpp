// Palette-derived plot colours; see plot_style.h.
#include "widgets/plots/plot_style.h"
#include "widgets/plots/plot_qcustomplot.h"

#include "core/bins/bins.h"

#include <QFontMetrics>

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

namespace {

const char *const kRangeTicks = "gpufBinRangeTicks"; // the axis shows bin ranges when they fit

QString binTickText(int bin, BinTicks style)
{
    switch (style) {
    case BinTicks::Names:
        return QStringLiteral("%1  %2").arg(bins::label(bin)).arg(bin);
    case BinTicks::Ranges:
        return QStringLiteral("%1\n%2").arg(bin).arg(bins::rangeText(bin).remove(QLatin1Char(' ')));
    case BinTicks::Numbers:
        break;
    }
    return QString::number(bin);
}

QMap<double, QString> binTickMap(BinTicks style)
{
    QMap<double, QString> ticks;
    for (int bin = 1; bin <= bins::kBinCount; ++bin)
        ticks.insert(bin, binTickText(bin, style));
    return ticks;
}

} // namespace

void setBinTicks(QCPAxis *axis, BinTicks style)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->setTicks(binTickMap(style));
    axis->setTicker(ticker);
    axis->setSubTicks(false);
    axis->setProperty(kRangeTicks, style == BinTicks::Ranges);
}

int binRangeLabelWidth(const QFontMetrics &metrics)
{
    int widest = 0;
    for (int bin = 1; bin <= bins::kBinCount; ++bin) {
        const QStringList lines = binTickText(bin, BinTicks::Ranges).split(QLatin1Char('\n'));
        for (const QString &line : lines)
            widest = std::max(widest, metrics.horizontalAdvance(line));
    }
    return widest;
}

bool fitBinTicks(QCPAxis *axis, int columnWidth, int labelWidth)
{
    if (!axis->property(kRangeTicks).toBool())
        return false;
    const auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker)
        return false;
    // A gap of a few pixels between neighbouring labels.
    const BinTicks style = labelWidth + 8 <= columnWidth ? BinTicks::Ranges : BinTicks::Numbers;
    const QMap<double, QString> wanted = binTickMap(style);
    if (ticker->ticks() == wanted)
        return false;
    ticker->setTicks(wanted);
    return true;
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

void placeLegendAbove(QCustomPlot *plot)
{
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setMargins(QMargins(6, 2, 6, 2));
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
}

} // namespace gpuf
