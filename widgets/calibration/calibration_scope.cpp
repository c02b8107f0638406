// The Calibration dock's title naming its scope; see calibrationScopeText in calibration_view.h.
#include "core/session/calibration_data.h"
#include "widgets/calibration/calibration_view.h"

#include <QHash>
#include <QLocale>

#include <algorithm>
#include <array>

namespace gpuf {
namespace calibration_scope_detail {

QString nameOf(const QList<NamedRow> &rows, RowId id)
{
    for (const NamedRow &row : rows) {
        if (row.id == id)
            return row.name;
    }
    return {};
}

QString forecasterNames(const CalibrationSnapshot &snapshot, const QList<RowId> &ids)
{
    QStringList names;
    for (RowId id : ids) {
        if (const ScoredPairsForecaster *f = snapshot.pairs.forecaster(id))
            names.append(f->name);
    }
    return names.join(CalibrationView::tr(" vs "));
}

qint64 rowsOf(const std::vector<metrics::ScoredRow> &rows, RowId forecaster)
{
    return std::count_if(rows.begin(), rows.end(),
        [forecaster](const metrics::ScoredRow &row) { return row.forecasterId == forecaster; });
}

QString pairsText(const CalibrationSnapshot &snapshot, metrics::Comparison comparison, const QList<RowId> &ids)
{
    const QLocale locale;
    const metrics::StoreMetrics &m = snapshot.metrics;
    if (ids.size() == 2 && comparison == metrics::Comparison::ComparedPairs) {
        if (m.compared.size() != 2 || !ids.contains(m.compared[0]) || !ids.contains(m.compared[1]))
            return CalibrationView::tr("on the pairs both forecast (being computed)");
        const qint64 shared = m.sharedPairs(comparison);
        if (shared < metrics::kMinSharedPairs)
            return CalibrationView::tr("on the only %n pair(s) both forecast: too few (under %1) to tell which is "
                                       "better, so neither is ranked",
                nullptr, int(shared))
                .arg(metrics::kMinSharedPairs);
        return CalibrationView::tr("on the %1 pairs both forecast").arg(locale.toString(shared));
    }
    QStringList counts;
    for (RowId id : ids)
        counts.append(locale.toString(rowsOf(m.rows, id)));
    return ids.size() == 2
        ? CalibrationView::tr("each on all its pairs (%1)").arg(counts.join(CalibrationView::tr(" and ")))
        : CalibrationView::tr("on its %1 scored pairs").arg(counts.value(0));
}

// "every origin: 98 corpus, 180 search": what the first forecaster's shown pairs are made of.
QString originText(const CalibrationSnapshot &snapshot, metrics::Comparison comparison, const QList<RowId> &ids)
{
    if (const std::optional<PairOrigin> origin = snapshot.request.origin)
        return CalibrationView::tr("%1 only").arg(pairOriginText(*origin));
    if (ids.isEmpty())
        return CalibrationView::tr("every origin");
    QHash<RowId, PairOrigin> originOfCandidate;
    for (const ScoredPair &pair : snapshot.pairs.pairs)
        originOfCandidate.insert(pair.candidateId, pair.origin);
    std::array<qint64, 4> counts {};
    for (const metrics::ScoredRow &row : snapshot.metrics.rowsFor(comparison)) {
        if (row.forecasterId == ids.first())
            ++counts[std::size_t(originOfCandidate.value(row.pairId, PairOrigin::Other))];
    }
    QStringList parts;
    for (const PairOrigin origin : {PairOrigin::Corpus, PairOrigin::Imported, PairOrigin::Search, PairOrigin::Other}) {
        if (const qint64 n = counts[std::size_t(origin)]; n > 0)
            parts.append(QStringLiteral("%1 %2").arg(QLocale().toString(n), pairOriginName(origin)));
    }
    return parts.isEmpty() ? CalibrationView::tr("every origin")
                           : CalibrationView::tr("every origin: %1").arg(parts.join(QStringLiteral(", ")));
}

} // namespace calibration_scope_detail

QString pairOriginText(PairOrigin origin)
{
    switch (origin) {
    case PairOrigin::Corpus:
        return CalibrationView::tr("corpus pairs");
    case PairOrigin::Imported:
        return CalibrationView::tr("imported pairs");
    case PairOrigin::Search:
        return CalibrationView::tr("search pairs");
    case PairOrigin::Other:
        break;
    }
    return CalibrationView::tr("other pairs");
}

QString calibrationScopeText(const CalibrationSnapshot &snapshot, metrics::Comparison comparison,
    const QList<RowId> &forecasterIds, RowId treeProblem)
{
    using namespace calibration_scope_detail;
    const CalibrationRequest &request = snapshot.request;
    const QStringList parts {forecasterNames(snapshot, forecasterIds),
        pairsText(snapshot, forecasterIds.size() < 2 ? metrics::Comparison::AllPairs : comparison, forecasterIds),
        request.problem.isEmpty() ? CalibrationView::tr("all problems") : request.problem,
        request.hardware.isEmpty() ? CalibrationView::tr("every GPU") : request.hardware,
        originText(snapshot, forecasterIds.size() < 2 ? metrics::Comparison::AllPairs : comparison, forecasterIds)};
    QString text = parts.join(QStringLiteral(" · "));
    const QString chosen = treeProblem != 0 ? nameOf(snapshot.pairs.problems, treeProblem) : QString();
    if (!chosen.isEmpty() && chosen != request.problem)
        text += u'\n'
            + CalibrationView::tr("The problem chosen in the Problems tree (%1) does not scope these plots: choose it "
                                  "in the Metrics dock's problem box.")
                  .arg(chosen);
    return text;
}

} // namespace gpuf
