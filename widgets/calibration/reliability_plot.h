// ReliabilityPlot: accuracy per max_prob bucket against confidence with the diagonal y = x, bootstrap whiskers,
// a count histogram under it, and ECE with counts in the title; a click on a bucket drills down to its forecasts.
#pragma once

#include "widgets/plots/plot_widget.h"

#include <array>
#include <vector>

class QCPAxisRect;
class QCPBars;
class QCPTextElement;

namespace gpuf {

class ReliabilityPlot : public PlotWidget
{
    Q_OBJECT

public:
    explicit ReliabilityPlot(QWidget *parent = nullptr);

    // For tests and tools: what is drawn for series `index` (nullptr when absent).
    QCPBars *accuracyBars(int index) const;
    QCPBars *countBars(int index) const;
    QCPAxisRect *accuracyRect() const { return m_accuracyRect; }
    QCPAxisRect *countRect() const { return m_countRect; }
    QString title() const;
    // The bar key of series `index` in bucket `bucket`: bucket centres, shifted apart when two series share them.
    double barKey(int index, int bucket) const;

    // The forecasts of series `index` whose max_prob falls in `bucket` (0..9).
    DrillDown bucketDrillDown(int index, int bucket) const;

protected:
    void rebuild() override;

private:
    void handleClick(const QPoint &pos);
    double barWidth() const;
    double fillSeries(int k, const metrics::MetricsReport &report, QCPBars *bars, QCPBars *counts);

    QCPAxisRect *m_accuracyRect;
    QCPAxisRect *m_countRect;
    QCPTextElement *m_title;
    std::array<QCPBars *, kMaxPlotSeries> m_accuracyBars {};
    std::array<QCPBars *, kMaxPlotSeries> m_countBars {};
    QPoint m_pressPos;
};

} // namespace gpuf
