// What τ would trust, before a search starts: a forecaster's confidences on a problem's forecasts that have a measured
// truth (the probability of each forecast's predicted bin, paper-facts §3 max_prob), their spread and the share of
// them a threshold τ would trust, with how many of those were right. New Search… shows it beside τ.
#pragma once

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace gpuf {
struct ScoredPairs;
}

namespace gpuf::search {

// One forecaster's scored forecasts on one problem: (confidence, the measured bin agreed) in ascending confidence.
struct StoredConfidences
{
    QString forecaster;
    QString problem;
    QList<std::pair<double, bool>> forecasts;
};

struct TrustPreview
{
    int forecasts = 0;
    double p10 = 0.0, median = 0.0, p90 = 0.0; // confidence percentiles (nearest rank)
    int trusted = 0; // confidence ≥ τ
    int trustedRight = 0;
};

// Every (forecaster, problem) with at least one scored, parsed forecast; names as stored.
QList<StoredConfidences> storedConfidences(const ScoredPairs &pairs);
TrustPreview trustPreview(const StoredConfidences &c, double tau);
// The sentence New Search… shows for `forecaster` on `problem` under τ (none: the spread alone, where τ is not used);
// `c` null when nothing is stored.
QString trustPreviewText(
    const StoredConfidences *c, const QString &forecaster, const QString &problem, std::optional<double> tau);

} // namespace gpuf::search
