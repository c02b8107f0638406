// CumulativeReliabilityPlot: the first forecaster's cumulative reliability (issue 28), one curve per bin edge — the
// forecast probability that the speedup reaches the edge against how often it did, per probability bucket — with the
// diagonal, each bucket's 90 % consistency band as a whisker around the diagonal, and the buckets outside their band
// counted per edge in the legend.
#pragma once

#include "widgets/plots/plot_widget.h"

#include <array>

class QCPGraph;
class QCPTextElement;

namespace gpuf {

class CumulativeReliabilityPlot : public PlotWidget
{
    Q_OBJECT

public:
    explicit CumulativeReliabilityPlot(QWidget *parent = nullptr);

    // For tests: the curve of edge 1..7 (nullptr before a forecaster is shown) and the title.
    QCPGraph *edgeCurve(int edge) const;
    QString title() const;

protected:
    void rebuild() override;

private:
    QCPTextElement *m_title;
    std::array<QCPGraph *, 7> m_curves {};
};

} // namespace gpuf
