// Straddling pairs counted in either bin; see label_noise.h.
#include "core/metrics/label_noise.h"

#include <QCoreApplication>
#include <QHash>

#include <cmath>

namespace gpuf::metrics {

QString straddlingRuleName(StraddlingRule rule)
{
    switch (rule) {
    case StraddlingRule::AsMeasured:
        return QStringLiteral("as-measured");
    case StraddlingRule::LowerBin:
        return QStringLiteral("lower");
    case StraddlingRule::UpperBin:
        return QStringLiteral("upper");
    case StraddlingRule::OtherBin:
        return QStringLiteral("other");
    case StraddlingRule::Drop:
        return QStringLiteral("drop");
    }
    return {};
}

std::optional<StraddlingRule> straddlingRuleFromName(const QString &name)
{
    for (StraddlingRule rule : kStraddlingRules) {
        if (straddlingRuleName(rule) == name)
            return rule;
    }
    return std::nullopt;
}

QString straddlingRuleText(StraddlingRule rule)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("gpuf::metrics", text); };
    switch (rule) {
    case StraddlingRule::AsMeasured:
        return tr("in the measured bin");
    case StraddlingRule::LowerBin:
        return tr("in the lower bin");
    case StraddlingRule::UpperBin:
        return tr("in the upper bin");
    case StraddlingRule::OtherBin:
        return tr("in the other bin");
    case StraddlingRule::Drop:
        return tr("left out");
    }
    return {};
}

std::optional<int> countedBin(int measuredBin, double straddledEdge, StraddlingRule rule)
{
    // The edge is the lower edge of the upper bin; found by the nearest edge in log space, not by binOf, which could
    // round √2 either way.
    int upper = 2;
    for (int bin = 3; bin <= bins::kBinCount; ++bin) {
        if (std::abs(std::log(bins::lowerEdge(bin) / straddledEdge))
            < std::abs(std::log(bins::lowerEdge(upper) / straddledEdge)))
            upper = bin;
    }
    const int lower = upper - 1;
    switch (rule) {
    case StraddlingRule::AsMeasured:
        return measuredBin;
    case StraddlingRule::LowerBin:
        return lower;
    case StraddlingRule::UpperBin:
        return upper;
    case StraddlingRule::OtherBin:
        return measuredBin == upper ? lower : upper;
    case StraddlingRule::Drop:
        return std::nullopt;
    }
    return measuredBin;
}

ScoredPairs applyStraddlingRule(ScoredPairs pairs, StraddlingRule rule)
{
    if (rule == StraddlingRule::AsMeasured)
        return pairs;
    QList<ScoredPair> kept;
    kept.reserve(pairs.pairs.size());
    for (ScoredPair &pair : pairs.pairs) {
        if (!pair.straddledEdge) {
            kept.append(pair);
            continue;
        }
        if (const auto bin = countedBin(pair.trueBin, *pair.straddledEdge, rule)) {
            pair.trueBin = *bin;
            kept.append(pair);
            continue;
        }
        for (ScoredPairsForecaster &f : pairs.forecasters) {
            if (f.id == pair.forecasterId) {
                --f.scored;
                --f.straddling;
            }
        }
    }
    pairs.pairs = std::move(kept);
    return pairs;
}

std::vector<LabelNoise> labelNoise(const ScoredPairs &pairs, bool samePairs)
{
    std::vector<LabelNoise> out;
    for (const ScoredPairsForecaster &f : pairs.forecasters)
        out.push_back({f.id, f.name, f.straddling, {}});
    MetricsOptions options;
    options.regretCurves = false;
    for (StraddlingRule rule : kStraddlingRules) {
        const ScoredPairs counted = applyStraddlingRule(pairs, rule);
        QHash<RowId, qint64> moved;
        for (qsizetype i = 0, j = 0; i < pairs.pairs.size(); ++i) {
            const ScoredPair &before = pairs.pairs[i];
            if (j < counted.pairs.size() && counted.pairs[j].forecastId == before.forecastId) {
                if (counted.pairs[j].trueBin != before.trueBin)
                    ++moved[before.forecasterId];
                ++j;
            }
        }
        std::vector<ScoredRow> rows = toScoredRows(counted);
        if (samePairs)
            rows = metrics::samePairs(rows);
        const std::vector<ForecasterReport> reports = forecasterReports(counted, rows, options);
        for (std::size_t i = 0; i < reports.size(); ++i) {
            const MetricsReport &r = reports[i].report;
            out[i].rows.push_back({rule, r.nTotal, moved.value(out[i].forecasterId), r.scalar(Scalar::Accuracy),
                r.scalar(Scalar::WithinOne), r.scalar(Scalar::Crps), r.scalar(Scalar::BrierSum),
                r.scalar(Scalar::Nll)});
        }
    }
    return out;
}

QJsonObject labelNoiseJson(const LabelNoise &noise)
{
    const auto number = [](double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(); };
    QJsonObject rules;
    for (const LabelNoiseRow &row : noise.rows)
        rules.insert(straddlingRuleName(row.rule),
            QJsonObject {{QStringLiteral("n"), row.scored}, {QStringLiteral("n_moved"), row.moved},
                {QStringLiteral("accuracy"), number(row.accuracy)},
                {QStringLiteral("within_one"), number(row.withinOne)}, {QStringLiteral("rps"), number(row.rps)},
                {QStringLiteral("brier_sum"), number(row.brierSum)}, {QStringLiteral("nll"), number(row.nll)}});
    return {{QStringLiteral("n_straddling"), noise.straddling}, {QStringLiteral("rules"), rules}};
}

} // namespace gpuf::metrics
