// BudgetCurvePlot; see budget_curve_plot.h.
#include "widgets/calibration/budget_curve_plot.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QCheckBox>
#include <QLocale>

#include <cmath>

namespace gpuf {

namespace {

QString formatUtility(double u) { return std::isfinite(u) ? QString::number(u, 'f', 3) : QStringLiteral("—"); }

} // namespace

BudgetCurvePlot::BudgetCurvePlot(QWidget *parent)
    : PlotWidget(parent)
    , m_problemsBox(new QCheckBox(tr("Show each &problem"), this))
    , m_title(new QCPTextElement(plot(), QString(), QFont(font().family(), 10)))
{
    setWindowTitle(tr("Ranking utility"));
    m_problemsBox->setChecked(m_showProblems);
    m_problemsBox->setToolTip(tr("Thin lines: the curve of each problem's pools; thick: every pool pooled"));
    controls()->insertWidget(0, m_problemsBox);
    connect(m_problemsBox, &QCheckBox::toggled, this, &BudgetCurvePlot::setShowProblems);

    plot()->plotLayout()->insertRow(0);
    plot()->plotLayout()->addElement(0, 0, m_title);
    plot()->xAxis->setLabel(tr("fraction of each pool measured"));
    plot()->xAxis->setRange(0.0, 1.0);
    plot()->yAxis->setLabel(tr("best found ÷ pool best"));
    plot()->yAxis->setRange(0.0, 1.04);
    plot()->legend->setVisible(true);
    plot()->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);

    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent *event) { m_pressPos = event->pos(); });
    connect(plot(), &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        if (event->button() == Qt::LeftButton && (event->pos() - m_pressPos).manhattanLength() <= 3)
            handleClick(event->pos());
    });
    rebuild();
}

void BudgetCurvePlot::setShowProblems(bool show)
{
    if (show == m_showProblems)
        return;
    m_showProblems = show;
    m_problemsBox->setChecked(show);
    rebuild();
}

QCPGraph *BudgetCurvePlot::pooledCurve(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_pooled[std::size_t(index)] : nullptr;
}

QList<QCPGraph *> BudgetCurvePlot::problemCurves(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_problems[std::size_t(index)] : QList<QCPGraph *> {};
}

QString BudgetCurvePlot::title() const { return m_title->text(); }

void BudgetCurvePlot::rebuild()
{
    plot()->clearPlottables();
    plot()->clearItems();
    m_pooled.fill(nullptr);
    m_random = nullptr;
    QStringList lines {tr("Ranking utility by measurement budget (app-side reconstruction; pools ranked by expected "
                          "bin)")};
    const QLocale locale;
    for (int k = 0; k < kMaxPlotSeries; ++k) {
        m_problems[std::size_t(k)].clear();
        m_data[std::size_t(k)] = {};
        if (k >= input().series.size() || !input().series[k].report)
            continue;
        const PlotSeries &series = input().series[k];
        m_problemOfPool[std::size_t(k)] = series.rows ? problemsOfPools(*series.rows) : QHash<qint64, RowId> {};
        BudgetCurves &data = m_data[std::size_t(k)];
        data = budgetCurves(*series.report, m_problemOfPool[std::size_t(k)], kGridPoints, k == 0);

        if (m_showProblems) {
            for (const BudgetCurve &curve : data.problems) {
                QCPGraph *graph = plot()->addGraph();
                graph->setData(curve.fraction, curve.utility, true);
                graph->setPen(QPen(colors().seriesColor(k, 70), 1.0));
                graph->setName(input().problemNames.value(curve.problemId, tr("problem %1").arg(curve.problemId)));
                graph->removeFromLegend();
                m_problems[std::size_t(k)].append(graph);
            }
        }
        if (k == 0 && !data.random.fraction.isEmpty()) {
            m_random = plot()->addGraph();
            m_random->setData(data.random.fraction, data.random.utility, true);
            m_random->setPen(QPen(colors().muted, 1.5, Qt::DashLine));
            m_random->setName(tr("random order"));
        }
        QCPGraph *pooled = plot()->addGraph();
        pooled->setData(data.pooled.fraction, data.pooled.utility, true);
        pooled->setPen(QPen(colors().seriesColor(k), 2.5));
        const double at10 = series.report->scalar(metrics::Scalar::UtilityAt10Pct);
        pooled->setName(tr("%1, pooled (utility@10% %2)").arg(series.name, formatUtility(at10)));
        m_pooled[std::size_t(k)] = pooled;
        lines.append(tr("%1: %2 pools in %3 problems, utility@10% %4")
                         .arg(series.name, locale.toString(data.pooled.pools),
                             locale.toString(qsizetype(data.problems.size())), formatUtility(at10)));
    }
    // The 10% budget the headline figure quotes.
    auto *marker = new QCPItemStraightLine(plot());
    marker->point1->setCoords(metrics::kUtilityFraction, 0.0);
    marker->point2->setCoords(metrics::kUtilityFraction, 1.0);
    marker->setPen(QPen(colors().grid, 1.0, Qt::DashDotLine));
    m_title->setText(lines.join(QLatin1Char('\n')));
    applyFrameColors(plot(), colors());
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

DrillDown BudgetCurvePlot::budgetDrillDown(int index, double fraction, RowId problemId) const
{
    DrillDown drill;
    if (index < 0 || index >= input().series.size() || !input().series[index].report)
        return drill;
    const PlotSeries &series = input().series[index];
    drill.candidateIds = measuredCandidates(*series.report, m_problemOfPool[std::size_t(index)], fraction, problemId);
    const QString where
        = problemId == 0 ? tr("every pool") : input().problemNames.value(problemId, tr("problem %1").arg(problemId));
    drill.description
        = tr("top %1% by expected bin in %2 (%3)").arg(QString::number(100.0 * fraction, 'f', 1), where, series.name);
    return drill;
}

void BudgetCurvePlot::handleClick(const QPoint &pos)
{
    if (!plot()->axisRect()->rect().contains(pos))
        return;
    const double fraction = plot()->xAxis->pixelToCoord(pos.x());
    if (!(fraction > 0.0 && fraction <= 1.0))
        return;
    const int j = std::clamp(int(std::lround(fraction * kGridPoints)), 1, kGridPoints);
    // The curve passing nearest the click at that fraction: pooled curves win ties over per-problem ones.
    int bestSeries = -1;
    RowId bestProblem = 0;
    double bestDistance = 8.0;
    const auto consider = [&](int k, const BudgetCurve &curve, RowId problem) {
        if (curve.utility.size() < j)
            return;
        const double distance = std::abs(plot()->yAxis->coordToPixel(curve.utility[j - 1]) - pos.y());
        if (distance < bestDistance) {
            bestDistance = distance;
            bestSeries = k;
            bestProblem = problem;
        }
    };
    for (int k = 0; k < input().series.size(); ++k)
        consider(k, m_data[std::size_t(k)].pooled, 0);
    if (m_showProblems && bestSeries < 0) {
        for (int k = 0; k < input().series.size(); ++k)
            for (const BudgetCurve &curve : m_data[std::size_t(k)].problems)
                consider(k, curve, curve.problemId);
    }
    if (bestSeries >= 0)
        drillDown(budgetDrillDown(bestSeries, double(j) / kGridPoints, bestProblem));
}

} // namespace gpuf
