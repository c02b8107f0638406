// Per-problem, per-forecaster and per-hardware counts of a store (what `gpuf stats` and the status bar show).
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"
#include "core/store/store.h"

#include <QList>

namespace gpuf {

struct NamedCounts
{
    QString name;
    qint64 kernels = 0;
    qint64 measurements = 0;
    qint64 replayedMeasurements = 0; // of those, replays of stored runtimes (source 'replay'), not run here
    qint64 forecasts = 0;
    qint64 pairLabels = 0;
};

struct StoreStatistics
{
    StoreCounts totals;
    qint64 replayedMeasurements = 0; // of totals.measurements
    QList<NamedCounts> perProblem; // kernels, measurements of its kernels, forecasts of its candidates, labels
    QList<NamedCounts> perForecaster; // forecasts
    QList<NamedCounts> perHardware; // measurements, forecasts, labels
};

Result<StoreStatistics> storeStatistics(Store &store);

// SQLite's counter of commits by other connections (PRAGMA data_version): it moves when any other connection, of this
// process or another, wrote the store since this connection last looked.
Result<qint64> storeDataVersion(Store &store);

// The newest row of each table the views show, and the kernels' count (a smaller count means rows were deleted): what
// a later storeGrowth() compares against to learn which rows another connection added.
struct StoreMarks
{
    RowId kernel = 0;
    RowId measurement = 0;
    RowId forecast = 0;
    RowId forecaster = 0;
    RowId search = 0;
    RowId searchEvent = 0;
    RowId lesson = 0;
    RowId lessonStep = 0;
    qint64 kernels = 0;
};
Result<StoreMarks> storeMarks(Store &store);

// What was added since `since`, by the ids the views' change events carry.
struct StoreGrowth
{
    static constexpr int kMostIds = 5000; // more new rows of one kind: `bulk` (an import), told as "anything changed"

    StoreMarks marks; // the store's marks now
    QList<RowId> kernels; // new kernels
    QList<RowId> measuredKernels; // kernels with a new measurement
    QList<RowId> forecastKernels; // candidate kernels with a new forecast
    QList<RowId> forecasters;
    QList<RowId> searches; // searches created or whose log grew
    QList<RowId> lessons; // lessons created or given a step
    bool shrank = false; // rows were deleted: anything may have changed
    bool bulk = false; // more than kMostIds new rows of a kind

    bool isEmpty() const
    {
        return !shrank && !bulk && kernels.isEmpty() && measuredKernels.isEmpty() && forecastKernels.isEmpty()
            && forecasters.isEmpty() && searches.isEmpty() && lessons.isEmpty();
    }
};
Result<StoreGrowth> storeGrowth(Store &store, const StoreMarks &since);

} // namespace gpuf
