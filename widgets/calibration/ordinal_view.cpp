// OrdinalView; see ordinal_view.h.
#include "widgets/calibration/ordinal_view.h"

#include "core/session/calibration_data.h"
#include "widgets/calibration/calibration_view.h"
#include "widgets/calibration/prediction_set_plot.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace gpuf {

namespace ordinal_view_detail {

QTableWidget *figureTable(QWidget *parent, const QStringList &columns)
{
    auto *table = new QTableWidget(0, int(columns.size()), parent);
    table->setHorizontalHeaderLabels(columns);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

void setFigureRow(QTableWidget *table, int row, const QString &header, const QStringList &cells)
{
    table->setVerticalHeaderItem(row, new QTableWidgetItem(header));
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, c, item);
    }
}

QString ordinalPercent(double v)
{
    return std::isfinite(v) ? QStringLiteral("%1 %").arg(v * 100.0, 0, 'f', 1) : QStringLiteral("—");
}

const metrics::ForecasterReport *ordinalReportOf(
    const CalibrationSnapshot &snapshot, metrics::Comparison comparison, RowId forecasterId)
{
    for (const metrics::ForecasterReport &r : snapshot.metrics.reportsFor(comparison)) {
        if (r.forecaster.id == forecasterId)
            return &r;
    }
    return nullptr;
}

} // namespace ordinal_view_detail

using ordinal_view_detail::figureTable;
using ordinal_view_detail::ordinalPercent;
using ordinal_view_detail::ordinalReportOf;
using ordinal_view_detail::setFigureRow;

OrdinalView::OrdinalView(QWidget *parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_skill(figureTable(this,
          {tr("forecaster"), tr("base rate"), tr("skill vs base rate"), tr("forecaster (shared pairs)"),
              tr("physics prior"), tr("skill vs prior")}))
    , m_noiseNote(new QLabel(this))
    , m_noise(figureTable(
          this, {tr("pairs"), tr("moved"), tr("accuracy"), tr("within one"), tr("RPS"), tr("Brier Σ"), tr("log")}))
    , m_sets(figureTable(this,
          {tr("own: coverage"), tr("own: width"), tr("conformal: coverage"), tr("conformal: width"), tr("threshold")}))
    , m_setsPlot(new PredictionSetPlot(this))
{
    m_headline->setWordWrap(true);
    m_noiseNote->setWordWrap(true);
    // The figures on the left, the prediction sets' plot beside them: the tab sits in a short bottom dock.
    auto *figures = new QWidget(this);
    auto *layout = new QVBoxLayout(figures);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline);
    layout->addWidget(
        new QLabel(tr("<b>Scores and skill</b> (skill = 1 − score ÷ reference score; 0: no better)"), this));
    layout->addWidget(m_skill);
    layout->addWidget(new QLabel(tr("<b>Label noise</b>: pairs whose 95 % interval straddles a bin edge"), this));
    layout->addWidget(m_noiseNote);
    layout->addWidget(m_noise);
    layout->addWidget(
        new QLabel(tr("<b>Prediction sets over contiguous bins</b> (conformal: out of sample, 5 folds)"), this));
    layout->addWidget(m_sets, 1);
    // Small minimums, so the tab never widens the Calibration dock beyond its place at 1280 px.
    figures->setMinimumWidth(220);
    m_setsPlot->setMinimumWidth(200);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(figures);
    split->addWidget(m_setsPlot);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);
}

QString OrdinalView::headline() const { return m_headline->text(); }

