// PredictionSetPlot: a forecaster's prediction sets over contiguous bins (issue 28), coverage against mean width for
// each target — its own sets (the shortest run of bins holding the target probability) and the conformal sets
// calibrated on measured pairs out of sample — with each target as a dotted line: a set family worth trusting reaches
// its line, and the narrower the better.
#pragma once

#include "widgets/plots/plot_widget.h"

class QCPGraph;
class QCPTextElement;

namespace gpuf {

class PredictionSetPlot : public PlotWidget
{
    Q_OBJECT

public:
    explicit PredictionSetPlot(QWidget *parent = nullptr);

    // For tests: the curves of the first forecaster (nullptr before one is shown), a target's line, and the title.
    QCPGraph *ownCurve() const { return m_own; }
    QCPGraph *conformalCurve() const { return m_conformal; }
    QCPGraph *targetLine(int index) const;
    QString title() const;

protected:
    void rebuild() override;

private:
    QCPTextElement *m_title;
    QCPGraph *m_own = nullptr;
    QCPGraph *m_conformal = nullptr;
    QList<QCPGraph *> m_targets;
};

} // namespace gpuf
