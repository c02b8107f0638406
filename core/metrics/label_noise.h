// Label noise (issue 28): a measured speedup whose 95 % interval straddles a bin edge could belong to either bin beside
// that edge. These rules count such pairs in one bin or the other, or leave them out, so the metrics can say how much
// of a forecaster's accuracy and scores rests on bins the measurement cannot tell apart.
#pragma once

#include "core/metrics/from_store.h"
#include "core/store/scored_pairs.h"

#include <QJsonObject>
#include <QString>

#include <array>
#include <optional>
#include <vector>

namespace gpuf::metrics {

enum class StraddlingRule : quint8 {
    AsMeasured, // the bin of the measured speedup (the default)
    LowerBin, // the bin below the straddled edge
    UpperBin, // the bin above it
    OtherBin, // the bin across the edge from the measured one
    Drop, // left out of the metrics
};
inline constexpr std::array<StraddlingRule, 5> kStraddlingRules {StraddlingRule::AsMeasured, StraddlingRule::LowerBin,
    StraddlingRule::UpperBin, StraddlingRule::OtherBin, StraddlingRule::Drop};

QString straddlingRuleName(StraddlingRule rule); // "as-measured" | "lower" | "upper" | "other" | "drop"
std::optional<StraddlingRule> straddlingRuleFromName(const QString &name);
QString straddlingRuleText(StraddlingRule rule); // for people: "in the lower bin", …

// The bin a pair measured in `measuredBin` counts in under `rule` when its interval straddles `straddledEdge` (a bin
// edge, bins::lowerEdge of some bin 2..8); nullopt when the rule drops it.
std::optional<int> countedBin(int measuredBin, double straddledEdge, StraddlingRule rule);

// `pairs` with the rule applied: straddling pairs moved to the bin countedBin() names, or left out (each forecaster's
// scored and straddling counts lowered by the pairs dropped). Pairs that do not straddle are untouched.
ScoredPairs applyStraddlingRule(ScoredPairs pairs, StraddlingRule rule);

// One forecaster's figures under one rule.
struct LabelNoiseRow
{
    StraddlingRule rule = StraddlingRule::AsMeasured;
    qint64 scored = 0; // rows scored under the rule
    qint64 moved = 0; // straddling rows whose bin the rule changed
    double accuracy = 0.0;
    double withinOne = 0.0;
    double rps = 0.0;
    double brierSum = 0.0;
    double nll = 0.0;
};

struct LabelNoise
{
    RowId forecasterId = 0;
    QString forecaster;
    qint64 straddling = 0; // its scored pairs whose interval straddles an edge (as measured)
    std::vector<LabelNoiseRow> rows; // one per kStraddlingRules, in that order
};

// Per forecaster of `pairs`, its figures under every rule (computeReport on its rows; with `samePairs`, on the pairs
// every chosen forecaster forecast, as the metrics table compares them).
std::vector<LabelNoise> labelNoise(const ScoredPairs &pairs, bool samePairs);

// {"n_straddling": n, "rules": {"as-measured": {"n", "n_moved", "accuracy", "within_one", "rps", "brier_sum",
// "nll"}, "lower": {…}, …}}
QJsonObject labelNoiseJson(const LabelNoise &noise);

} // namespace gpuf::metrics