void OrdinalView::showForecaster(
    const std::shared_ptr<const CalibrationSnapshot> &snapshot, metrics::Comparison comparison, RowId forecasterId)
{
    for (QTableWidget *t : {m_skill, m_noise, m_sets})
        t->setRowCount(0);
    m_noiseNote->clear();
    const metrics::ForecasterReport *r = snapshot ? ordinalReportOf(*snapshot, comparison, forecasterId) : nullptr;
    // The plot draws what the table lists: the same forecaster's report on the same pairs.
    // On the pairs two forecasters both forecast, the input names both (this one first, the one the plot draws).
    QList<RowId> ids {forecasterId};
    if (r && comparison == metrics::Comparison::ComparedPairs) {
        for (const qint64 other : snapshot->metrics.compared) {
            if (other != forecasterId)
                ids.append(other);
        }
    }
    m_setsPlot->setInput(r ? calibrationPlotInput(snapshot, comparison, ids) : PlotInput());
    if (!r) {
        m_headline->setText(tr("No forecaster with scored pairs is chosen."));
        return;
    }
    m_headline->setText(tr("%1: %2 scored pair(s), %3 parsed; straddling pairs counted %4.")
                            .arg(r->forecaster.name)
                            .arg(r->report.nTotal)
                            .arg(r->report.nParsed)
                            .arg(metrics::straddlingRuleText(snapshot->request.straddling)));
    showSkill(r->report, *snapshot, comparison, forecasterId);
    showLabelNoise(*snapshot, forecasterId);
    showSets(r->report);
}

void OrdinalView::showSkill(const metrics::MetricsReport &report, const CalibrationSnapshot &snapshot,
    metrics::Comparison comparison, RowId forecasterId)
{
    using metrics::formatValue;
    const metrics::ReferenceSkill prior = snapshot.physicsPriorFor(comparison).value(forecasterId);
    const auto s = [&report](metrics::Scalar scalar) { return formatValue(report.scalar(scalar)); };
    m_skill->setRowCount(3);
    setFigureRow(m_skill, 0, tr("RPS"),
        {s(metrics::Scalar::Crps), formatValue(report.baseRate.rps), s(metrics::Scalar::RpsSkillBaseRate),
            formatValue(prior.rps), formatValue(prior.referenceRps), formatValue(prior.rpsSkill)});
    setFigureRow(m_skill, 1, tr("Brier Σ"),
        {s(metrics::Scalar::BrierSum), formatValue(report.baseRate.brierSum), s(metrics::Scalar::BrierSkillBaseRate),
            formatValue(prior.brierSum), formatValue(prior.referenceBrierSum), formatValue(prior.brierSkill)});
    setFigureRow(m_skill, 2, tr("log (NLL)"),
        {s(metrics::Scalar::Nll), formatValue(report.baseRate.nll), s(metrics::Scalar::LogSkillBaseRate),
            formatValue(prior.nll), formatValue(prior.referenceNll), formatValue(prior.logSkill)});
    m_skill->setToolTip(prior.n > 0
            ? tr("The physics prior (roofline) forecast %n of these pairs: its columns compare on those.", nullptr,
                int(prior.n))
            : tr("The store holds no physics-prior forecast of these pairs: forecast them with the roofline "
                 "forecaster (or gpuf forecast STORE --forecaster roofline)."));
}

void OrdinalView::showLabelNoise(const CalibrationSnapshot &snapshot, RowId forecasterId)
{
    using metrics::formatValue;
    for (const metrics::LabelNoise &n : snapshot.labelNoise) {
        if (n.forecasterId != forecasterId)
            continue;
        m_noiseNote->setText(tr("%n of its scored pair(s) straddle a bin edge; its figures with them counted in "
                                "each way (all its pairs):",
            nullptr, int(n.straddling)));
        m_noise->setRowCount(int(n.rows.size()));
        for (std::size_t i = 0; i < n.rows.size(); ++i) {
            const metrics::LabelNoiseRow &row = n.rows[i];
            setFigureRow(m_noise, int(i), metrics::straddlingRuleText(row.rule),
                {QString::number(row.scored), QString::number(row.moved), formatValue(row.accuracy),
                    formatValue(row.withinOne), formatValue(row.rps), formatValue(row.brierSum), formatValue(row.nll)});
        }
    }
}

void OrdinalView::showSets(const metrics::MetricsReport &report)
{
    using metrics::formatValue;
    m_sets->setRowCount(int(report.predictionSets.size()));
    for (std::size_t i = 0; i < report.predictionSets.size(); ++i) {
        const metrics::CoverageRow &c = report.predictionSets[i];
        setFigureRow(m_sets, int(i), tr("%1 target").arg(ordinalPercent(1.0 - c.alpha)),
            {ordinalPercent(c.forecastCoverage), formatValue(c.forecastWidth), ordinalPercent(c.conformalCoverage),
                formatValue(c.conformalWidth), formatValue(c.conformalThreshold)});
    }
}

} // namespace gpuf
