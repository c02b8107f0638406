// CumulativeReliabilityPlot: the first forecaster's cumulative reliability (issue 28), one curve per bin edge — the
// forecast probability that the speedup reaches the edge against how often it did, per probability bucket — with the
// diagonal, each bucket's 90 % consistency band as a whisker around the diagonal, and the buckets outside their band
// counted per edge in the legend; "Bin-free" adds each edge's isotonic (PAV) fit as a step line, the CORP reliability
// curve that needs no buckets.
#pragma once

#include "widgets/plots/plot_widget.h"

#include <array>

class QCheckBox;
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
    // The isotonic fit of edge 1..7 (nullptr unless "Bin-free" is ticked and a forecaster is shown).
    QCPGraph *isotonicCurve(int edge) const;
    QCheckBox *binFreeBox() const { return m_binFree; }
    QString title() const;

protected:
    void rebuild() override;

private:
    QCPTextElement *m_title;
    QCheckBox *m_binFree;
    std::array<QCPGraph *, 7> m_curves {};
    std::array<QCPGraph *, 7> m_isotonic {};
};

} // namespace gpuf
