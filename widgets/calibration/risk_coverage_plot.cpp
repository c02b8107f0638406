// RiskCoveragePlot; see risk_coverage_plot.h.
#include "widgets/calibration/risk_coverage_plot.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace gpuf {

namespace {

int scoreIndex(bins::ConfidenceScore score)
{
    return int(std::find(bins::kConfidenceScores.begin(), bins::kConfidenceScores.end(), score)
        - bins::kConfidenceScores.begin());
}

QString formatRisk(double risk) { return std::isfinite(risk) ? QString::number(risk, 'f', 3) : QStringLiteral("—"); }

QString formatThreshold(double tau)
{
    if (std::isinf(tau))
        return tau > 0 ? QStringLiteral("+∞") : QStringLiteral("−∞");
    return QString::number(tau, 'f', 3);
}

} // namespace

RiskCoveragePlot::RiskCoveragePlot(QWidget *parent)
    : PlotWidget(parent)
    , m_scoreBox(new QComboBox(this))
    , m_riskBox(new QComboBox(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_tauLabel(new QLabel(this))
    , m_operatingLabel(new QLabel(this))
    , m_title(new QCPTextElement(plot(), QString(), QFont(font().family(), 10)))
{
    setWindowTitle(tr("Risk–coverage"));
    for (bins::ConfidenceScore score : bins::kConfidenceScores)
        m_scoreBox->addItem(bins::confidenceScoreName(score), int(score));
    m_riskBox->addItem(tr("binary mismatch"), int(metrics::RiskKind::BinaryMismatch));
    m_riskBox->addItem(tr("regret"), int(metrics::RiskKind::Regret));
    m_slider->setRange(0, kSliderSteps);
    m_slider->setValue(kSliderSteps / 2);
    m_slider->setMinimumWidth(160);
    m_slider->setToolTip(tr("Threshold τ: forecasts whose confidence is below τ are deferred to a GPU measurement"));
    m_tauLabel->setMinimumWidth(m_tauLabel->fontMetrics().horizontalAdvance(QStringLiteral("τ = 0.000 ")));
    m_operatingLabel->setWordWrap(true);
    m_operatingLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *scoreLabel = new QLabel(tr("&Score:"), this);
    scoreLabel->setBuddy(m_scoreBox);
    auto *riskLabel = new QLabel(tr("&Risk:"), this);
    riskLabel->setBuddy(m_riskBox);
    int at = 0;
    for (QWidget *w :
        std::initializer_list<QWidget *> {scoreLabel, m_scoreBox, riskLabel, m_riskBox, m_tauLabel, m_slider})
        controls()->insertWidget(at++, w);
    // The operating point gets its own line under the controls: it is the figure people read while dragging.
    static_cast<QVBoxLayout *>(layout())->insertWidget(1, m_operatingLabel);
    m_operatingLabel->setContentsMargins(6, 0, 6, 0);

    connect(m_scoreBox, &QComboBox::currentIndexChanged, this,
        [this] { setScore(bins::ConfidenceScore(m_scoreBox->currentData().toInt())); });
    connect(m_riskBox, &QComboBox::currentIndexChanged, this,
        [this] { setRisk(metrics::RiskKind(m_riskBox->currentData().toInt())); });
    connect(m_slider, &QSlider::valueChanged, this, [this] {
        updateOperatingPoint();
        plot()->replot(QCustomPlot::rpQueuedReplot);
    });

    plot()->plotLayout()->insertRow(0);
    plot()->plotLayout()->addElement(0, 0, m_title);
    plot()->xAxis->setLabel(tr("coverage (share of forecasts trusted)"));
    plot()->xAxis->setRange(0.0, 1.0);
    plot()->legend->setVisible(true);
    plot()->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent *event) { m_pressPos = event->pos(); });
    connect(plot(), &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        if (event->button() == Qt::LeftButton && (event->pos() - m_pressPos).manhattanLength() <= 3)
            handleClick(event->pos());
    });
    rebuild();
}

