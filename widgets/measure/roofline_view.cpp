// RooflineView and RooflinePanel; see roofline_view.h.
#include "widgets/measure/roofline_view.h"
#include "widgets/plots/plot_qcustomplot.h"

#include "widgets/measure/roofline_loader.h"

#include <QCheckBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gpuf {
namespace {

const char *const kSeriesProperty = "gpufRooflineSeries"; // marks a points graph (its index into data().series)
const char *const kCeilingProperty = "gpufRooflineCeiling";
const char *const kArrowProperty = "gpufRooflineArrow";
const char *const kLabelProperty = "gpufRooflineLabel"; // the series index of a point's label (its point: kAnchor…)
const char *const kAnchorProperty = "gpufRooflineAnchor"; // the labelled point (QPointF, plot coordinates)
const char *const kLeftProperty = "gpufRooflineLeft"; // true: the label sits left of its point

QString number(double value, int digits = 3) { return QLocale().toString(value, 'g', digits); }

QString roleSuffix(RooflineSeries::Role role)
{
    switch (role) {
    case RooflineSeries::Role::Kernel:
        return RooflineView::tr("selected");
    case RooflineSeries::Role::Parent:
        return RooflineView::tr("parent");
    case RooflineSeries::Role::Reference:
        return RooflineView::tr("reference");
    }
    return {};
}

QString legendName(const RooflineSeries &s) { return QStringLiteral("%1 (%2)").arg(s.name, roleSuffix(s.role)); }

// Ticks for a logarithmic axis: powers of ten over a wide range; 1, 2 and 5 times them over a narrow one, where a
// logarithmic ticker would fall back to evenly spaced values that crowd together at the top of the axis.
void setLogTicks(QCPAxis *axis)
{
    const double lower = axis->range().lower;
    const double upper = axis->range().upper;
    if (std::log10(upper / lower) >= 1.5) {
        if (!axis->ticker().dynamicCast<QCPAxisTickerLog>())
            axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        return;
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int power = int(std::floor(std::log10(lower))); power <= int(std::ceil(std::log10(upper))); ++power) {
        for (const double step : {1.0, 2.0, 5.0}) {
            const double value = step * std::pow(10.0, power);
            if (value >= lower && value <= upper)
                ticker->addTick(value, QLocale().toString(value, 'g', 3));
        }
    }
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
}

QColor implausibleColor(const PlotColors &colors) { return QColor::fromHslF(0.0f, 0.8f, colors.dark ? 0.64f : 0.45f); }

} // namespace

