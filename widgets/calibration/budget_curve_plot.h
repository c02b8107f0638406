// BudgetCurvePlot: ranking utility (an app-side reconstruction) — best found ÷ pool best against the fraction of each
// pool measured, pooled and per problem, with the random-ranking baseline; a click on a point drills down to the
// candidates that budget would measure.
#pragma once

#include "widgets/calibration/budget_curve_data.h"
#include "widgets/plots/plot_widget.h"

#include <array>

class QCheckBox;
class QCPGraph;
class QCPItemStraightLine;
class QCPTextElement;

namespace gpuf {

class BudgetCurvePlot : public PlotWidget
{
    Q_OBJECT

public:
    static constexpr int kGridPoints = 200;

    explicit BudgetCurvePlot(QWidget *parent = nullptr);

    bool showsProblems() const { return m_showProblems; }
    void setShowProblems(bool show);

    // For tests and tools (nullptr / empty when absent).
    QCPGraph *pooledCurve(int index) const;
    QCPGraph *randomCurve() const { return m_random; }
    QList<QCPGraph *> problemCurves(int index) const;
    const BudgetCurves &curves(int index) const { return m_data[std::size_t(index)]; }
    QString title() const;

    // The candidates series `index` measures at `fraction` (in `problemId`'s pools, or every pool when 0).
    DrillDown budgetDrillDown(int index, double fraction, RowId problemId = 0) const;

protected:
    void rebuild() override;

private:
    void handleClick(const QPoint &pos);

    QCheckBox *m_problemsBox;
    QCPTextElement *m_title;
    bool m_showProblems = true;
    std::array<BudgetCurves, kMaxPlotSeries> m_data;
    std::array<QHash<qint64, RowId>, kMaxPlotSeries> m_problemOfPool;
    std::array<QCPGraph *, kMaxPlotSeries> m_pooled {};
    std::array<QList<QCPGraph *>, kMaxPlotSeries> m_problems;
    QCPGraph *m_random = nullptr;
    QPoint m_pressPos;
};

} // namespace gpuf
