// CumulativeReliabilityPlot; see cumulative_reliability_plot.h.
#include "widgets/calibration/cumulative_reliability_plot.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QCheckBox>
#include <QHBoxLayout>

#include <cmath>

namespace gpuf {

CumulativeReliabilityPlot::CumulativeReliabilityPlot(QWidget *parent)
    : PlotWidget(parent)
    , m_title(new QCPTextElement(plot(), QString(), QFont(font().family(), 10)))
    , m_binFree(new QCheckBox(tr("&Bin-free (isotonic)"), this))
{
    m_binFree->setToolTip(tr("Each edge's isotonic (pool-adjacent-violators) fit of what happened on the forecast "
                             "probability, as a step line: the CORP reliability curve, which needs no buckets"));
    controls()->insertWidget(0, m_binFree);
    connect(m_binFree, &QCheckBox::toggled, this, [this] { rebuild(); });
    setWindowTitle(tr("Cumulative reliability"));
    plot()->plotLayout()->insertRow(0);
    plot()->plotLayout()->addElement(0, 0, m_title);
    plot()->xAxis->setRange(0.0, 1.0);
    plot()->yAxis->setRange(0.0, 1.0);
    plot()->xAxis->setLabel(tr("forecast P(speedup ≥ edge)"));
    plot()->yAxis->setLabel(tr("observed share reaching the edge"));
    plot()->legend->setVisible(true);
    // Bottom right: where forecasts are high and the outcome rare, the corner a forecaster worth reading leaves empty.
    plot()->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    rebuild();
}

QCPGraph *CumulativeReliabilityPlot::edgeCurve(int edge) const
{
    return edge >= 1 && edge <= metrics::kEdgeCount ? m_curves[std::size_t(edge - 1)] : nullptr;
}

QCPGraph *CumulativeReliabilityPlot::isotonicCurve(int edge) const
{
    return edge >= 1 && edge <= metrics::kEdgeCount ? m_isotonic[std::size_t(edge - 1)] : nullptr;
}

QString CumulativeReliabilityPlot::title() const { return m_title->text(); }

void CumulativeReliabilityPlot::rebuild()
{
    plot()->clearPlottables();
    m_curves.fill(nullptr);
    m_isotonic.fill(nullptr);
    QCPGraph *diagonal = plot()->addGraph();
    diagonal->setData(QVector<double> {0.0, 1.0}, QVector<double> {0.0, 1.0}, true);
    diagonal->setPen(QPen(colors().muted, 1.2, Qt::DashLine));
    diagonal->setName(tr("perfect calibration"));
    const PlotSeries *series = input().series.isEmpty() ? nullptr : &input().series.first();
    if (!series || !series->report) {
        m_title->setText(tr("Cumulative reliability: choose a forecaster with scored pairs"));
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    for (const metrics::EdgeReliability &e : series->report->cumulativeReliability) {
        QVector<double> x, y, bandX, bandY, minus, plus;
        for (const metrics::CumulativeBucket &b : e.buckets) {
            if (b.count == 0)
                continue;
            x.append(b.meanForecast);
            y.append(b.observed);
            // The band is where the observed share would fall if the forecasts were right: around the diagonal.
            bandX.append(b.meanForecast);
            bandY.append(b.meanForecast);
            minus.append(b.meanForecast - b.bandLow);
            plus.append(b.bandHigh - b.meanForecast);
        }
        const QColor color
            = QColor::fromHslF(float(e.edge - 1) / float(metrics::kEdgeCount), 0.65f, colors().dark ? 0.65f : 0.42f);
        QCPGraph *curve = plot()->addGraph();
        curve->setData(x, y, true);
        curve->setPen(QPen(color, 1.6));
        curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, 5));
        // The edge as the bins name it (1.41×), not with the digits that would place a speedup in its bin.
        curve->setName(tr("≥ %1× (%2 of %n bucket(s) outside band)", nullptr, int(x.size()))
                           .arg(QString::number(e.speedup, 'f', 2))
                           .arg(e.bucketsOutsideBand()));
        QCPGraph *anchor = plot()->addGraph();
        anchor->setData(bandX, bandY, true);
        anchor->setLineStyle(QCPGraph::lsNone);
        anchor->removeFromLegend();
        auto *band = new QCPErrorBars(plot()->xAxis, plot()->yAxis);
        band->removeFromLegend();
        band->setDataPlottable(anchor);
        band->setData(minus, plus);
        band->setWhiskerWidth(4);
        band->setPen(QPen(QColor(color.red(), color.green(), color.blue(), 110), 1.0));
        m_curves[std::size_t(e.edge - 1)] = curve;
        if (m_binFree->isChecked() && !e.isotonic.empty()) {
            // Each block's fitted frequency across its span of forecasts, as steps.
            QVector<double> fx, fy;
            for (const metrics::IsotonicBlock &block : e.isotonic) {
                fx << block.forecastLow << block.forecastHigh;
                fy << block.fitted << block.fitted;
            }
            QCPGraph *fit = plot()->addGraph();
            fit->setData(fx, fy, true);
            fit->setPen(QPen(color, 2.2, Qt::DotLine));
            fit->removeFromLegend();
            m_isotonic[std::size_t(e.edge - 1)] = fit;
        }
    }
    // Two lines: one would be clipped at both ends in a dock beside the Forecast dock.
    m_title->setText((m_binFree->isChecked()
            ? tr("Cumulative reliability of %1: one curve per bin edge\n%2 buckets with 90 % bands; dotted: the "
                 "bin-free isotonic fit")
            : tr("Cumulative reliability of %1: one curve per bin edge\n%2 buckets, 90 % consistency bands "
                 "around the diagonal (parsed forecasts)"))
                         .arg(series->name)
                         .arg(metrics::kCumulativeBuckets));
    applyFrameColors(plot(), colors());
    // Eight entries cover part of the curves in any corner: the curves show through.
    QColor behindLegend = colors().background;
    behindLegend.setAlpha(185);
    plot()->legend->setBrush(behindLegend);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace gpuf
