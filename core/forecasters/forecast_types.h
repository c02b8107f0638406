// Value types of batch forecasting (DESIGN §8: they cross threads as values): what to forecast, the state of each
// request, the engine's throttled snapshots, streamed reasoning and a batch's final summary.
#pragma once

#include "core/domain/forecast.h"
#include "core/domain/hardware.h"

#include <QList>
#include <QMetaType>

#include <optional>

namespace gpuf {

struct ForecastPair
{
    RowId referenceKernelId = 0;
    RowId candidateKernelId = 0;
    friend bool operator==(const ForecastPair &, const ForecastPair &) = default;
};

// Every pair × samples: sample i of N has repeat i and a cache key of its own.
struct ForecastBatch
{
    quint64 id = 0; // chosen by the caller, unique among open batches; batchFinished() carries it
    QList<ForecastPair> pairs;
    RowId forecasterId = 0;
    std::optional<Hardware> hardware; // stored by the engine (by name) when given
    int samples = 1;
    bool refresh = false; // true: forecast again even when a cached forecast exists
};

// requested = ok + parseFailed + errors + cached + cancelled.
struct ForecastSummary
{
    int requested = 0;
    int ok = 0;
    int parseFailed = 0;
    int errors = 0; // transport errors, and requests that could not be made or stored
    int cached = 0;
    int cancelled = 0;
    QString error; // why the batch could not run at all (no store, unknown forecaster…); empty otherwise
};

enum class ForecastItemState { Queued, Running, Done, Cached, Cancelled, Failed };
QString forecastItemStateName(ForecastItemState state);

struct ForecastItem
{
    quint64 id = 0;
    quint64 batchId = 0;
    ForecastPair pair;
    int repeat = 0;
    RowId forecasterId = 0;
    ForecastItemState state = ForecastItemState::Queued;
    std::optional<ForecastStatus> status; // once Done (or Cached)
    QString message; // error text of a failed or unparsable forecast
    RowId forecastId = 0; // stored (or cached) forecast
};

struct ForecastSnapshot
{
    quint64 sequence = 0;
    int queued = 0;
    int running = 0;
    ForecastSummary total; // over every batch since the engine started
    QList<ForecastItem> items;
};

// Reasoning of a watched pair: `text` is appended to what came before, or replaces it when `replace` is set (the
// first update after watch(), carrying everything streamed so far).
struct ForecastReasoning
{
    ForecastPair pair;
    int repeat = 0;
    RowId forecasterId = 0;
    QString text;
    bool replace = false;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::ForecastPair)
Q_DECLARE_METATYPE(gpuf::ForecastBatch)
Q_DECLARE_METATYPE(gpuf::ForecastSummary)
Q_DECLARE_METATYPE(gpuf::ForecastSnapshot)
Q_DECLARE_METATYPE(gpuf::ForecastReasoning)