RooflineView::RooflineView(QWidget *parent)
    : PlotWidget(parent)
    , m_peaks(new QLabel(this))
    , m_messageLabel(new QLabel(this))
    , m_lines(new QLabel(this))
    , m_zoom(new QCheckBox(this))
{
    setWindowTitle(tr("Roofline"));
    m_peaks->setObjectName(QStringLiteral("rooflinePeaks"));
    m_peaks->setWordWrap(true);
    m_peaks->setTextInteractionFlags(Qt::TextSelectableByMouse);
    controls()->insertWidget(0, m_peaks, 1);
    m_zoom->setText(tr("Zoom to the points"));
    m_zoom->setToolTip(tr("Show only the neighbourhood of the points, so the kernels of one problem (which share their "
                          "intensity) and the arrows between them can be told apart"));
    controls()->insertWidget(1, m_zoom);
    connect(m_zoom, &QCheckBox::toggled, this, [this] { rebuild(); });
    m_messageLabel->setObjectName(QStringLiteral("rooflineMessage"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setAlignment(Qt::AlignCenter);
    m_messageLabel->setMargin(24);
    m_lines->setObjectName(QStringLiteral("rooflineLines"));
    m_lines->setWordWrap(true);
    m_lines->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lines->setMargin(6);
    m_lines->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // The figures beside the plot, not under it: a bottom dock is wide and short, and the plot needs the height.
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_lines);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_linesArea = scroll;
    auto *box = qobject_cast<QVBoxLayout *>(layout());
    box->removeWidget(plot());
    auto *row = new QHBoxLayout;
    row->addWidget(plot(), 3);
    row->addWidget(m_messageLabel, 3);
    row->addWidget(scroll, 2);
    box->addLayout(row, 1);

    QCustomPlot *p = plot();
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        axis->setNumberFormat(QStringLiteral("gb"));
    }
    p->xAxis->setLabel(axisTitle());
    p->yAxis->setLabel(tr("Performance (TFLOP/s)"));
    p->legend->setVisible(true);
    p->addLayer(QStringLiteral("rooflineKernel"), p->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    // Above the roof nothing can be: the legend's corner never hides a point or a roof.
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    // Labels are placed in pixels once the axes have their size, so points at one intensity keep readable labels.
    connect(p, &QCustomPlot::afterLayout, this, &RooflineView::placeLabels);
    showMessage(tr("Choose a kernel in the Candidates table to see where it stands against the GPU."));
}

void RooflineView::setData(const RooflineData &data)
{
    m_data = data;
    m_message = data.emptyReason;
    rebuild();
}

void RooflineView::showMessage(const QString &message)
{
    m_data = RooflineData {};
    m_message = message;
    rebuild();
}

QString RooflineView::message() const { return m_messageLabel->isHidden() ? QString() : m_messageLabel->text(); }

QString RooflineView::peaksText() const { return m_peaks->text(); }

QStringList RooflineView::lines() const
{
    return m_lines->text().isEmpty() ? QStringList {} : m_lines->text().split(QLatin1Char('\n'));
}

QList<RooflineView::PlottedPoint> RooflineView::plottedPoints() const
{
    QList<PlottedPoint> points;
    const QCustomPlot *p = plot();
    // A label by its series and point: a graph keeps its points sorted by intensity, not in the cases' order.
    const auto keyOf = [](int series, QPointF at) -> QString {
        return QStringLiteral("%1:%2:%3").arg(series).arg(at.x(), 0, 'g', 17).arg(at.y(), 0, 'g', 17);
    };
    QHash<QString, QString> labels;
    for (int i = 0; i < p->itemCount(); ++i) {
        if (const auto *text = qobject_cast<QCPItemText *>(p->item(i));
            text && text->property(kLabelProperty).isValid())
            labels.insert(keyOf(text->property(kLabelProperty).toInt(), text->property(kAnchorProperty).toPointF()),
                text->text());
    }
    QList<const QCPGraph *> graphs;
    for (int g = 0; g < p->graphCount(); ++g) {
        if (p->graph(g)->property(kSeriesProperty).isValid())
            graphs.append(p->graph(g));
    }
    // In the order of data().series.
    std::sort(graphs.begin(), graphs.end(), [](const QCPGraph *a, const QCPGraph *b) {
        return a->property(kSeriesProperty).toInt() < b->property(kSeriesProperty).toInt();
    });
    for (const QCPGraph *graph : std::as_const(graphs)) {
        const QVariant series = graph->property(kSeriesProperty);
        int index = 0;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it, ++index)
            points.append({graph->name(), labels.value(keyOf(series.toInt(), {it->key, it->value})), it->key, it->value,
                pointText(graph, index)});
    }
    return points;
}

QStringList RooflineView::ceilingNames() const
{
    QStringList names;
    for (int g = 0; g < plot()->graphCount(); ++g) {
        if (plot()->graph(g)->property(kCeilingProperty).isValid())
            names.append(plot()->graph(g)->name());
    }
    return names;
}

int RooflineView::arrowCount() const
{
    int count = 0;
    for (int i = 0; i < plot()->itemCount(); ++i)
        count += plot()->item(i)->property(kArrowProperty).isValid() ? 1 : 0;
    return count;
}

