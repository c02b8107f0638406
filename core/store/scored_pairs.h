// ScoredPairs: every forecast of a store next to its truth (a measured speedup or an imported pair label) and the
// keys that group it, read in a few queries and handed on as one value for the calibration metrics.
#pragma once

#include "core/bins/bins.h"
#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpuf {

class Store;

// What to load; names as stored (forecasters.name, problems.name, hardware.name). Empty means "all"; a name the
// store does not know is an error, so a typo never silently yields an empty evaluation.
// Where a pair's candidate came from: the kernel corpus, an import (a published dataset, a recorded sweep), or a search
// run in this store (its events name the candidate). Kernels written by hand or by an LLM outside a search are Other.
enum class PairOrigin : quint8 { Corpus, Imported, Search, Other };
QString pairOriginName(PairOrigin origin); // "corpus", "imported", "search", "other": as `gpuf metrics --origin` takes
std::optional<PairOrigin> pairOriginFromName(const QString &name);

struct ScoredPairFilter
{
    QStringList forecasters;
    QString problem;
    QString hardware;
    std::optional<PairOrigin> origin; // empty: every origin
};

// Where a forecast's truth came from.
enum class TruthSource : quint8 {
    Measured, // geometric mean over the cases both kernels measured ok on the forecast's hardware
    Label, // an imported pair label (its true_bin kept as published)
    Replayed, // as Measured, but a runtime in it was replayed from stored ones (source 'replay'), not run here
};

// One forecast that has a truth and whose candidate did not fail.
struct ScoredPair
{
    RowId forecastId = 0;
    RowId candidateId = 0;
    RowId referenceId = 0; // the ranking pool: candidates compared with the same reference
    RowId forecasterId = 0;
    RowId problemId = 0;
    RowId hardwareId = 0; // 0: the forecast names no hardware
    RowId searchId = 0; // 0: not known to belong to a search
    PairOrigin origin = PairOrigin::Corpus;
    int repeat = 0;

    bins::Distribution p {}; // renormalised over bins 1..8 for parsed forecasts; zeros for parse failures
    std::optional<int> predictedBin; // the forecaster's own choice, else the most probable bin; empty if unparsed
    bool parsed = false;

    int trueBin = 0; // 1..8
    std::optional<double> trueSpeedup; // absent for a label that gives only the bin
    TruthSource truth = TruthSource::Measured;
    // A measured truth whose 95 % interval (speedup_interval.h) straddles this bin edge: its bin is label noise.
    std::optional<double> straddledEdge;
};

struct ScoredPairsForecaster
{
    RowId id = 0;
    QString name;
    QString displayName;
    qint64 forecasts = 0; // forecasts matching the filter (ok and parse failures; newest per pair and repeat)
    qint64 scored = 0; // of those, with a truth and a candidate that did not fail
    qint64 replayed = 0; // of the scored, those whose truth rests on replayed runtimes (TruthSource::Replayed)
    qint64 withoutTruth = 0; // neither a usable measurement nor a label
    qint64 failedCandidates = 0; // the candidate failed (a failed case, or a label saying so): a failure, not a bin
    qint64 errors = 0; // forecasts that produced no answer at all (status 'error'); never scored
    qint64 quarantined = 0; // the truth rests on a measurement the user quarantined: left out of the metrics
    qint64 straddling = 0; // of the scored, those whose truth's interval straddles a bin edge
    qint64 otherOrigin = 0; // forecasts left out because their candidate's origin is not the filter's

    QString label() const { return displayName.isEmpty() ? name : displayName; }
};

struct NamedRow
{
    RowId id = 0;
    QString name;
};

struct ScoredPairs
{
    QList<ScoredPair> pairs; // ascending forecast id
    QList<ScoredPairsForecaster> forecasters; // the chosen ones (all when the filter names none), ascending id
    // Everything the store holds, for names and filter choices, ascending id.
    QList<NamedRow> allForecasters;
    QList<NamedRow> problems;
    QList<NamedRow> hardware;
    QList<NamedRow> searches;

    qint64 withoutTruth() const;
    qint64 replayedTruths() const;
    qint64 failedCandidates() const;
    qint64 quarantined() const;
    qint64 straddling() const;
    qint64 otherOrigin() const;
    const ScoredPairsForecaster *forecaster(RowId id) const;
};

// Loads the forecasts matching `filter` with their truths in one read transaction. Among several forecasts of the
// same (forecaster, reference, candidate, hardware, repeat) the newest answer counts (an error is no answer). A
// measurement of the candidate decides over a label (as in the candidate table); a label on the same hardware, else one
// that names no hardware, stands in where the kernels were not both measured. Checks `cancel` between stages and fails
// with "cancelled" once set.
Result<ScoredPairs> loadScoredPairs(Store &store, const ScoredPairFilter &filter = {}, const CancelToken &cancel = {});

} // namespace gpuf
