// What the forecast panel shows for one (baseline, candidate) pair, as one immutable value read off the GUI thread:
// every stored forecast of the pair, the forecasters and hardware they name, and the measured speedup; plus the pure
// figures drawn from a distribution (core/bins and core/metrics do the arithmetic; nothing is recomputed here).
#pragma once

#include "core/bins/bins.h"
#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/domain/hardware.h"
#include "core/features/feature_gaps.h"
#include "core/measure/timing_figures.h"
#include "core/store/measured_speedup.h"
#include "core/store/plausibility_marks.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMetaType>

#include <optional>

namespace gpuf {

class Store;

// The measured truth of a pair on one hardware.
struct PairTruth
{
    MeasuredSpeedup measured; // state None when neither kernel was measured anywhere
    RowId hardwareId = 0;
    QString hardwareName;
    std::optional<int> bin; // the speedup's bin (State::Speedup only)
    // measured.replayed: when the newest replayed runtime it rests on was first recorded (invalid: not known).
    QDateTime replayRecordedAt;
    // The candidate's cases on this hardware whose newest ok time beats the bandwidth floor (none: plausible or not
    // known).
    ImplausibleMark implausible;
    // Python timings: which figure the speedup is from, the other figure's speedup, launch-bound and noisy cases.
    measure::TimingFigures timings;
};

struct PairForecasts
{
    RowId candidateId = 0;
    RowId baselineId = 0;
    QString candidateName;
    QString baselineName;
    QString candidateNotes; // the kernels' teaching notes (Kernel::notes), trimmed
    QString baselineNotes;
    QList<Forecast> forecasts; // ordered by id
    QHash<RowId, Forecaster> forecasters; // every forecaster of the store, by id
    QHash<RowId, Hardware> hardware; // every hardware row, by id
    QList<PairTruth> truths; // one per hardware the candidate was measured on
    bool baselineMeasured = false; // the baseline has any measurement (else "Measure on GPU" measures it too)
    features::PairGaps featureGaps; // launch features of either kernel the cost model cannot know (no launch spec)

    // The truth to compare a forecast made for `hardwareId` (0: none) with: a speedup on that hardware, else the
    // first hardware with a speedup, else the first other state (a failure, no baseline); nullopt when unmeasured.
    std::optional<PairTruth> truthFor(RowId hardwareId) const;
    QString forecasterName(RowId id) const; // its name (what the other views and the CLI show), else "#id"
};

// Reads the pair (nothing is written). Runs on any thread with that thread's connection.
Result<PairForecasts> loadPairForecasts(
    Store &store, RowId candidateId, RowId baselineId, const CancelToken &cancel = {});

// The newest run per case of each hardware, as measuredSpeedup() wants them, for both kernels; one PairTruth per
// hardware the candidate has measurements on, in ascending hardware id. `spec` (a gpuf-kernel/1 spec with
// bytes_moved) judges the candidate's times that carry no verdict of gpuf-measure's. Pure: tested with tables.
QList<PairTruth> pairTruths(const QList<Measurement> &candidate, const QList<Measurement> &baseline,
    const QHash<RowId, Hardware> &hardware, const QJsonObject &spec = {});

// The numbers shown for one parsed distribution; all from core/bins.
struct ForecastFigures
{
    bins::Distribution p {};
    int predictedBin = 0;
    double maxProb = 0.0;
    double negEntropy = 0.0;
    double top2Margin = 0.0;
    double entropy = 0.0;
    double expectedBin = 0.0;
    double expectedSpeedup = 0.0;
};

ForecastFigures figuresOf(const bins::Distribution &p, int predictedBin);
// nullopt unless the forecast parsed (status ok with a predicted bin in 1..8).
std::optional<ForecastFigures> figuresOf(const Forecast &forecast);
// The mean distribution over the parsed forecasts among `forecasts`, predicted bin = its most probable bin;
// nullopt when none parsed.
std::optional<ForecastFigures> combinedFigures(const QList<Forecast> &forecasts);

// Deferral against τ (paper-facts §3, metrics::abstains): a parse failure or error defers; otherwise max_prob < τ.
bool defersToGpu(const std::optional<ForecastFigures> &figures, double threshold);

// "hit" when the bins agree, else "miss, off by N bins" (signed direction in words: predicted too fast/slow).
QString truthVerdict(int predictedBin, int trueBin);

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::PairForecasts)