void RooflineView::rebuild()
{
    QCustomPlot *p = plot();
    p->clearGraphs();
    p->clearItems();
    m_leaders.clear();
    applyFrameColors(p, colors());

    updateTexts();
    const PeakRates &peaks = m_data.peaks;
    const bool drawable = m_message.isEmpty() && m_data.hasIntensity();
    m_messageLabel->setText(m_message);
    m_messageLabel->setVisible(!drawable);
    p->setVisible(drawable);
    if (!drawable) {
        p->replot(QCustomPlot::rpQueuedReplot);
        return;
    }

    double minIntensity = std::numeric_limits<double>::infinity();
    double maxIntensity = 0.0;
    double minRate = std::numeric_limits<double>::infinity();
    double maxRate = 0.0;
    double maxRoof = 0.0;
    for (const RooflineSeries &s : std::as_const(m_data.series)) {
        for (const RooflineCase &c : s.cases) {
            if (!c.point || !c.point->intensity)
                continue;
            minIntensity = std::min(minIntensity, *c.point->intensity);
            maxIntensity = std::max(maxIntensity, *c.point->intensity);
            minRate = std::min(minRate, *c.point->achievedTflops);
            maxRate = std::max(maxRate, *c.point->achievedTflops);
            maxRoof = std::max(maxRoof, c.point->roofTflops.value_or(0.0));
        }
    }
    const double topPeak = std::max({peaks.fp32Tflops, peaks.tflops(m_data.precision), minRate});
    const double topRidge = topPeak * 1e3 / peaks.bandwidthGBs;
    double xMin = std::min(minIntensity / 4.0, topRidge / 30.0);
    double xMax = std::max(maxIntensity * 4.0, topRidge * 4.0);
    // Room under the lowest point for the labels stacked beneath it.
    double yMin = std::min(minRate / 8.0, xMin * peaks.bandwidthGBs / 1e3);
    double yMax = topPeak * 1.8;
    if (m_zoom->isChecked()) {
        // The points, the roof right above them and a little room around: the ceilings may fall outside.
        xMin = minIntensity / 2.5;
        xMax = maxIntensity * 2.5;
        yMin = minRate / 2.5;
        yMax = std::max(maxRate, maxRoof) * 2.0;
    }
    p->xAxis->setLabel(axisTitle());
    p->xAxis->setRange(xMin, xMax);
    p->yAxis->setRange(yMin, yMax);
    setLogTicks(p->xAxis);
    setLogTicks(p->yAxis);
    // Full view: above the roof, top left, nothing can be. Zoomed: the roof crosses the top, the points sit in the
    // middle, and the bottom right is free.
    p->axisRect()->insetLayout()->setInsetAlignment(
        0, m_zoom->isChecked() ? Qt::AlignBottom | Qt::AlignRight : Qt::AlignTop | Qt::AlignLeft);
    drawRoofs(xMin, xMax);
    drawPoints();
    p->replot(QCustomPlot::rpQueuedReplot);
}

void RooflineView::updateTexts()
{
    // The figures are read even where nothing can be drawn (a copy kernel's bandwidth, a failed case's reason).
    QStringList text;
    for (const RooflineSeries &s : std::as_const(m_data.series)) {
        for (const RooflineCase &c : s.cases)
            text.append(rooflineLine(s, c));
        if (s.cases.isEmpty())
            text.append(tr("%1: not measured on %2").arg(s.name, m_data.hardware.name));
    }
    m_lines->setText(text.join(QLatin1Char('\n')));
    m_linesArea->setVisible(!text.isEmpty());

    const PeakRates &peaks = m_data.peaks;
    if (m_data.hardware.id != 0 && peaks.hasBandwidth()) {
        QStringList rates {tr("%1 GB/s").arg(number(peaks.bandwidthGBs, 4))};
        rates.append(tr("FP32 %1 TFLOP/s").arg(number(peaks.fp32Tflops, 3)));
        if (m_data.precision != Precision::Fp32 && peaks.tflops(m_data.precision) > 0.0)
            rates.append(tr("%1 tensor %2 TFLOP/s")
                             .arg(precisionName(m_data.precision), number(peaks.tflops(m_data.precision), 4)));
        m_peaks->setText(tr("%1: %2 (%3)").arg(m_data.hardware.name, rates.join(QStringLiteral(" · ")), peaks.source));
    } else {
        m_peaks->setText(m_data.hardware.name);
    }
}

