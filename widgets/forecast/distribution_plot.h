// DistributionPlot: one forecast's 8 bin probabilities as bars labelled with the bins' speedup ranges, the predicted
// bin highlighted and, when the pair was measured, the measured bin marked. Colours follow the palette, live.
#pragma once

#include "core/bins/bins.h"
#include "widgets/plots/plot_style.h"

#include <QWidget>

#include <optional>

class QCPBars;
class QCPItemRect;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;

namespace gpuf {

class DistributionPlot : public QWidget
{
    Q_OBJECT

public:
    explicit DistributionPlot(QWidget *parent = nullptr);
    ~DistributionPlot() override;

    // `measuredBin` with its label ("measured 1.62×") marks the truth; nullopt: none.
    void setDistribution(const bins::Distribution &p, int predictedBin, std::optional<int> measuredBin = {},
        const QString &measuredLabel = {});
    void clear();

    QCustomPlot *plot() const { return m_plot; }
    QCPBars *otherBars() const { return m_others; }
    QCPBars *predictedBars() const { return m_predicted; }
    QCPItemRect *measuredBand() const { return m_measuredBand; } // visible only with a measured bin
    QString title() const; // "Bin probabilities · measured 2.00× → bin 6 (shaded)"
    const PlotColors &colors() const { return m_colors; }
    int predictedBin() const { return m_predictedBin; }
    std::optional<int> measuredBin() const { return m_measuredBin; }

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    // Sets the bins' range labels for the current width; true when they changed.
    bool updateTickLabels();

    QCustomPlot *m_plot;
    QCPBars *m_others;
    QCPBars *m_predicted;
    QCPItemRect *m_measuredBand;
    QCPTextElement *m_title;
    QList<QCPItemText *> m_valueLabels; // one per bin, above its bar
    PlotColors m_colors;
    bins::Distribution m_p {};
    int m_predictedBin = 0;
    std::optional<int> m_measuredBin;
    QString m_measuredLabel;
    std::optional<bool> m_stackedRanges; // the range labels on two lines (a narrow plot); unset before the first
};

} // namespace gpuf
