// ProgressPlot: a search's best speedup so far against GPU evaluations, or (switchable) against candidates considered,
// as step lines; other searches of the same problem (standard vs selective, a replay under another τ) overlaid, with a
// legend. Built on the calibration plots' frame (palette-aware, PNG/SVG/PDF export).
//
// Interface for the search dock: setSeries() sets every curve (each made with search::progressCurve()); setSearch() /
// applyEvents() refresh the live one (the series marked `live`, added when there is none) from the folded state and
// leave the overlays as they are.
#pragma once

#include "core/domain/search.h"
#include "core/search/search_progress.h"
#include "widgets/plots/plot_widget.h"

class QCPGraph;
class QCPItemStraightLine;
class QComboBox;

namespace gpuf {

struct ProgressSeries
{
    QString name; // the legend's text ("selective τ=0.5 (this search)")
    search::ProgressCurve curve;
    bool live = false; // the search being watched: drawn strongest, replaced by setSearch()
};

class ProgressPlot : public PlotWidget
{
    Q_OBJECT

public:
    enum class Axis { Evaluations, Candidates };
    Q_ENUM(Axis)

    explicit ProgressPlot(QWidget *parent = nullptr);

    void setSeries(const QList<ProgressSeries> &series);
    const QList<ProgressSeries> &series() const { return m_series; }
    void setSearch(const search::SearchState &state, const QString &name = {});
    void applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents);

    Axis axis() const { return m_axis; }
    void setAxis(Axis axis);
    QComboBox *axisChooser() const { return m_axisBox; }

    // The graph drawing series `index` (nullptr when absent), for tests and tools.
    QCPGraph *graph(int index) const;
    // The colour of series `index` (the live one always gets the first).
    QColor seriesColor(int index) const;

protected:
    void rebuild() override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void wrapLegend();

    QComboBox *m_axisBox;
    Axis m_axis = Axis::Evaluations;
    QList<ProgressSeries> m_series;
    QList<QCPGraph *> m_graphs;
    QCPItemStraightLine *m_reference = nullptr;
};

} // namespace gpuf
