// What every calibration plot draws: one or two forecasters (their reports and rows) plus the lookups a drill-down
// needs. Plain values, so each plot can be built and tested from hand-made reports without a store.
#pragma once

#include "core/domain/problem.h"
#include "core/metrics/report.h"
#include "core/session/selection.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <memory>
#include <vector>

namespace gpuf {

struct PlotSeries
{
    QString name; // shown in legends, titles and drill-down descriptions
    RowId forecasterId = 0;
    std::shared_ptr<const metrics::MetricsReport> report;
    // This forecaster's rows only (the report was computed over them); ScoredRow::pairId is the candidate id and
    // ScoredRow::poolKey the reference's.
    std::shared_ptr<const std::vector<metrics::ScoredRow>> rows;
};

struct PlotInput
{
    // The first series is the primary forecaster; a second one is overlaid in the second colour. More are ignored.
    QList<PlotSeries> series;
    // Candidate kernel id → the kernel it was forecast against, so a drill-down can open the pair's diff.
    std::shared_ptr<const QHash<RowId, RowId>> referenceIds;
    QHash<RowId, QString> problemNames; // optional, for the budget curve's per-problem tooltips
    std::shared_ptr<const QHash<RowId, QString>> hardwareNames; // optional, for the pairs a drill-down lists
    // Candidates whose truth rests on runtimes replayed from stored ones (optional): drill-downs say how many they
    // hold.
    std::shared_ptr<const QSet<RowId>> replayedCandidates;
    metrics::MetricsOptions options; // those the reports were computed with (the τ slider's applyThreshold needs them)

    bool isEmpty() const { return series.isEmpty() || !series.first().report; }
};

inline constexpr int kMaxPlotSeries = 2;

// The rows behind a bar, a cell or a point: candidate ids in row order without repeats, the forecast rows themselves as
// pairs (as many as the plot counted; empty for plots that count kernels, not forecasts), and what they are.
struct DrillDown
{
    QList<RowId> candidateIds;
    QList<DrillPair> pairs;
    QString description;
};

template<typename Predicate>
QList<RowId> candidateIdsWhere(const std::vector<metrics::ScoredRow> &rows, Predicate predicate)
{
    QList<RowId> ids;
    QSet<RowId> seen; // repeats of one pair must appear once in the candidate table's filter
    for (const metrics::ScoredRow &row : rows) {
        if (predicate(row) && !seen.contains(row.pairId)) {
            seen.insert(row.pairId);
            ids.append(row.pairId);
        }
    }
    return ids;
}

// Every row of `series` that `predicate` accepts, as the (reference, candidate, hardware) pairs a drill-down lists,
// in row order: one per forecast, so the list holds exactly as many as the plot counted.
template<typename Predicate>
QList<DrillPair> drillPairsWhere(const PlotSeries &series, const PlotInput &input, Predicate predicate)
{
    QList<DrillPair> pairs;
    if (!series.rows)
        return pairs;
    for (const metrics::ScoredRow &row : *series.rows) {
        if (!predicate(row))
            continue;
        DrillPair p;
        p.referenceId = RowId(row.poolKey);
        p.candidateId = RowId(row.pairId);
        p.hardwareId = RowId(row.hardwareId);
        p.hardwareName = input.hardwareNames ? input.hardwareNames->value(p.hardwareId) : QString();
        p.forecastId = RowId(row.forecastId);
        p.forecaster = series.name;
        p.repeat = row.repeat;
        p.trueBin = row.trueBin;
        if (row.parsed)
            p.predictedBin = row.predictedBin;
        pairs.append(p);
    }
    return pairs;
}

} // namespace gpuf