void RooflineView::drawRoofs(double xMin, double xMax)
{
    QCustomPlot *p = plot();
    const PeakRates &peaks = m_data.peaks;
    const double bandwidth = peaks.bandwidthGBs;
    const double tensor = m_data.precision != Precision::Fp32 ? peaks.tflops(m_data.precision) : 0.0;
    const double top = std::max(peaks.fp32Tflops, tensor);
    const auto addLine = [&](const QString &name, const QVector<double> &x, const QVector<double> &y, const QPen &pen) {
        QCPGraph *g = p->addGraph();
        g->setName(name);
        g->setData(x, y, true);
        g->setPen(pen);
        g->setProperty(kCeilingProperty, true);
        return g;
    };
    QPen roofPen(colors().foreground, 2.0);
    // The memory slope rises until it meets the highest ceiling (or runs off the plot when no FLOP rate is known).
    const double slopeEnd = top > 0.0 ? top * 1e3 / bandwidth : xMax;
    addLine(tr("memory %1 GB/s").arg(number(bandwidth, 4)), {xMin, slopeEnd},
        {xMin * bandwidth / 1e3, slopeEnd * bandwidth / 1e3}, roofPen);
    if (peaks.fp32Tflops > 0.0) {
        QPen pen = roofPen;
        if (tensor > peaks.fp32Tflops) {
            pen = QPen(colors().muted, 1.5, Qt::DashLine); // a lower roof: code that does not use the tensor cores
        }
        const double ridge = peaks.fp32Tflops * 1e3 / bandwidth;
        addLine(tr("FP32 %1 TFLOP/s").arg(number(peaks.fp32Tflops, 3)), {ridge, xMax},
            {peaks.fp32Tflops, peaks.fp32Tflops}, pen);
    }
    if (tensor > 0.0) {
        const double ridge = tensor * 1e3 / bandwidth;
        addLine(tr("%1 tensor %2 TFLOP/s").arg(precisionName(m_data.precision), number(tensor, 4)), {ridge, xMax},
            {tensor, tensor}, roofPen);
    }
}

// A case's label beside its point (the selected kernel's to the right, the others' to the left: placeLabels) and the
// leader line drawn to it once the label has to move away.
QCPItemText *RooflineView::addPointLabel(const RooflineCase &c, QPointF at, const QColor &color, bool left)
{
    QCustomPlot *p = plot();
    auto *label = new QCPItemText(p);
    label->position->setType(QCPItemPosition::ptAbsolute);
    label->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    label->setProperty(kAnchorProperty, at);
    label->setProperty(kLeftProperty, left);
    auto *leader = new QCPItemLine(p);
    leader->start->setType(QCPItemPosition::ptAbsolute);
    leader->end->setCoords(at.x(), at.y());
    QColor faint = color;
    faint.setAlpha(140);
    leader->setPen(QPen(faint, 0.8));
    leader->setVisible(false);
    m_leaders.insert(label, leader);
    label->setText(labelText(c));
    label->setColor(c.point->implausible ? implausibleColor(colors()) : color);
    label->setClipToAxisRect(false);
    return label;
}

