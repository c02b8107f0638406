// The candidate table's columns, statuses, filter and sort as pure functions over a CandidateTable, so the
// filtering and sorting of 100 000 rows can run off the GUI thread and be tested without a view.
#pragma once

#include "core/common/cancel.h"
#include "core/session/selection.h"
#include "core/store/candidate_rows.h"

#include <QList>
#include <QSet>
#include <QString>

#include <memory>
#include <optional>

namespace gpuf {

using CandidateTablePtr = std::shared_ptr<const CandidateTable>;

enum CandidateColumn : int {
    NameColumn,
    ProblemColumn,
    OriginColumn,
    ParentColumn,
    LanguageColumn,
    ChangedLinesColumn,
    SpeedupColumn,
    MeasuredBinColumn,
    PredictedBinColumn,
    ConfidenceColumn,
    ExpectedSpeedupColumn,
    StatusColumn,
    CreatedColumn,
    PlausibilityColumn, // "⚠ implausible" where a measured time beats the bandwidth floor on the hardware shown
    TimesColumn, // a Python candidate's device time and call time, the speedup's figure in brackets
    CandidateColumnCount
};

// Deferral status (DESIGN §7): a measurement decides; else a queued measurement; else a sure enough forecast.
enum class CandidateStatus : quint8 {
    Measured, // measured on the hardware (ok or failed), or an imported label gives its speedup
    MeasuredReplay, // as Measured, but from runtimes replayed from stored ones (MeasuredCell::isReplay)
    Pending, // queued for measurement
    Trusted, // no measurement, and the forecast's confidence is at least τ
    NotMeasured, // none of the above
};

QString candidateStatusName(CandidateStatus status); // for people ("trusted", "measured (replay)", …)

// Which of the table's per-hardware and per-forecaster values are shown, and what decides "trusted".
struct CandidateView
{
    int hardware = -1; // index into CandidateTable::hardware; -1: none
    int forecaster = -1; // index into CandidateTable::forecasters; -1: none
    double trustThreshold = 0.5; // τ
    QSet<RowId> pending; // kernels queued for measurement
};

struct CandidateFilter
{
    static constexpr int kAnyBin = 0;
    static constexpr int kFailedBin = -1; // measuredBin only: the candidate failed

    QString text; // case-insensitive, in the name, hash, problem, origin or language
    RowId problemId = 0; // 0: every problem
    RowId searchId = 0; // 0: no search restriction
    bool restrictToIds = false; // a drill-down: exactly the kernels in ids
    QList<RowId> ids; // ascending
    int measuredBin = kAnyBin; // the measured (or imported) bin, or kFailedBin
    int predictedBin = kAnyBin;
    double minConfidence = 0.0; // a range narrower than [0, 1] hides rows without a forecast
    double maxConfidence = 1.0;
    std::optional<CandidateStatus> status;
    QString origin; // exact; empty: any

    bool operator==(const CandidateFilter &) const = default;
};

CandidateStatus candidateStatus(const CandidateTable &table, int row, const CandidateView &view);
const MeasuredCell *measuredCellOf(const CandidateTable &table, int row, const CandidateView &view);
const ForecastCell *forecastCellOf(const CandidateTable &table, int row, const CandidateView &view);

// The raw number a column sorts by; NaN where the row has no value (such rows sort last in either order).
double candidateSortKey(const CandidateTable &table, int row, int column, const CandidateView &view);

bool candidateMatches(const CandidateTable &table, int row, const CandidateFilter &filter, const CandidateView &view);

// Table rows that pass the filter, sorted by `column` (-1: by id); ties keep id order. Empty when cancelled.
QList<int> candidateOrder(const CandidateTable &table, const CandidateFilter &filter, const CandidateView &view,
    int column, Qt::SortOrder order, const CancelToken &cancel = {});

// The kernel a row is compared with for `kind`: its baseline (the reference), its parent (the baseline when it has
// none), or `custom`.
RowId pairBaseline(const CandidateTable &table, int row, Selection::Baseline kind, RowId custom = 0);

} // namespace gpuf
