// Per-problem, per-forecaster and per-hardware counts of a store (what `gpuf stats` and the status bar show).
#pragma once

#include "core/common/result.h"
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

} // namespace gpuf
