// ProgressPlot; see progress_plot.h.
#include "widgets/search/progress_plot.h"
#include "widgets/plots/plot_qcustomplot.h"
#include "widgets/plots/plot_style.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>

namespace gpuf {

namespace {

// Hues after the frame's two series colours (blue, orange): green, purple, brown, teal.
constexpr int kMoreHues[] = {140, 280, 20, 175};

} // namespace

ProgressPlot::ProgressPlot(QWidget *parent)
    : PlotWidget(parent)
    , m_axisBox(new QComboBox(this))
{
    setWindowTitle(tr("Search progress"));
    m_axisBox->addItem(tr("against GPU evaluations"), int(Axis::Evaluations));
    m_axisBox->addItem(tr("against candidates considered"), int(Axis::Candidates));
    m_axisBox->setToolTip(tr("Best speedup so far against the GPU evaluations spent, or against the candidates the "
                             "search looked at (forecast or measured)"));
    connect(
        m_axisBox, &QComboBox::currentIndexChanged, this, [this] { setAxis(Axis(m_axisBox->currentData().toInt())); });
    controls()->insertWidget(0, new QLabel(tr("Best speedup"), this));
    controls()->insertWidget(1, m_axisBox);

    placeLegendAbove(plot());
    plot()->yAxis->setLabel(tr("best speedup (×)"));
    m_reference = new QCPItemStraightLine(plot());
    m_reference->point1->setCoords(0, 1);
    m_reference->point2->setCoords(1, 1);
    rebuild();
}

void ProgressPlot::setAxis(Axis axis)
{
    if (axis == m_axis)
        return;
    m_axis = axis;
    const QSignalBlocker block(m_axisBox);
    m_axisBox->setCurrentIndex(m_axisBox->findData(int(axis)));
    rebuild();
}

void ProgressPlot::setSeries(const QList<ProgressSeries> &series)
{
    m_series = series;
    rebuild();
}

void ProgressPlot::setSearch(const search::SearchState &state, const QString &name)
{
    auto live = std::find_if(m_series.begin(), m_series.end(), [](const ProgressSeries &s) { return s.live; });
    if (live == m_series.end()) {
        m_series.prepend(ProgressSeries {name.isEmpty() ? tr("this search") : name, {}, true});
        live = m_series.begin();
    } else if (!name.isEmpty()) {
        live->name = name;
    }
    live->curve = search::progressCurve(state);
    rebuild();
}

void ProgressPlot::applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents)
{
    if (!newEvents.isEmpty())
        setSearch(state);
}

QCPGraph *ProgressPlot::graph(int index) const
{
    return index >= 0 && index < m_graphs.size() ? m_graphs[index] : nullptr;
}

QColor ProgressPlot::seriesColor(int index) const
{
    // The live series takes the first colour; the others follow in their order.
    int slot = 1;
    for (int i = 0; i < index && i < m_series.size(); ++i) {
        if (!m_series[i].live)
            ++slot;
    }
    if (index >= 0 && index < m_series.size() && m_series[index].live)
        slot = 0;
    else if (std::none_of(m_series.cbegin(), m_series.cend(), [](const ProgressSeries &s) { return s.live; }))
        --slot;
    if (slot < 2)
        return colors().seriesColor(slot);
    const int hue = kMoreHues[(slot - 2) % int(std::size(kMoreHues))];
    return QColor::fromHslF(hue / 360.0f, 0.6f, colors().dark ? 0.62f : 0.40f);
}

void ProgressPlot::rebuild()
{
    plot()->clearGraphs();
    m_graphs.clear();
    const bool byEvaluations = m_axis == Axis::Evaluations;
    plot()->xAxis->setLabel(byEvaluations ? tr("GPU evaluations") : tr("candidates considered"));
    double maxX = 1.0;
    double maxY = 1.0;
    double minY = 1.0;
    for (int i = 0; i < m_series.size(); ++i) {
        const ProgressSeries &s = m_series[i];
        const QList<search::ProgressPoint> &points = byEvaluations ? s.curve.byEvaluations : s.curve.byCandidates;
        QCPGraph *g = plot()->addGraph();
        g->setName(s.name);
        g->setLineStyle(QCPGraph::lsStepLeft);
        QPen pen(seriesColor(i), s.live ? 2.5 : 1.6);
        if (!s.live && i % 2 == 0)
            pen.setStyle(Qt::DashLine); // overlays alternate solid and dashed, so they part without colour too
        g->setPen(pen);
        QVector<double> keys, values;
        keys.reserve(points.size());
        values.reserve(points.size());
        for (const search::ProgressPoint &p : points) {
            keys.append(p.x);
            values.append(p.best);
            maxX = std::max(maxX, p.x);
            maxY = std::max(maxY, p.best);
            minY = std::min(minY, p.best);
        }
        g->setData(keys, values, true);
        m_graphs.append(g);
    }
    plot()->xAxis->setRange(0.0, maxX * 1.03);
    const double span = std::max(0.1, maxY - minY);
    plot()->yAxis->setRange(std::max(0.0, minY - span * 0.08), maxY + span * 0.12);
    m_reference->setPen(QPen(colors().muted, 1.0, Qt::DotLine));
    applyFrameColors(plot(), colors());
    plot()->legend->setVisible(!m_series.isEmpty());
    wrapLegend();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void ProgressPlot::wrapLegend()
{
    // As many entries side by side as the plot's width holds (at least one), so the row never runs off the side.
    const QFontMetrics metrics(plot()->legend->font());
    int widest = 0;
    for (const ProgressSeries &s : std::as_const(m_series))
        widest = std::max(widest, metrics.horizontalAdvance(s.name));
    const int entry = widest + plot()->legend->iconSize().width() + plot()->legend->iconTextPadding() + 24;
    const int columns = std::clamp(plot()->width() / std::max(1, entry), 1, std::max(1, int(m_series.size())));
    if (plot()->legend->wrap() != columns) {
        plot()->legend->setWrap(columns);
        plot()->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

void ProgressPlot::resizeEvent(QResizeEvent *event)
{
    PlotWidget::resizeEvent(event);
    wrapLegend();
}

} // namespace gpuf
