// ComparePlot; see compare_plot.h.
#include "widgets/search/compare_plot.h"
#include "widgets/plots/plot_qcustomplot.h"
#include "widgets/plots/plot_style.h"

#include <QFontMetrics>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace gpuf {

namespace {

// Fixed hues per strategy: the modes take the frame's blue and orange and a green, the baselines purple, crimson and
// teal, so each keeps its colour (and colour-blind readers keep blue against orange for the first two).
struct StrategyHue
{
    const char *name;
    int hue;
};
constexpr StrategyHue kHues[]
    = {{"standard", 210}, {"surrogate", 28}, {"selective", 140}, {"random", 280}, {"greedy", 340}, {"genetic", 175}};

constexpr int kBandAlpha = 48;
const QString kBandLayer = QStringLiteral("compareBands");

// Ticks at 1, 2, 5, 10, 20, 50, … up to `last`: a log axis labelled only at powers of ten says too little over the
// one or two decades a budget spans.
QMap<double, QString> logTicks(double last)
{
    QMap<double, QString> ticks;
    for (double decade = 1.0; decade <= last; decade *= 10.0) {
        for (double step : {1.0, 2.0, 5.0}) {
            if (decade * step <= last * 1.001)
                ticks.insert(decade * step, QLocale().toString(decade * step, 'g', 6));
        }
    }
    return ticks;
}

} // namespace

ComparePlot::ComparePlot(QWidget *parent)
    : PlotWidget(parent)
{
    setWindowTitle(tr("Strategy comparison"));
    placeLegendAbove(plot());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_caption = new QCPTextElement(plot(), QString(), small);
    plot()->plotLayout()->insertRow(1);
    plot()->plotLayout()->addElement(1, 0, m_caption);
    plot()->plotLayout()->setRowStretchFactor(1, 0.001);
    plot()->addLayer(kBandLayer, plot()->layer(QStringLiteral("grid")), QCustomPlot::limAbove);

    plot()->xAxis->setLabel(tr("GPU evaluations (log scale)"));
    plot()->yAxis->setLabel(tr("best speedup found (×)"));
    plot()->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot()->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    plot()->xAxis->setSubTicks(false);

    m_optimum = new QCPItemStraightLine(plot());
    m_optimumLabel = new QCPItemText(plot());
    m_optimumLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_optimumLabel->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_optimumLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_placeholder = new QCPItemText(plot());
    m_placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_placeholder->position->setCoords(0.5, 0.5);
    m_placeholder->setText(tr("Choose a space, its GPU and the strategies, then Run: each strategy's best speedup\n"
                              "against the GPU evaluations it spent is drawn here."));
    rebuild();
}

void ComparePlot::setReport(std::shared_ptr<const search::CompareReport> report)
{
    m_report = std::move(report);
    // The export's file name follows the title: "strategy-comparison-sgemm_tiled-nvidia-h100-…-2026-12-01.png".
    setWindowTitle(m_report ? tr("Strategy comparison %1 %2").arg(m_report->space, m_report->hardware)
                            : tr("Strategy comparison"));
    rebuild();
}

QCPGraph *ComparePlot::meanGraph(const QString &strategy) const { return m_curves.value(strategy).mean; }
QCPGraph *ComparePlot::lowGraph(const QString &strategy) const { return m_curves.value(strategy).low; }
QCPGraph *ComparePlot::highGraph(const QString &strategy) const { return m_curves.value(strategy).high; }

QColor ComparePlot::strategyColor(const QString &strategy) const
{
    for (const StrategyHue &h : kHues) {
        if (strategy == QLatin1StringView(h.name))
            return QColor::fromHslF(float(h.hue) / 360.0f, 0.7f, colors().dark ? 0.64f : 0.42f);
    }
    return colors().muted;
}

