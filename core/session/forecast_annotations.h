// ForecastAnnotations: a cost-model forecast's explanation turned into per-line marks for the diff view — which
// lines of the reference and of the candidate carry the features that decided it, and which way each pushed.
#pragma once

#include "core/domain/forecast.h"
#include "core/forecasters/explanation.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpuf {

class Store;

// Which way a contribution pushes the forecast: toward a faster or toward a slower candidate. A contribution is
// measured toward the predicted bin, so its direction is its sign turned by whether that bin is a speedup (bin 4
// and up) or a slowdown.
enum class Push : quint8 { Faster, Slower };

struct LineAnnotation
{
    int line = 0; // 1-based source line
    Push push = Push::Faster; // the strongest item's direction (it decides the colour)
    double strength = 0.0; // |contribution| of that item
    QStringList texts; // one sentence per item naming the line, strongest first

    friend bool operator==(const LineAnnotation &, const LineAnnotation &) = default;
};

struct ForecastAnnotations
{
    RowId forecastId = 0;
    int predictedBin = 0;
    // The sources the line numbers belong to: the diff view matches them with its sides, so it knows which pane
    // shows the reference (sides may be swapped) and never marks a pair the annotations were not made for.
    QString referenceSource;
    QString candidateSource;
    QList<LineAnnotation> reference; // ascending lines
    QList<LineAnnotation> candidate;

    bool isEmpty() const { return reference.isEmpty() && candidate.isEmpty(); }
    friend bool operator==(const ForecastAnnotations &, const ForecastAnnotations &) = default;
};

Push pushOf(double contribution, int predictedBin);

// The item's sentence (its stored text, else one made from its values) and the direction in words:
// "candidate loads 16 bytes per thread access instead of 4: +0.80 toward moderate speedup (pushes toward faster)".
QString annotationText(const ExplanationItem &item, int predictedBin);

// One LineAnnotation per line named by an item's spans on each side; hardware items name no lines. Sources are
// left empty (the caller knows them).
ForecastAnnotations annotationsFromExplanation(const Explanation &explanation);

// The forecast whose explanation the diff shows: the newest (highest id) of `forecasterId` for the pair, any
// hardware and status; nullopt when there is none.
std::optional<Forecast> newestForecastOf(
    const QList<Forecast> &forecasts, RowId forecasterId, RowId referenceId, RowId candidateId);

// Reads the annotations of the pair (baselineId as the reference) for the forecaster named `forecasterName`. No
// forecast, a forecaster that is not the cost model, or a response that is not an explanation all give empty
// annotations, not an error: only a store that cannot be read is one.
Result<ForecastAnnotations> loadForecastAnnotations(
    Store &store, RowId candidateId, RowId baselineId, const QString &forecasterName);

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::ForecastAnnotations)
