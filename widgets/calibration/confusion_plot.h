// ConfusionPlot: the predicted × true bin heat map of each forecaster side by side, counts (or shares) in the cells,
// a normalisation switch and a colour scale; a click on a cell drills down to the pairs in it.
#pragma once

#include "core/metrics/calibration.h"
#include "widgets/plots/plot_widget.h"

#include <array>

class QComboBox;
class QCPAxis;
class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPItemText;
class QCPLayoutGrid;
class QCPMarginGroup;
class QCPTextElement;

namespace gpuf {

class ConfusionPlot : public PlotWidget
{
    Q_OBJECT

public:
    explicit ConfusionPlot(QWidget *parent = nullptr);

    metrics::ConfusionNormalisation normalisation() const { return m_normalisation; }
    void setNormalisation(metrics::ConfusionNormalisation how);

    // For tests and tools: what is drawn for series `index` (nullptr when absent).
    QCPColorMap *colorMap(int index) const;
    QCPColorScale *colorScale(int index) const;
    QCPAxisRect *matrixRect(int index) const;
    // The text items of series `index`'s non-empty cells.
    QList<QCPItemText *> cellLabels(int index) const;
    QString title() const;
    // Widget coordinates of a cell's centre (true bin row, predicted bin column).
    QPoint cellCenter(int index, int trueBin, int predictedBin) const;

    DrillDown cellDrillDown(int index, int trueBin, int predictedBin) const;

protected:
    void rebuild() override;

private:
    void clearMatrices();
    void addMatrix(int index, const PlotSeries &series);
    void handleClick(const QPoint &pos);

    struct Matrix
    {
        QCPAxisRect *rect = nullptr;
        QCPColorMap *map = nullptr;
        QCPColorScale *scale = nullptr;
        QList<QCPItemText *> labels;
    };
    double fillCells(Matrix &matrix, QCPAxis *x, QCPAxis *y, const metrics::MetricsReport &report);

    QComboBox *m_normalisationBox;
    QCPTextElement *m_title;
    QCPLayoutGrid *m_grid;
    std::array<QCPMarginGroup *, kMaxPlotSeries> m_margins {};
    std::array<Matrix, kMaxPlotSeries> m_matrices {};
    metrics::ConfusionNormalisation m_normalisation = metrics::ConfusionNormalisation::None;
    QPoint m_pressPos;
};

} // namespace gpuf
