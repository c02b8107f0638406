// Which (reference, candidate, hardware) pairs of a store `gpuf forecast` asks about: each problem's reference against
// its other kernels, the store's labelled pairs (an eval set's anchor/candidate, a discovery pair's parent/child), or
// both; grouped by the hardware the forecaster is shown, so one batch per group carries it.
#pragma once

#include "core/common/result.h"
#include "core/forecasters/forecast_types.h"

#include <QList>
#include <QString>

#include <optional>

namespace gpuf {

class Store;

enum class PairSource : quint8 {
    Reference, // each problem's reference kernel against every other kernel of the problem
    Labelled, // the pairs a pair label names, on the label's hardware
    All, // both, each pair once
};

// "reference" | "labelled" | "all".
QString pairSourceName(PairSource source);
std::optional<PairSource> pairSourceFromName(const QString &name);

struct HardwarePairs
{
    RowId hardwareId = 0; // 0: the forecaster is shown no hardware
    QList<ForecastPair> pairs; // each once, in the order found
};

struct ForecastPairSelection
{
    QList<HardwarePairs> groups; // ascending hardware id, none empty
    int referencePairs = 0; // pairs the references give (before removing duplicates)
    int labelledPairs = 0; // pairs the labels give (before removing duplicates)
    int problems = 0; // problems considered
    int problemsWithReference = 0;

    qsizetype size() const;
    // Every group's pairs, each (reference, candidate) once: for a batch shown one hardware chosen by the caller.
    QList<ForecastPair> allPairs() const;
    // Why the selection is empty, for people (what the store has, and which --pairs would find something); empty
    // when it is not.
    QString emptyReason(PairSource source) const;
};

// The pairs of `source` among the kernels of the problem named `problemName` (every problem when empty). A labelled
// pair counts for the problem of its candidate. Fails when the problem does not exist.
Result<ForecastPairSelection> selectForecastPairs(Store &store, PairSource source, const QString &problemName = {});

} // namespace gpuf
