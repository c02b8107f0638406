// ComparePlot: the anytime curves of a strategy comparison — per strategy the best speedup found against GPU
// evaluations (log scale), the mean over the seeds as a line and its 95 % interval as a shaded band, random search's
// exact expectation dashed, the space's optimum as a dotted line — with a legend above. Built on the calibration
// plots' frame (palette-aware colours, PNG/SVG/PDF export, hover names a curve).
//
// On the log axis a curve starts at one evaluation: e = 0 (nothing evaluated, the reference's 1×) has no place there.
#pragma once

#include "core/search/compare.h"
#include "widgets/plots/plot_widget.h"

#include <QHash>

#include <memory>

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;

namespace gpuf {

class ComparePlot : public PlotWidget
{
    Q_OBJECT

public:
    explicit ComparePlot(QWidget *parent = nullptr);

    void setReport(std::shared_ptr<const search::CompareReport> report);
    const search::CompareReport *report() const { return m_report.get(); }

    // The graphs drawing a strategy (nullptr when it is not drawn), for tests and tools: the mean line, and the
    // band's lower and upper edges (the upper one fills down to the lower).
    QCPGraph *meanGraph(const QString &strategy) const;
    QCPGraph *lowGraph(const QString &strategy) const;
    QCPGraph *highGraph(const QString &strategy) const;
    QCPGraph *expectedGraph() const { return m_expected; } // random search's exact expectation
    // A strategy's colour: fixed per strategy name, so a strategy keeps its colour whichever others run beside it.
    QColor strategyColor(const QString &strategy) const;

protected:
    void rebuild() override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Curves
    {
        QCPGraph *mean = nullptr;
        QCPGraph *low = nullptr;
        QCPGraph *high = nullptr;
    };
    void addStrategy(const search::StrategyResult &strategy);
    void addExpected();
    void placeOptimum();
    void fitRanges();
    void wrapLegend();

    std::shared_ptr<const search::CompareReport> m_report;
    QHash<QString, Curves> m_curves;
    QCPGraph *m_expected = nullptr;
    QCPItemStraightLine *m_optimum = nullptr;
    QCPItemText *m_optimumLabel = nullptr;
    QCPItemText *m_placeholder = nullptr;
    QCPTextElement *m_caption = nullptr;
};

} // namespace gpuf
