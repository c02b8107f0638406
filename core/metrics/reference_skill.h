// Skill against a reference forecaster (issue 28): a forecaster's ranked probability, Brier and log scores beside
// those of another forecaster — the physics prior (roofline_prior.h) — on the pairs both forecast, and the skill
// 1 − score / reference score of each. The base rate is the other reference (ordinal_scores.h).
#pragma once

#include "core/common/result.h"
#include "core/metrics/label_noise.h"
#include "core/metrics/scored_row.h"
#include "core/store/scored_pairs.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <span>
#include <vector>

namespace gpuf {
class Store;
}

namespace gpuf::metrics {

struct ReferenceSkill
{
    QString reference; // the reference forecaster's name; empty: the store has none
    qint64 n = 0; // rows of the forecaster whose pair the reference forecast too
    double rps = 0.0; // the forecaster's mean scores on those rows (parse failures scored as uniform)
    double brierSum = 0.0;
    double nll = 0.0;
    double referenceRps = 0.0; // the reference's on the same rows
    double referenceBrierSum = 0.0;
    double referenceNll = 0.0;
    double rpsSkill = 0.0; // skillScore(score, reference score): NaN without rows or with a perfect reference
    double brierSkill = 0.0;
    double logSkill = 0.0;
};

// `rows` of one forecaster against the rows of the reference: a row counts when the reference has a row of the same
// pair (pool, candidate, hardware); the reference's first such row is its forecast for every repeat.
ReferenceSkill skillAgainst(std::span<const ScoredRow> rows, std::span<const ScoredRow> reference);

// skillAgainst() for each forecaster of `rows` (by forecasterId), `referenceName` set where `reference` has rows.
QHash<qint64, ReferenceSkill> skillsAgainst(
    std::span<const ScoredRow> rows, std::span<const ScoredRow> reference, const QString &referenceName);

// The physics prior's scored rows in `store` under `filter`'s problem and hardware (its forecasters ignored), its
// straddling pairs counted by `rule` as the rest are; empty when the store has no roofline forecaster.
Result<std::vector<ScoredRow>> physicsPriorRows(
    Store &store, const ScoredPairFilter &filter, StraddlingRule rule = StraddlingRule::AsMeasured);

// {"forecaster", "n", "rps", "rps_reference", "rps_skill", "brier_sum", "brier_sum_reference", "brier_skill", "nll",
// "nll_reference", "log_skill"}; NaN as null.
QJsonObject toJson(const ReferenceSkill &skill);

} // namespace gpuf::metrics