void RooflineView::drawPoints()
{
    QCustomPlot *p = plot();
    const QColor muted = colors().muted;
    // Positions of each series' points by case, so arrows can join the parent's point to the kernel's.
    QHash<QString, QPointF> kernelAt;
    QHash<QString, QPointF> parentAt;
    for (int s = 0; s < m_data.series.size(); ++s) {
        const RooflineSeries &series = m_data.series[s];
        if (!series.measured())
            continue; // its lines say why; a legend entry without a point would only puzzle
        QColor color = series.role == RooflineSeries::Role::Kernel ? colors().seriesColor(0)
            : series.role == RooflineSeries::Role::Parent          ? colors().seriesColor(1)
                                                                   : muted;
        const QCPScatterStyle::ScatterShape shape = series.role == RooflineSeries::Role::Kernel
            ? QCPScatterStyle::ssDisc
            : series.role == RooflineSeries::Role::Parent ? QCPScatterStyle::ssSquare
                                                          : QCPScatterStyle::ssTriangle;
        QCPGraph *g = p->addGraph();
        g->setName(legendName(series));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(shape, QPen(color, 1.5), color, 9));
        g->setPen(QPen(color));
        g->setProperty(kSeriesProperty, s);
        // The legend lists the selected kernel first; its points are drawn on a layer of their own, above the others.
        if (series.role == RooflineSeries::Role::Kernel)
            g->setLayer(QStringLiteral("rooflineKernel"));
        for (const RooflineCase &c : series.cases) {
            if (!c.point || !c.point->intensity)
                continue;
            const double x = *c.point->intensity;
            const double y = *c.point->achievedTflops;
            g->addData(x, y);
            addPointLabel(c, {x, y}, color, series.role != RooflineSeries::Role::Kernel)
                ->setProperty(kLabelProperty, s);
            if (series.role == RooflineSeries::Role::Kernel) {
                kernelAt.insert(c.caseName, {x, y});
                // What is left to gain: a dotted drop from the roof above the point down to it.
                if (c.point->roofTflops && *c.point->roofTflops > y) {
                    auto *drop = new QCPItemLine(p);
                    drop->start->setCoords(x, *c.point->roofTflops);
                    drop->end->setCoords(x, y);
                    drop->setPen(QPen(color, 1.0, Qt::DotLine));
                }
            } else if (series.role == RooflineSeries::Role::Parent)
                parentAt.insert(c.caseName, {x, y});
        }
    }
    // What the step from the parent did, case by case.
    for (auto it = parentAt.cbegin(); it != parentAt.cend(); ++it) {
        const auto to = kernelAt.constFind(it.key());
        if (to == kernelAt.cend())
            continue;
        auto *arrow = new QCPItemLine(p);
        arrow->start->setCoords(it->x(), it->y());
        arrow->end->setCoords(to->x(), to->y());
        arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 10, 12));
        arrow->setPen(QPen(muted, 1.2));
        arrow->setLayer(QStringLiteral("rooflineKernel")); // above the points it joins
        arrow->setProperty(kArrowProperty, it.key());
    }
}

void RooflineView::placeLabels()
{
    QCustomPlot *p = plot();
    struct Placed
    {
        QCPItemText *label;
        double x;
        double y;
    };
    QList<Placed> right;
    QList<Placed> left;
    for (int i = 0; i < p->itemCount(); ++i) {
        auto *label = qobject_cast<QCPItemText *>(p->item(i));
        if (!label || !label->property(kAnchorProperty).isValid())
            continue;
        const QPointF at = label->property(kAnchorProperty).toPointF();
        (label->property(kLeftProperty).toBool() ? left : right)
            .append({label, p->xAxis->coordToPixel(at.x()), p->yAxis->coordToPixel(at.y())});
    }
    const double lineHeight = QFontMetricsF(p->font()).height();
    const double gap = 9.0; // between a point and its label
    // One column of labels right of the selected kernel's points and one left of the others', clear of every point:
    // each label at its point's height unless that would overlap the one above it, then just below it, with a leader.
    for (QList<Placed> *side : {&right, &left}) {
        if (side->isEmpty())
            continue;
        const bool onLeft = side == &left;
        std::sort(side->begin(), side->end(), [](const Placed &a, const Placed &b) { return a.y < b.y; });
        double x = side->first().x;
        for (const Placed &placed : std::as_const(*side))
            x = onLeft ? std::min(x, placed.x) : std::max(x, placed.x);
        x += onLeft ? -gap : gap;
        double nextY = -1e9;
        for (const Placed &placed : std::as_const(*side)) {
            const double y = std::max(placed.y, nextY);
            nextY = y + lineHeight;
            placed.label->position->setCoords(x, y);
            // A leader from a label that had to move away from its point back to it.
            if (QCPItemLine *leader = m_leaders.value(placed.label)) {
                leader->start->setCoords(x + (onLeft ? 2.0 : -2.0), y);
                leader->setVisible(std::hypot(x - placed.x, y - placed.y) > 1.5 * gap);
            }
        }
    }
}

RooflinePanel::RooflinePanel(StoreSession *session, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_view(new RooflineView(this))
    , m_loader(new RooflineLoader(session, selection, this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    connect(m_loader, &RooflineLoader::loaded, m_view, &RooflineView::setData);
    connect(m_loader, &RooflineLoader::cleared, m_view, &RooflineView::showMessage);
    connect(m_loader, &RooflineLoader::failed, m_view,
        [this](const QString &message) { m_view->showMessage(tr("The roofline could not be read: %1").arg(message)); });
}

} // namespace gpuf
