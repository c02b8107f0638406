// CalibrationView: the calibration and evaluation plots in tabs over CalibrationData's snapshot — one forecaster,
// or two overlaid, on all their pairs or on the pairs both forecast — wired to the shared Selection for drill-down.
#pragma once

#include "core/metrics/from_store.h"
#include "widgets/plots/plot_input.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QTabWidget;

namespace gpuf {

class BudgetCurvePlot;
class CumulativeReliabilityPlot;
class OrdinalView;
class CalibrationData;
struct CalibrationSnapshot;
class ConfusionPlot;
class ReliabilityPlot;
class RiskCoveragePlot;
class Selection;

// The title over the plots naming what they show: the forecasters, the pairs (how many both forecast, or too few to
// rank them), the problem, the GPU and the origin of the candidates, and whether the problem chosen in the Problems
// tree (`treeProblem`, 0: none) scopes them (it does not: the Metrics dock's problem box does).
QString calibrationScopeText(const CalibrationSnapshot &snapshot, metrics::Comparison comparison,
    const QList<RowId> &forecasterIds, RowId treeProblem);
// The words for an origin in the Origin box and the title ("search pairs").
QString pairOriginText(PairOrigin origin);

// The plots' input for the chosen forecasters (one or two, by id; unknown ids are skipped) of a snapshot. The
// reports are shared with the snapshot (no copy); each forecaster's rows are split out once.
PlotInput calibrationPlotInput(const std::shared_ptr<const CalibrationSnapshot> &snapshot,
    metrics::Comparison comparison, const QList<RowId> &forecasterIds);

class CalibrationView : public QWidget
{
    Q_OBJECT

public:
    CalibrationView(CalibrationData *data, Selection *selection, QWidget *parent = nullptr);
    ~CalibrationView() override;

    ReliabilityPlot *reliabilityPlot() const { return m_reliability; }
    ConfusionPlot *confusionPlot() const { return m_confusion; }
    RiskCoveragePlot *riskCoveragePlot() const { return m_riskCoverage; }
    BudgetCurvePlot *budgetCurvePlot() const { return m_budget; }
    CumulativeReliabilityPlot *cumulativeReliabilityPlot() const { return m_cumulative; }
    OrdinalView *ordinalView() const { return m_ordinal; }
    QTabWidget *tabs() const { return m_tabs; }
    QString statusText() const; // loading, errors, and how many truths rest on replayed runtimes
    QString scopeText() const; // the title over the plots (calibrationScopeText)
    QComboBox *originBox() const { return m_originBox; }

    // The forecasters shown: the first, and the one overlaid (0 = none).
    void setForecasters(RowId first, RowId second = 0);
    void setComparison(metrics::Comparison comparison);

private:
    void buildLayout();
    void snapshotChanged();
    void refillForecasters();
    void showWindowForecaster(const QString &name);
    void refresh();
    void requestScope(); // the compared forecasters and the origin, into the shared request
    void updateScope();

    QPointer<CalibrationData> m_data;
    QPointer<Selection> m_selection;
    std::shared_ptr<const CalibrationSnapshot> m_snapshot;
    QComboBox *m_firstBox;
    QComboBox *m_secondBox;
    QComboBox *m_comparisonBox;
    QComboBox *m_originBox;
    QLabel *m_status;
    QLabel *m_scope;
    QTabWidget *m_tabs;
    ReliabilityPlot *m_reliability;
    ConfusionPlot *m_confusion;
    RiskCoveragePlot *m_riskCoverage;
    BudgetCurvePlot *m_budget;
    CumulativeReliabilityPlot *m_cumulative;
    OrdinalView *m_ordinal;
};

} // namespace gpuf
