// The calibration of a search's measured forecasts; see search_calibration.h.
#include "core/search/search_calibration.h"

#include "core/metrics/report.h"

namespace gpuf::search {

std::vector<metrics::ScoredRow> measuredForecastRows(const SearchState &state, const SearchHistory &history)
{
    std::vector<metrics::ScoredRow> rows;
    for (size_t i = 0; i < state.candidates.size(); ++i) {
        const Candidate &c = state.candidates[i];
        if (!c.forecastDone || !c.reward || c.measuredInStep < 0)
            continue;
        const std::optional<int> trueBin = bins::binOf(*c.reward);
        if (!trueBin)
            continue;
        metrics::ScoredRow row;
        row.pairId = qint64(i);
        row.forecastId = c.forecastId;
        row.poolKey = c.step;
        row.searchId = c.measuredInStep;
        row.trueBin = *trueBin;
        row.trueSpeedup = c.reward;
        if (!c.forecastFailed) {
            const bins::Distribution *p = history.forecast(c.nodeId);
            if (!p)
                continue;
            row.p = *p;
            row.predictedBin = c.predictedBin;
            row.parsed = true;
        }
        rows.push_back(row);
    }
    return rows;
}

CalibrationFigures calibrationFigures(const std::vector<metrics::ScoredRow> &rows)
{
    CalibrationFigures f;
    if (rows.empty())
        return f;
    metrics::MetricsOptions options;
    options.regretCurves = false;
    const metrics::MetricsReport report = metrics::computeReport(rows, options);
    f.rows = report.nTotal;
    f.parsed = report.nParsed;
    if (report.nParsed > 0) {
        f.accuracy = report.scalar(metrics::Scalar::Accuracy);
        f.ece = report.scalar(metrics::Scalar::Ece);
    }
    f.brier = report.scalar(metrics::Scalar::BrierHalf);
    return f;
}

void CalibrationTracker::update(const SearchState &state, const SearchHistory &history)
{
    const std::vector<metrics::ScoredRow> rows = measuredForecastRows(state, history);
    const int steps = int(state.steps.size());
    QList<std::vector<metrics::ScoredRow>> byStep(steps);
    for (const metrics::ScoredRow &row : rows) {
        if (row.searchId < steps)
            byStep[int(row.searchId)].push_back(row);
    }
    // The first step whose rows changed: it and every later step's cumulative figures are recomputed.
    int first = std::min(int(m_steps.size()), steps);
    for (int s = 0; s < std::min(int(m_rowCounts.size()), steps); ++s) {
        if (m_rowCounts[s] != int(byStep[s].size())) {
            first = s;
            break;
        }
    }
    m_steps.resize(steps);
    m_rowCounts.resize(steps);
    m_lastRecomputed = 0;
    std::vector<metrics::ScoredRow> cumulative;
    for (int s = 0; s < steps; ++s) {
        cumulative.insert(cumulative.end(), byStep[s].begin(), byStep[s].end());
        if (s < first)
            continue;
        StepCalibration &c = m_steps[s];
        c.step = s;
        c.atStep = calibrationFigures(byStep[s]);
        // A step that measured no forecast leaves the cumulative figures as they were.
        c.cumulative = byStep[s].empty() && s > 0 ? m_steps[s - 1].cumulative : calibrationFigures(cumulative);
        ++m_lastRecomputed;
        m_rowCounts[s] = int(byStep[s].size());
    }
}

CalibrationFigures CalibrationTracker::total() const
{
    return m_steps.isEmpty() ? CalibrationFigures {} : m_steps.last().cumulative;
}

} // namespace gpuf::search
