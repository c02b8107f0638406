// What τ would trust; see trust_preview.h.
#include "core/search/trust_preview.h"

#include "core/store/scored_pairs.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace gpuf::search {

namespace {

QString nameOf(const QList<gpuf::NamedRow> &rows, RowId id)
{
    for (const gpuf::NamedRow &r : rows) {
        if (r.id == id)
            return r.name;
    }
    return {};
}

// The nearest-rank percentile q (0..1) of an ascending list.
double percentile(const QList<std::pair<double, bool>> &sorted, double q)
{
    const auto n = sorted.size();
    const auto rank = std::clamp<qsizetype>(qsizetype(std::ceil(q * double(n))) - 1, 0, n - 1);
    return sorted.at(rank).first;
}

QString percent(int part, int whole) { return QString::number(100.0 * part / std::max(1, whole), 'f', 0) + u'%'; }

} // namespace

QList<StoredConfidences> storedConfidences(const ScoredPairs &pairs)
{
    QHash<QString, int> index; // forecaster + '\n' + problem → position in out
    QList<StoredConfidences> out;
    for (const gpuf::ScoredPair &p : pairs.pairs) {
        if (!p.parsed || !p.predictedBin)
            continue;
        const QString forecaster = nameOf(pairs.allForecasters, p.forecasterId);
        const QString problem = nameOf(pairs.problems, p.problemId);
        const QString key = forecaster + u'\n' + problem;
        auto at = index.find(key);
        if (at == index.end()) {
            at = index.insert(key, int(out.size()));
            out.append({forecaster, problem, {}});
        }
        const double c = bins::confidence(bins::ConfidenceScore::MaxProb, p.p, *p.predictedBin);
        out[*at].forecasts.append({c, *p.predictedBin == p.trueBin});
    }
    for (StoredConfidences &c : out)
        std::stable_sort(c.forecasts.begin(), c.forecasts.end(),
            [](const std::pair<double, bool> &a, const std::pair<double, bool> &b) { return a.first < b.first; });
    return out;
}

TrustPreview trustPreview(const StoredConfidences &c, double tau)
{
    TrustPreview t;
    t.forecasts = int(c.forecasts.size());
    if (t.forecasts == 0)
        return t;
    t.p10 = percentile(c.forecasts, 0.1);
    t.median = percentile(c.forecasts, 0.5);
    t.p90 = percentile(c.forecasts, 0.9);
    for (const auto &[confidence, right] : c.forecasts) {
        if (confidence >= tau) {
            ++t.trusted;
            t.trustedRight += right ? 1 : 0;
        }
    }
    return t;
}

QString trustPreviewText(
    const StoredConfidences *c, const QString &forecaster, const QString &problem, std::optional<double> tau)
{
    const TrustPreview t = c ? trustPreview(*c, tau.value_or(1.0)) : TrustPreview {};
    if (t.forecasts == 0)
        return QStringLiteral("%1 has no forecast with a measured truth on %2 yet: nothing shows what τ would trust.")
            .arg(forecaster, problem);
    QString text = QStringLiteral("%1 on %2: %3 forecast(s) with a measured truth, confidence %4 · %5 · %6 (10th, "
                                  "50th, 90th percentile).")
                       .arg(forecaster, problem)
                       .arg(t.forecasts)
                       .arg(t.p10, 0, 'f', 2)
                       .arg(t.median, 0, 'f', 2)
                       .arg(t.p90, 0, 'f', 2);
    if (!tau)
        return text;
    text += QStringLiteral(" τ = %1 would trust %2 of them (%3)")
                .arg(*tau, 0, 'f', 2)
                .arg(t.trusted)
                .arg(percent(t.trusted, t.forecasts));
    if (t.trusted > 0)
        text += QStringLiteral("; %1 of those were right (%2)")
                    .arg(t.trustedRight)
                    .arg(percent(t.trustedRight, t.trusted));
    return text + u'.';
}

} // namespace gpuf::search
