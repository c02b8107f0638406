// RiskCoveragePlot: risk against coverage for a chosen confidence score and risk, one curve per forecaster, with a
// threshold τ slider whose operating point (coverage, risk, GPU measurements it would send) is shown live; a click
// on a curve point drills down to the forecasts that threshold trusts.
#pragma once

#include "core/bins/bins.h"
#include "core/metrics/selective.h"
#include "widgets/plots/plot_widget.h"

#include <array>
#include <vector>

class QComboBox;
class QCPGraph;
class QCPTextElement;
class QLabel;
class QSlider;

namespace gpuf {

class RiskCoveragePlot : public PlotWidget
{
    Q_OBJECT

public:
    static constexpr int kSliderSteps = 1000; // τ = value / kSliderSteps; every confidence score lies in [0, 1]
    static constexpr int kMaxDrawnPoints = 4000;

    explicit RiskCoveragePlot(QWidget *parent = nullptr);

    bins::ConfidenceScore score() const { return m_score; }
    void setScore(bins::ConfidenceScore score);
    metrics::RiskKind risk() const { return m_risk; }
    void setRisk(metrics::RiskKind risk);
    double threshold() const;
    void setThreshold(double tau); // moves the slider

    // What the slider's τ does to series `index` (applyThreshold over its rows).
    metrics::ThresholdOutcome operatingPoint(int index) const;
    QString operatingPointText() const;

    // For tests and tools: what is drawn for series `index` (nullptr when absent).
    QCPGraph *curve(int index) const;
    QCPGraph *operatingMarker(int index) const;
    QSlider *thresholdSlider() const { return m_slider; }
    QString title() const;
    // The drawn points of series `index` (NaN risks are left out), as curve indices into the report's curve.
    const std::vector<int> &pointIndices(int index) const { return m_pointIndex[std::size_t(index)]; }

    // The forecasts of series `index` trusted at curve point `point` (its threshold).
    DrillDown pointDrillDown(int index, int point) const;

protected:
    void rebuild() override;

private:
    const metrics::RiskCoverageCurve *curveOf(int index) const;
    void updateOperatingPoint();
    void handleClick(const QPoint &pos);

    QComboBox *m_scoreBox;
    QComboBox *m_riskBox;
    QSlider *m_slider;
    QLabel *m_tauLabel;
    QLabel *m_operatingLabel;
    QCPTextElement *m_title;
    bins::ConfidenceScore m_score = bins::ConfidenceScore::MaxProb;
    metrics::RiskKind m_risk = metrics::RiskKind::BinaryMismatch;
    std::array<QCPGraph *, kMaxPlotSeries> m_curves {};
    std::array<QCPGraph *, kMaxPlotSeries> m_markers {};
    std::array<std::vector<int>, kMaxPlotSeries> m_pointIndex;
    QPoint m_pressPos;
};

} // namespace gpuf