void RiskCoveragePlot::setScore(bins::ConfidenceScore score)
{
    if (score == m_score)
        return;
    m_score = score;
    m_scoreBox->setCurrentIndex(m_scoreBox->findData(int(score)));
    rebuild();
}

void RiskCoveragePlot::setRisk(metrics::RiskKind risk)
{
    if (risk == m_risk)
        return;
    m_risk = risk;
    m_riskBox->setCurrentIndex(m_riskBox->findData(int(risk)));
    rebuild();
}

double RiskCoveragePlot::threshold() const { return double(m_slider->value()) / kSliderSteps; }

void RiskCoveragePlot::setThreshold(double tau)
{
    m_slider->setValue(int(std::lround(std::clamp(tau, 0.0, 1.0) * kSliderSteps)));
}

QCPGraph *RiskCoveragePlot::curve(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_curves[std::size_t(index)] : nullptr;
}

QCPGraph *RiskCoveragePlot::operatingMarker(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_markers[std::size_t(index)] : nullptr;
}

QString RiskCoveragePlot::title() const { return m_title->text(); }

QString RiskCoveragePlot::operatingPointText() const { return m_operatingLabel->text(); }

const metrics::RiskCoverageCurve *RiskCoveragePlot::curveOf(int index) const
{
    if (index < 0 || index >= input().series.size() || !input().series[index].report)
        return nullptr;
    const metrics::MetricsReport &report = *input().series[index].report;
    const auto &curves = m_risk == metrics::RiskKind::Regret ? report.regretCurves : report.mismatchCurves;
    return &curves[std::size_t(scoreIndex(m_score))];
}

void RiskCoveragePlot::rebuild()
{
    plot()->clearPlottables();
    m_curves.fill(nullptr);
    m_markers.fill(nullptr);
    const QString scoreName = bins::confidenceScoreName(m_score);
    QStringList lines {tr("Risk–coverage (confidence = %1, risk = %2)").arg(scoreName, metrics::riskKindName(m_risk))};
    double topRisk = 0.0;
    for (int k = 0; k < input().series.size(); ++k) {
        std::vector<int> &indices = m_pointIndex[std::size_t(k)];
        indices.clear();
        const metrics::RiskCoverageCurve *points = curveOf(k);
        if (!points)
            continue;
        QVector<double> coverage, risk;
        coverage.reserve(qsizetype(points->size()));
        risk.reserve(qsizetype(points->size()));
        // A curve has a point per distinct score (up to one per row); a few thousand are all a screen can show, so
        // points closer in coverage than that are thinned out (the last one always stays).
        double lastCoverage = -1.0;
        for (std::size_t i = 0; i < points->size(); ++i) {
            const metrics::RiskCoveragePoint &point = (*points)[i];
            if (!std::isfinite(point.risk))
                continue;
            if (point.coverage - lastCoverage < 1.0 / kMaxDrawnPoints && i + 1 != points->size())
                continue;
            lastCoverage = point.coverage;
            coverage.append(point.coverage);
            risk.append(point.risk);
            indices.push_back(int(i));
            topRisk = std::max(topRisk, point.risk);
        }
        QCPGraph *graph = plot()->addGraph();
        graph->setData(coverage, risk, true);
        graph->setPen(QPen(colors().seriesColor(k), 2.0));
        const double area = metrics::aurc(*points);
        graph->setName(tr("%1 (AURC %2)").arg(input().series[k].name, formatRisk(area)));
        m_curves[std::size_t(k)] = graph;

        QCPGraph *marker = plot()->addGraph();
        marker->setLineStyle(QCPGraph::lsNone);
        marker->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colors().foreground, 1.5), colors().seriesColor(k), 11));
        marker->removeFromLegend();
        m_markers[std::size_t(k)] = marker;
        lines.append(tr("%1: AURC %2").arg(input().series[k].name, formatRisk(area)));
    }
    plot()->yAxis->setLabel(m_risk == metrics::RiskKind::Regret
            ? tr("regret (speedup given up)")
            : tr("risk (share of trusted forecasts in a wrong bin)"));
    plot()->yAxis->setRange(0.0, topRisk > 0.0 ? topRisk * 1.08 : 1.0);
    m_title->setText(lines.join(QLatin1Char('\n')));
    applyFrameColors(plot(), colors());
    updateOperatingPoint();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

