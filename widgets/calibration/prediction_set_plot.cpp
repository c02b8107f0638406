// PredictionSetPlot; see prediction_set_plot.h.
#include "widgets/calibration/prediction_set_plot.h"

#include "core/bins/bins.h"
#include "core/metrics/prediction_sets.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <cmath>

namespace gpuf {

PredictionSetPlot::PredictionSetPlot(QWidget *parent)
    : PlotWidget(parent)
    , m_title(new QCPTextElement(plot(), QString(), QFont(font().family(), 10)))
{
    setWindowTitle(tr("Prediction sets"));
    plot()->plotLayout()->insertRow(0);
    plot()->plotLayout()->addElement(0, 0, m_title);
    // A set holds one bin at least and all eight at most.
    plot()->xAxis->setRange(0.8, double(bins::kBinCount) + 0.2);
    plot()->yAxis->setRange(0.0, 1.02);
    plot()->xAxis->setLabel(tr("mean set width (bins)"));
    plot()->yAxis->setLabel(tr("coverage"));
    plot()->legend->setVisible(true);
    // Top left: narrow sets that cover everything are the corner no real forecaster reaches.
    plot()->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setToolTip(tr("Coverage: the share of scored pairs whose measured bin lies in the set. Its own sets are the "
                  "shortest runs of bins holding the target probability; conformal sets are calibrated on measured "
                  "pairs and read out of sample. A set family worth trusting reaches its dotted target line; the "
                  "narrower, the more it says."));
    rebuild();
}

QCPGraph *PredictionSetPlot::targetLine(int index) const
{
    return index >= 0 && index < m_targets.size() ? m_targets[index] : nullptr;
}

QString PredictionSetPlot::title() const { return m_title->text(); }

void PredictionSetPlot::rebuild()
{
    plot()->clearPlottables();
    m_own = m_conformal = nullptr;
    m_targets.clear();
    const PlotSeries *series = input().series.isEmpty() ? nullptr : &input().series.first();
    if (!series || !series->report || series->report->predictionSets.empty()) {
        m_title->setText(tr("Prediction sets: choose a forecaster with scored pairs"));
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const std::vector<metrics::CoverageRow> &rows = series->report->predictionSets;
    for (const metrics::CoverageRow &row : rows) {
        QCPGraph *line = plot()->addGraph();
        const double target = 1.0 - row.alpha;
        line->setData(QVector<double> {0.8, double(bins::kBinCount) + 0.2}, QVector<double> {target, target}, true);
        line->setPen(QPen(colors().muted, 1.0, Qt::DotLine));
        line->removeFromLegend();
        line->setName(tr("%1 % target").arg(target * 100.0, 0, 'f', 0));
        m_targets.append(line);
    }
    // In order of the targets: each curve runs from the loosest target's set to the strictest's.
    const auto curve = [this, &rows](bool conformal, const QColor &color, QCPScatterStyle::ScatterShape shape) {
        QVector<double> x, y;
        for (const metrics::CoverageRow &row : rows) {
            const double width = conformal ? row.conformalWidth : row.forecastWidth;
            const double coverage = conformal ? row.conformalCoverage : row.forecastCoverage;
            if (std::isfinite(width) && std::isfinite(coverage)) {
                x.append(width);
                y.append(coverage);
            }
        }
        QCPGraph *graph = plot()->addGraph();
        graph->setData(x, y, true);
        graph->setLineStyle(QCPGraph::lsLine);
        graph->setPen(QPen(color, 1.8, conformal ? Qt::DashLine : Qt::SolidLine));
        graph->setScatterStyle(QCPScatterStyle(shape, color, 7));
        return graph;
    };
    m_own = curve(false, colors().series[0], QCPScatterStyle::ssCircle);
    m_own->setName(tr("own sets"));
    m_conformal = curve(true, colors().series[1], QCPScatterStyle::ssSquare);
    m_conformal->setName(tr("conformal sets"));
    QStringList targets;
    for (const metrics::CoverageRow &row : rows)
        targets.append(QStringLiteral("%1 %").arg((1.0 - row.alpha) * 100.0, 0, 'f', 0));
    // Two short lines: the plot shares a bottom dock's tab with the figures.
    m_title->setText(tr("Prediction sets of %1\n%n pair(s); targets %2 dotted", nullptr, int(rows.front().count))
                         .arg(series->name, targets.join(QStringLiteral(", "))));
    applyFrameColors(plot(), colors());
    QColor behindLegend = colors().background;
    behindLegend.setAlpha(185);
    plot()->legend->setBrush(behindLegend);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace gpuf