void ComparePlot::rebuild()
{
    plot()->clearGraphs();
    m_curves.clear();
    m_expected = nullptr;
    const bool empty = !m_report || m_report->strategies.isEmpty();
    if (!empty) {
        for (const search::StrategyResult &s : m_report->strategies)
            addStrategy(s);
        addExpected();
    }
    const QString legendText = tr("shaded: 95 % interval · dashed: random search's exact expectation");
    m_caption->setText(empty ? tr("mean over the seeds, %1").arg(legendText)
                             : tr("%1 on %2 · mean over %n seed(s), %3", nullptr, m_report->seeds)
                                   .arg(m_report->space, m_report->hardware, legendText));
    m_placeholder->setVisible(empty);
    placeOptimum();
    fitRanges();
    applyFrameColors(plot(), colors());
    m_caption->setTextColor(colors().muted);
    m_placeholder->setColor(colors().muted);
    plot()->legend->setVisible(!empty);
    // A layout column is no wider than its narrowest element allows, hidden ones included: an empty legend's width
    // hint (its margins) would squeeze the axis rect below it to a sliver.
    plot()->legend->setMaximumSize(empty ? 1 << 20 : QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    wrapLegend();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void ComparePlot::addStrategy(const search::StrategyResult &strategy)
{
    const QString name = strategy.strategy.name();
    const QColor color = strategyColor(name);
    QVector<double> keys, means, lows, highs;
    for (int e = 1; e <= m_report->budget; ++e) {
        const search::Interval i = strategy.curveAt(e);
        keys << e;
        means << i.mean;
        lows << i.low;
        highs << i.high;
    }
    Curves c;
    c.low = plot()->addGraph();
    c.high = plot()->addGraph();
    for (QCPGraph *edge : {c.low, c.high}) {
        edge->setLayer(kBandLayer);
        edge->setLineStyle(QCPGraph::lsStepLeft);
        edge->setPen(Qt::NoPen);
        edge->removeFromLegend();
    }
    c.low->setData(keys, lows, true);
    c.high->setData(keys, highs, true);
    QColor fill = color;
    fill.setAlpha(kBandAlpha);
    c.high->setBrush(fill);
    c.high->setChannelFillGraph(c.low);
    c.mean = plot()->addGraph();
    c.mean->setName(name);
    c.mean->setLineStyle(QCPGraph::lsStepLeft);
    c.mean->setPen(QPen(color, 2.0));
    c.mean->setData(keys, means, true);
    m_curves.insert(name, c);
}

void ComparePlot::addExpected()
{
    QVector<double> keys, values;
    for (int e = 1; e <= m_report->budget && e < m_report->randomExpected.size(); ++e) {
        keys << e;
        values << m_report->randomExpected.at(e);
    }
    m_expected = plot()->addGraph();
    m_expected->setName(tr("random (expected)"));
    m_expected->setLineStyle(QCPGraph::lsStepLeft);
    m_expected->setPen(QPen(strategyColor(QStringLiteral("random")), 1.6, Qt::DashLine));
    m_expected->setData(keys, values, true);
}

void ComparePlot::placeOptimum()
{
    const bool shown = m_report && m_report->optimum > 0.0;
    m_optimum->setVisible(shown);
    m_optimumLabel->setVisible(shown);
    if (!shown)
        return;
    m_optimum->point1->setCoords(1.0, m_report->optimum);
    m_optimum->point2->setCoords(10.0, m_report->optimum);
    m_optimum->setPen(QPen(colors().muted, 1.0, Qt::DotLine));
    m_optimumLabel->position->setCoords(0.01, m_report->optimum);
    m_optimumLabel->setText(tr("optimum %1×").arg(QLocale().toString(m_report->optimum, 'f', 3)));
    m_optimumLabel->setColor(colors().muted);
}

void ComparePlot::fitRanges()
{
    const double last = m_report ? std::max(2, m_report->budget) : 100.0;
    auto ticker = plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->setTicks(logTicks(last));
    plot()->xAxis->setRange(0.9, last * 1.1);
    // The curves' own span (the optimum included): forcing 1× in would flatten curves that start far above it.
    double low = m_report ? m_report->optimum : 1.0;
    double high = m_report ? m_report->optimum : 2.0;
    for (int i = 0; i < plot()->graphCount(); ++i) {
        const QCPGraph *g = plot()->graph(i);
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            low = std::min(low, it->value);
            high = std::max(high, it->value);
        }
    }
    const double span = std::max(0.1, high - low);
    plot()->yAxis->setRange(std::max(0.0, low - span * 0.05), high + span * 0.12);
}

void ComparePlot::wrapLegend()
{
    // As many entries side by side as the plot's width holds, so the row never runs off the side.
    QCPLegend *legend = plot()->legend;
    const QFontMetrics metrics(legend->font());
    int widest = 0;
    for (int i = 0; i < plot()->graphCount(); ++i)
        widest = std::max(widest, metrics.horizontalAdvance(plot()->graph(i)->name()));
    const int entry = widest + legend->iconSize().width() + legend->iconTextPadding() + 24;
    const int entries = std::max(1, legend->itemCount());
    const int columns = std::clamp(plot()->width() / std::max(1, entry), 1, entries);
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

void ComparePlot::resizeEvent(QResizeEvent *event)
{
    PlotWidget::resizeEvent(event);
    wrapLegend();
}

} // namespace gpuf