metrics::ThresholdOutcome RiskCoveragePlot::operatingPoint(int index) const
{
    if (index < 0 || index >= input().series.size() || !input().series[index].rows)
        return {};
    const std::vector<metrics::ScoredRow> &rows = *input().series[index].rows;
    return metrics::applyThreshold(rows, m_score, threshold(), input().options);
}

void RiskCoveragePlot::updateOperatingPoint()
{
    m_tauLabel->setText(tr("τ = %1").arg(threshold(), 0, 'f', 3));
    QStringList parts;
    const QLocale locale;
    for (int k = 0; k < input().series.size(); ++k) {
        if (!m_markers[std::size_t(k)])
            continue;
        const metrics::ThresholdOutcome outcome = operatingPoint(k);
        const double risk = m_risk == metrics::RiskKind::Regret ? outcome.regret : outcome.binaryMismatch;
        m_markers[std::size_t(k)]->setData(QVector<double> {outcome.coverage}, QVector<double> {risk}, true);
        parts.append(
            tr("%1: coverage %2%, risk %3, %4 GPU measurements (forecasts deferred, of %5)")
                .arg(input().series[k].name, QString::number(100.0 * outcome.coverage, 'f', 1), formatRisk(risk),
                    locale.toString(outcome.total - outcome.predicted), locale.toString(outcome.total)));
    }
    m_operatingLabel->setText(parts.isEmpty() ? tr("No forecasts to threshold.") : parts.join(QLatin1Char('\n')));
}

DrillDown RiskCoveragePlot::pointDrillDown(int index, int point) const
{
    DrillDown drill;
    const metrics::RiskCoverageCurve *points = curveOf(index);
    if (!points || point < 0 || std::size_t(point) >= points->size() || !input().series[index].rows)
        return drill;
    const double tau = (*points)[std::size_t(point)].threshold;
    const bins::ConfidenceScore score = m_score;
    const auto trusted = [score, tau](const metrics::ScoredRow &row) {
        return row.trueBin >= 1 && row.trueBin <= bins::kBinCount && !metrics::abstains(row, score, tau);
    };
    drill.candidateIds = candidateIdsWhere(*input().series[index].rows, trusted);
    drill.pairs = drillPairsWhere(input().series[index], input(), trusted);
    drill.description = tr("forecasts trusted at %1 ≥ %2 (%3)")
                            .arg(bins::confidenceScoreName(score), formatThreshold(tau), input().series[index].name);
    return drill;
}

void RiskCoveragePlot::handleClick(const QPoint &pos)
{
    if (!plot()->axisRect()->rect().contains(pos))
        return;
    // The drawn point nearest the click, within a few pixels, over every series.
    int bestSeries = -1;
    int bestPoint = -1;
    double bestDistance = 8.0;
    for (int k = 0; k < kMaxPlotSeries; ++k) {
        const QCPGraph *graph = m_curves[std::size_t(k)];
        if (!graph)
            continue;
        const auto data = graph->data();
        for (int i = 0; i < data->size(); ++i) {
            const auto it = data->at(i);
            const QPointF pixel(plot()->xAxis->coordToPixel(it->key), plot()->yAxis->coordToPixel(it->value));
            const double distance = std::hypot(pixel.x() - pos.x(), pixel.y() - pos.y());
            if (distance < bestDistance) {
                bestDistance = distance;
                bestSeries = k;
                bestPoint = m_pointIndex[std::size_t(k)][std::size_t(i)];
            }
        }
    }
    if (bestSeries < 0)
        return;
    const double tau = (*curveOf(bestSeries))[std::size_t(bestPoint)].threshold;
    if (std::isfinite(tau))
        setThreshold(tau);
    drillDown(pointDrillDown(bestSeries, bestPoint));
}

} // namespace gpuf
