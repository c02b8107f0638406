// SearchCalibrationView: how far the search's forecaster can be trusted as the search runs — accuracy, ECE and Brier
// of the forecasts whose proposal got measured, cumulative (lines) and per step (points), with the figures in words,
// so a user sees when the forecaster stops being trustworthy. Figures come from core/metrics (search_calibration.h).
//
// Interface for the search dock: setSearch(state, events) with the whole log, applyEvents(state, newEvents) after
// each batch (the forecasts' distributions are read from the events; only changed steps are recomputed). Fed values.
#pragma once

#include "core/domain/search.h"
#include "core/search/search_calibration.h"
#include "widgets/calibration/plot_widget.h"

#include <array>

class QLabel;
class QCPGraph;

namespace gpuf {

class SearchCalibrationView : public PlotWidget
{
    Q_OBJECT

public:
    enum Figure { Accuracy, Ece, Brier, FigureCount };

    explicit SearchCalibrationView(QWidget *parent = nullptr);

    void setSearch(const search::SearchState &state, const QList<SearchEvent> &events);
    void applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents);

    const search::CalibrationTracker &tracker() const { return m_tracker; }
    // The figures in words, as shown above the plot.
    QString figuresText() const;
    QCPGraph *cumulativeGraph(Figure figure) const { return m_cumulative[size_t(figure)]; }
    QCPGraph *stepGraph(Figure figure) const { return m_perStep[size_t(figure)]; }

protected:
    void rebuild() override;

private:
    void refresh(const search::SearchState &state);
    QColor figureColor(Figure figure) const;

    search::SearchHistory m_history {false};
    search::CalibrationTracker m_tracker;
    QLabel *m_figures;
    std::array<QCPGraph *, FigureCount> m_cumulative {};
    std::array<QCPGraph *, FigureCount> m_perStep {};
};

} // namespace gpuf
