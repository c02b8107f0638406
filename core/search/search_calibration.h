// How trustworthy a search's forecaster has been: accuracy, ECE and Brier (½Σ, the library form) of the forecasts whose
// proposal got measured, per step (the step whose selection measured them) and cumulative, computed by core/metrics
// (paper-facts §4) over the pairs (forecast, measured bin). Pure; a tracker recomputes only the steps that changed.
#pragma once

#include "core/metrics/scored_row.h"
#include "core/search/search_history.h"

#include <limits>
#include <vector>

namespace gpuf::search {

struct CalibrationFigures
{
    qint64 rows = 0; // measured forecasts scored (parse failures included)
    qint64 parsed = 0; // of them, parsed: accuracy and ECE are over these
    double accuracy = std::numeric_limits<double>::quiet_NaN();
    double ece = std::numeric_limits<double>::quiet_NaN();
    double brier = std::numeric_limits<double>::quiet_NaN(); // ½·Σ_b (p_b − y_b)², parse failures as uniform
};

struct StepCalibration
{
    int step = 0;
    CalibrationFigures atStep; // this step's measurements alone
    CalibrationFigures cumulative; // every measurement up to and including this step
};

// The scored rows of the measured forecasts: one per candidate that had a forecast (or a failed one) and came back
// from the GPU correct (a wrong or failed kernel has no bin). pairId is the candidate's position, searchId the step
// that measured it. Forecasts whose distribution the history lacks (a log without probabilities) are left out.
std::vector<metrics::ScoredRow> measuredForecastRows(const SearchState &state, const SearchHistory &history);

// The figures of `rows` through metrics::computeReport.
CalibrationFigures calibrationFigures(const std::vector<metrics::ScoredRow> &rows);

class CalibrationTracker
{
public:
    // Brings the per-step figures up to the state; steps whose rows did not change keep their figures.
    void update(const SearchState &state, const SearchHistory &history);
    void clear() { *this = CalibrationTracker(); }

    const QList<StepCalibration> &steps() const { return m_steps; }
    // The last step's cumulative figures (empty figures before any).
    CalibrationFigures total() const;
    // Steps recomputed by the last update() (for tests of the incremental path).
    int lastRecomputed() const { return m_lastRecomputed; }

private:
    QList<StepCalibration> m_steps;
    QList<int> m_rowCounts; // rows per step at the last update
    int m_lastRecomputed = 0;
};

} // namespace gpuf::search
