// RooflineView and RooflinePanel; see roofline_view.h.
#include "widgets/measure/roofline_view.h"
#include "widgets/calibration/plot_qcustomplot.h"

#include "widgets/measure/roofline_loader.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gpuf {
namespace {

const char *const kSeriesProperty = "gpufRooflineSeries"; // marks a points graph (its index into data().series)
const char *const kCeilingProperty = "gpufRooflineCeiling";
const char *const kArrowProperty = "gpufRooflineArrow";
const char *const kLabelProperty = "gpufRooflineLabel"; // "series index:point index" of a point's label

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

QColor implausibleColor(const PlotColors &colors) { return QColor::fromHslF(0.0f, 0.8f, colors.dark ? 0.64f : 0.45f); }

} // namespace

RooflineView::RooflineView(QWidget *parent)
    : PlotWidget(parent)
    , m_peaks(new QLabel(this))
    , m_messageLabel(new QLabel(this))
    , m_lines(new QLabel(this))
{
    setWindowTitle(tr("Roofline"));
    m_peaks->setObjectName(QStringLiteral("rooflinePeaks"));
    m_peaks->setWordWrap(true);
    m_peaks->setTextInteractionFlags(Qt::TextSelectableByMouse);
    controls()->insertWidget(0, m_peaks, 1);
    m_messageLabel->setObjectName(QStringLiteral("rooflineMessage"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setAlignment(Qt::AlignCenter);
    m_messageLabel->setMargin(24);
    m_lines->setObjectName(QStringLiteral("rooflineLines"));
    m_lines->setWordWrap(true);
    m_lines->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lines->setMargin(6);
    auto *box = qobject_cast<QVBoxLayout *>(layout());
    box->addWidget(m_messageLabel, 1);
    box->addWidget(m_lines);

    QCustomPlot *p = plot();
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        axis->setNumberFormat(QStringLiteral("gb"));
    }
    p->xAxis->setLabel(tr("Arithmetic intensity (FLOP/byte)"));
    p->yAxis->setLabel(tr("Performance (TFLOP/s)"));
    p->legend->setVisible(true);
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
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
    QHash<QString, QString> labels;
    for (int i = 0; i < p->itemCount(); ++i) {
        if (const auto *text = qobject_cast<QCPItemText *>(p->item(i));
            text && text->property(kLabelProperty).isValid())
            labels.insert(text->property(kLabelProperty).toString(), text->text());
    }
    for (int g = 0; g < p->graphCount(); ++g) {
        const QCPGraph *graph = p->graph(g);
        const QVariant series = graph->property(kSeriesProperty);
        if (!series.isValid())
            continue;
        int index = 0;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it, ++index)
            points.append({graph->name(), labels.value(QStringLiteral("%1:%2").arg(series.toInt()).arg(index)), it->key,
                it->value});
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
    applyFrameColors(p, colors());

    // The figures are read even where nothing can be drawn (a copy kernel's bandwidth, a failed case's reason).
    QStringList text;
    for (const RooflineSeries &s : std::as_const(m_data.series)) {
        for (const RooflineCase &c : s.cases)
            text.append(rooflineLine(s, c));
    }
    m_lines->setText(text.join(QLatin1Char('\n')));
    m_lines->setVisible(!text.isEmpty());

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
    for (const RooflineSeries &s : std::as_const(m_data.series)) {
        for (const RooflineCase &c : s.cases) {
            if (!c.point || !c.point->intensity)
                continue;
            minIntensity = std::min(minIntensity, *c.point->intensity);
            maxIntensity = std::max(maxIntensity, *c.point->intensity);
            minRate = std::min(minRate, *c.point->achievedTflops);
        }
    }
    const double topPeak = std::max({peaks.fp32Tflops, peaks.tflops(m_data.precision), minRate});
    const double topRidge = topPeak * 1e3 / peaks.bandwidthGBs;
    const double xMin = std::min(minIntensity / 4.0, topRidge / 100.0);
    const double xMax = std::max(maxIntensity * 4.0, topRidge * 8.0);
    const double yMin = std::min(minRate / 4.0, xMin * peaks.bandwidthGBs / 1e3);
    p->xAxis->setRange(xMin, xMax);
    p->yAxis->setRange(yMin, topPeak * 2.5);
    drawRoofs(xMin, xMax);
    drawPoints();
    p->replot(QCustomPlot::rpQueuedReplot);
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

void RooflineView::drawPoints()
{
    QCustomPlot *p = plot();
    const QColor muted = colors().muted;
    // Positions of each series' points by case, so arrows can join the parent's point to the kernel's.
    QHash<QString, QPointF> kernelAt;
    QHash<QString, QPointF> parentAt;
    for (int s = 0; s < m_data.series.size(); ++s) {
        const RooflineSeries &series = m_data.series[s];
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
        int index = 0;
        for (const RooflineCase &c : series.cases) {
            if (!c.point || !c.point->intensity)
                continue;
            const double x = *c.point->intensity;
            const double y = *c.point->achievedTflops;
            g->addData(x, y);
            auto *label = new QCPItemText(p);
            label->position->setCoords(x, y);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setPadding(QMargins(7, 0, 0, 3));
            label->setText(c.point->implausible ? c.caseName + tr(" ⚠ implausible") : c.caseName);
            label->setColor(c.point->implausible ? implausibleColor(colors()) : color);
            label->setClipToAxisRect(false);
            label->setProperty(kLabelProperty, QStringLiteral("%1:%2").arg(s).arg(index++));
            if (series.role == RooflineSeries::Role::Kernel)
                kernelAt.insert(c.caseName, {x, y});
            else if (series.role == RooflineSeries::Role::Parent)
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
        arrow->setProperty(kArrowProperty, it.key());
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
