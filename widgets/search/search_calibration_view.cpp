// SearchCalibrationView; see search_calibration_view.h.
#include "widgets/search/search_calibration_view.h"
#include "widgets/plots/plot_qcustomplot.h"
#include "widgets/plots/plot_style.h"

#include <QLabel>
#include <QLocale>

#include <cmath>

namespace gpuf {

namespace {

QString ratio(double v) { return std::isfinite(v) ? QLocale().toString(v, 'f', 3) : QStringLiteral("—"); }

QString percentText(double v)
{
    return std::isfinite(v) ? QLocale().toString(v * 100.0, 'f', 0) + QLatin1Char('%') : QStringLiteral("—");
}

double figureOf(const search::CalibrationFigures &f, SearchCalibrationView::Figure figure)
{
    switch (figure) {
    case SearchCalibrationView::Accuracy:
        return f.accuracy;
    case SearchCalibrationView::Ece:
        return f.ece;
    case SearchCalibrationView::Brier:
        return f.brier;
    case SearchCalibrationView::FigureCount:
        break;
    }
    return std::nan("");
}

} // namespace

SearchCalibrationView::SearchCalibrationView(QWidget *parent)
    : PlotWidget(parent)
    , m_figures(new QLabel(this))
{
    setWindowTitle(tr("Forecaster calibration during the search"));
    m_figures->setWordWrap(true);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    controls()->insertWidget(0, m_figures, 1);
    plot()->setMinimumSize(260, 160);
    plot()->xAxis->setLabel(tr("step"));
    plot()->yAxis->setRange(0.0, 1.0);
    // Steps are whole numbers; the legend gets a row of its own above the plot, where it hides no point.
    QSharedPointer<QCPAxisTickerFixed> steps(new QCPAxisTickerFixed);
    steps->setTickStep(1.0);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot()->xAxis->setTicker(steps);
    placeLegendAbove(plot());
    const char *const names[] = {QT_TR_NOOP("accuracy"), QT_TR_NOOP("ECE"), QT_TR_NOOP("Brier (½Σ)")};
    for (int f = 0; f < FigureCount; ++f) {
        m_cumulative[size_t(f)] = plot()->addGraph();
        m_cumulative[size_t(f)]->setName(tr(names[f]));
        m_perStep[size_t(f)] = plot()->addGraph();
        m_perStep[size_t(f)]->setName(tr("%1 in the step").arg(tr(names[f])));
        m_perStep[size_t(f)]->setLineStyle(QCPGraph::lsNone);
        m_perStep[size_t(f)]->removeFromLegend();
    }
    m_figures->setText(tr("No measured forecasts yet"));
    rebuild();
}

void SearchCalibrationView::setSearch(const search::SearchState &state, const QList<SearchEvent> &events)
{
    m_history.clear();
    m_tracker.clear();
    m_history.append(events);
    refresh(state);
}

void SearchCalibrationView::applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents)
{
    if (newEvents.isEmpty())
        return;
    m_history.append(newEvents);
    refresh(state);
}

void SearchCalibrationView::refresh(const search::SearchState &state)
{
    m_tracker.update(state, m_history);
    const search::CalibrationFigures total = m_tracker.total();
    if (total.rows == 0) {
        m_figures->setText(state.config.needsForecasts() ? tr("No measured forecasts yet")
                                                         : tr("This search makes no forecasts (standard mode)"));
    } else {
        QString text
            = tr("Cumulative, %n measured forecast(s): accuracy %1 · ECE %2 · Brier %3", nullptr, int(total.rows))
                  .arg(percentText(total.accuracy), ratio(total.ece), ratio(total.brier));
        // The latest step that measured forecasts, beside the whole: the drift a user watches for.
        for (qsizetype s = m_tracker.steps().size() - 1; s >= 0; --s) {
            const search::StepCalibration &c = m_tracker.steps()[s];
            if (c.atStep.rows > 0) {
                text += QLatin1Char('\n')
                    + tr("Step %1, %n forecast(s): accuracy %2 · ECE %3 · Brier %4", nullptr, int(c.atStep.rows))
                          .arg(c.step)
                          .arg(percentText(c.atStep.accuracy), ratio(c.atStep.ece), ratio(c.atStep.brier));
                break;
            }
        }
        m_figures->setText(text);
    }
    rebuild();
}

QString SearchCalibrationView::figuresText() const { return m_figures->text(); }

QColor SearchCalibrationView::figureColor(Figure figure) const
{
    if (figure < 2)
        return colors().seriesColor(figure);
    return QColor::fromHslF(140.0f / 360.0f, 0.6f, colors().dark ? 0.60f : 0.36f);
}

void SearchCalibrationView::rebuild()
{
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
    const QCPScatterStyle::ScatterShape shapes[]
        = {QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle};
    int lastStep = 0;
    for (int f = 0; f < FigureCount; ++f) {
        QVector<double> steps, cumulative, perStepKeys, perStep;
        for (const search::StepCalibration &c : m_tracker.steps()) {
            lastStep = std::max(lastStep, c.step);
            const double total = figureOf(c.cumulative, Figure(f));
            if (std::isfinite(total)) {
                steps.append(c.step);
                cumulative.append(total);
            }
            const double own = figureOf(c.atStep, Figure(f));
            if (std::isfinite(own)) {
                perStepKeys.append(c.step);
                perStep.append(own);
            }
        }
        const QColor color = figureColor(Figure(f));
        QCPGraph *line = m_cumulative[size_t(f)];
        line->setPen(QPen(color, 2.0, styles[f]));
        line->setData(steps, cumulative, true);
        QCPGraph *points = m_perStep[size_t(f)];
        QColor faint = color;
        faint.setAlpha(150);
        points->setPen(QPen(faint));
        points->setScatterStyle(QCPScatterStyle(shapes[f], faint, 5));
        points->setData(perStepKeys, perStep, true);
    }
    plot()->xAxis->setRange(-0.3, std::max(1, lastStep) + 0.3);
    plot()->yAxis->setRange(0.0, 1.02);
    applyFrameColors(plot(), colors());
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace gpuf
