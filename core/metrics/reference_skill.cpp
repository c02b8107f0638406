// Skill against a reference forecaster; see reference_skill.h.
#include "core/metrics/reference_skill.h"

#include "core/forecasters/roofline_prior.h"
#include "core/metrics/calibration.h"
#include "core/metrics/from_store.h"
#include "core/metrics/ordinal_scores.h"
#include "core/store/forecast_repo.h"

#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace gpuf::metrics {

namespace reference_skill_detail {

using SkillPairKey = std::tuple<qint64, qint64, qint64>; // pool, candidate, hardware

SkillPairKey skillKeyOf(const ScoredRow &row) { return {row.poolKey, row.pairId, row.hardwareId}; }

bins::Distribution skillScoredAs(const ScoredRow &row) { return row.parsed ? row.p : uniformDistribution(); }

} // namespace reference_skill_detail

ReferenceSkill skillAgainst(std::span<const ScoredRow> rows, std::span<const ScoredRow> reference)
{
    using namespace reference_skill_detail;
    std::map<SkillPairKey, const ScoredRow *> byPair;
    for (const ScoredRow &row : reference) {
        if (row.trueBin >= 1 && row.trueBin <= bins::kBinCount)
            byPair.emplace(skillKeyOf(row), &row); // the first row of a pair stays
    }
    ReferenceSkill s;
    for (const ScoredRow &row : rows) {
        const auto found = byPair.find(skillKeyOf(row));
        if (found == byPair.end() || row.trueBin < 1 || row.trueBin > bins::kBinCount)
            continue;
        const ScoredRow *ref = found->second;
        ++s.n;
        const bins::Distribution p = skillScoredAs(row);
        const bins::Distribution q = skillScoredAs(*ref);
        s.rps += crps(p, row.trueBin);
        s.brierSum += brierSum(p, row.trueBin);
        s.nll += nll(p, row.trueBin);
        s.referenceRps += crps(q, row.trueBin);
        s.referenceBrierSum += brierSum(q, row.trueBin);
        s.referenceNll += nll(q, row.trueBin);
    }
    const double n = s.n > 0 ? double(s.n) : std::numeric_limits<double>::quiet_NaN();
    for (double *v : {&s.rps, &s.brierSum, &s.nll, &s.referenceRps, &s.referenceBrierSum, &s.referenceNll})
        *v /= n;
    s.rpsSkill = skillScore(s.rps, s.referenceRps);
    s.brierSkill = skillScore(s.brierSum, s.referenceBrierSum);
    s.logSkill = skillScore(s.nll, s.referenceNll);
    return s;
}

QHash<qint64, ReferenceSkill> skillsAgainst(
    std::span<const ScoredRow> rows, std::span<const ScoredRow> reference, const QString &referenceName)
{
    std::map<qint64, std::vector<ScoredRow>> byForecaster;
    for (const ScoredRow &row : rows)
        byForecaster[row.forecasterId].push_back(row);
    QHash<qint64, ReferenceSkill> out;
    for (const auto &[id, own] : byForecaster) {
        ReferenceSkill skill = skillAgainst(own, reference);
        if (!reference.empty())
            skill.reference = referenceName;
        out.insert(id, skill);
    }
    return out;
}

Result<std::vector<ScoredRow>> physicsPriorRows(Store &store, const ScoredPairFilter &filter, StraddlingRule rule)
{
    const QString name = QLatin1StringView(kRooflineForecasterName);
    auto prior = ForecasterRepo(store).findByName(name);
    if (!prior)
        return prior.failure();
    if (!prior->has_value() || !isRooflineForecaster(**prior))
        return std::vector<ScoredRow> {};
    auto pairs = loadScoredPairs(store, {{name}, filter.problem, filter.hardware});
    if (!pairs)
        return pairs.failure();
    return toScoredRows(applyStraddlingRule(std::move(*pairs), rule));
}

QJsonObject toJson(const ReferenceSkill &skill)
{
    const auto number = [](double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(); };
    return {{QStringLiteral("forecaster"), skill.reference}, {QStringLiteral("n"), skill.n},
        {QStringLiteral("rps"), number(skill.rps)}, {QStringLiteral("rps_reference"), number(skill.referenceRps)},
        {QStringLiteral("rps_skill"), number(skill.rpsSkill)}, {QStringLiteral("brier_sum"), number(skill.brierSum)},
        {QStringLiteral("brier_sum_reference"), number(skill.referenceBrierSum)},
        {QStringLiteral("brier_skill"), number(skill.brierSkill)}, {QStringLiteral("nll"), number(skill.nll)},
        {QStringLiteral("nll_reference"), number(skill.referenceNll)},
        {QStringLiteral("log_skill"), number(skill.logSkill)}};
}

} // namespace gpuf::metrics
