// ForecastAnnotations; see forecast_annotations.h.
#include "core/session/forecast_annotations.h"

#include "core/store/forecast_repo.h"
#include "core/store/problem_repo.h"

#include <QCoreApplication>
#include <QMap>

#include <algorithm>
#include <cmath>

namespace gpuf {
namespace {

QString trDiffView(const char *text) { return QCoreApplication::translate("gpuf::DiffView", text); }

// A response read from a store may name any span: clip each so a foreign one cannot make the view mark (and keep)
// millions of lines. Feature spans of real kernels are a few lines long.
constexpr int kMaxLinesPerSpan = 2000;

// Adds one item to the lines its spans name; the strongest item of a line decides its colour (items arrive
// strongest first, but a line keeps the maximum whatever the order).
void addItem(QMap<int, LineAnnotation> &lines, const QList<features::LineSpan> &spans, const ExplanationItem &item,
    int predictedBin)
{
    const double strength = std::abs(item.contribution);
    const QString text = annotationText(item, predictedBin);
    for (const features::LineSpan &span : spans) {
        const int last = std::min(span.last, span.first + kMaxLinesPerSpan - 1);
        for (int line = span.first; line <= last; ++line) {
            LineAnnotation &a = lines[line];
            if (a.line == 0 || strength > a.strength) {
                a.line = line;
                a.push = pushOf(item.contribution, predictedBin);
                a.strength = strength;
                a.texts.prepend(text);
            } else if (!a.texts.contains(text)) {
                a.texts.append(text);
            }
        }
    }
}

} // namespace

Push pushOf(double contribution, int predictedBin)
{
    // Bins 4..8 are speedups (S ≥ 1), 1..3 slowdowns: pushing toward a slowdown bin is pushing toward slower.
    const bool towardSpeedup = predictedBin >= 4;
    return (contribution >= 0) == towardSpeedup ? Push::Faster : Push::Slower;
}

QString annotationText(const ExplanationItem &item, int predictedBin)
{
    const QString sentence = item.text.isEmpty() ? explanationItemText(item, predictedBin) : item.text;
    return pushOf(item.contribution, predictedBin) == Push::Faster
        ? trDiffView("%1 (pushes toward faster)").arg(sentence)
        : trDiffView("%1 (pushes toward slower)").arg(sentence);
}

ForecastAnnotations annotationsFromExplanation(const Explanation &explanation)
{
    QMap<int, LineAnnotation> reference;
    QMap<int, LineAnnotation> candidate;
    for (const ExplanationItem &item : explanation.items) {
        if (item.kind != ExplanationItem::Kind::Kernel || !std::isfinite(item.contribution))
            continue;
        addItem(reference, item.referenceLines, item, explanation.predictedBin);
        addItem(candidate, item.candidateLines, item, explanation.predictedBin);
    }
    ForecastAnnotations out;
    out.predictedBin = explanation.predictedBin;
    out.reference = reference.values();
    out.candidate = candidate.values();
    return out;
}

std::optional<Forecast> newestForecastOf(
    const QList<Forecast> &forecasts, RowId forecasterId, RowId referenceId, RowId candidateId)
{
    const Forecast *newest = nullptr;
    for (const Forecast &f : forecasts) {
        if (f.forecasterId == forecasterId && f.referenceKernelId == referenceId && f.candidateKernelId == candidateId
            && (!newest || f.id > newest->id))
            newest = &f;
    }
    return newest ? std::optional<Forecast>(*newest) : std::nullopt;
}

Result<ForecastAnnotations> loadForecastAnnotations(
    Store &store, RowId candidateId, RowId baselineId, const QString &forecasterName)
{
    auto forecaster = ForecasterRepo(store).findByName(forecasterName);
    if (!forecaster)
        return Error {forecaster.error()};
    if (!forecaster->has_value() || (*forecaster)->kind != ForecasterKind::CostModel)
        return ForecastAnnotations {};
    auto forecasts = ForecastRepo(store).forCandidate(candidateId);
    if (!forecasts)
        return Error {forecasts.error()};
    const std::optional<Forecast> newest = newestForecastOf(*forecasts, (*forecaster)->id, baselineId, candidateId);
    if (!newest)
        return ForecastAnnotations {};
    const Result<Explanation> explanation = parseExplanation(newest->response);
    if (!explanation)
        return ForecastAnnotations {};
    ForecastAnnotations annotations = annotationsFromExplanation(*explanation);
    annotations.forecastId = newest->id;
    KernelRepo kernels(store);
    for (const RowId id : {baselineId, candidateId}) {
        auto kernel = kernels.find(id);
        if (!kernel)
            return Error {kernel.error()};
        if (!kernel->has_value())
            return ForecastAnnotations {};
        (id == baselineId ? annotations.referenceSource : annotations.candidateSource) = (*kernel)->source;
    }
    return annotations;
}

} // namespace gpuf
