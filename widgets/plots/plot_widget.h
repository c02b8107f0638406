// PlotWidget: the frame shared by the calibration plots — a row of controls above a QCustomPlot, palette-aware
// colours, PNG/SVG/PDF export, and the drill-down that turns a clicked bar, cell or point into the candidate
// table's filter and the first pair's diff.
#pragma once

#include "core/common/result.h"
#include "widgets/plots/plot_input.h"
#include "widgets/plots/plot_style.h"

#include <QPen>
#include <QPointer>
#include <QWidget>

class QCPGraph;
class QCustomPlot;
class QDate;
class QHBoxLayout;
class QToolButton;

namespace gpuf {

class Selection;

class PlotWidget : public QWidget
{
    Q_OBJECT

public:
    enum class ExportFormat { Png, Svg, Pdf };
    Q_ENUM(ExportFormat)

    explicit PlotWidget(QWidget *parent = nullptr);
    ~PlotWidget() override;

    QCustomPlot *plot() const { return m_plot; }
    const PlotColors &colors() const { return m_colors; }
    const PlotInput &input() const { return m_input; }

    // Where drill-downs go; without one, clicks only emit drilledDown().
    void setSelection(Selection *selection);
    // Replaces what is drawn (aggregates only: the cost does not grow with the number of rows, except where a
    // curve has one point per distinct score).
    void setInput(const PlotInput &input);

    // Writes the plot as it is now; the format follows the file suffix (.png, .svg, .pdf). An empty size uses the
    // widget's size, or 900×600 while it has none.
    Status exportTo(const QString &path, QSize size = {}) const;
    static std::optional<ExportFormat> formatOf(const QString &path);
    // The file name the export dialog offers: forecaster, plot and date ("model-a-confusion-matrix-2026-03-02.png"),
    // made safe for every file system.
    static QString defaultExportName(
        const QString &forecaster, const QString &plot, const QDate &date, ExportFormat format);
    QString defaultExportName(ExportFormat format) const;

    // What hovering `pos` (plot coordinates) shows: the name of the curve passing within a few pixels and its value
    // there; empty when none is near. Hovering also draws that curve at full strength.
    QString hoverText(const QPoint &pos) const;

Q_SIGNALS:
    void drilledDown(const QList<gpuf::RowId> &candidateIds, const QString &description);

protected:
    QHBoxLayout *controls() const { return m_controls; }
    // Rebuilds the plottables and items from input(); called after setInput() and after a palette change.
    virtual void rebuild() = 0;
    // Sets the filter to the drill-down's candidates and opens the first one's pair.
    void drillDown(const DrillDown &drill);
    // What hovering the point `index` of `graph` shows, for a plot whose points say more than their coordinates;
    // empty: the curve's name and its value there.
    virtual QString pointText(const QCPGraph *graph, int index) const;

    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void exportInteractively(ExportFormat format);
    void hover(const QPoint &pos);
    bool fitTicks();
    QCPGraph *graphNear(const QPoint &pos) const;

    QCustomPlot *m_plot;
    QHBoxLayout *m_controls;
    QToolButton *m_exportButton;
    PlotColors m_colors;
    PlotInput m_input;
    QPointer<Selection> m_selection;
    QPointer<QCPGraph> m_hovered; // drawn at full strength while the pointer is on it
    QPen m_hoveredPen; // its own pen, put back when the pointer leaves
};

} // namespace gpuf
