// computeReport, grouping and same-pair selection; see report.h.
#include "core/metrics/report.h"
#include "core/common/nan.h"

#include "core/metrics/prepared.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <tuple>

namespace gpuf::metrics {
namespace {

// The cumulative reliability curves and the coverage-versus-width table, over the parsed forecasts.
void addOrdinalCalibration(const detail::PreparedRows &rows, const MetricsOptions &options, MetricsReport &report)
{
    std::vector<bins::Distribution> forecasts;
    std::vector<std::uint8_t> truth;
    std::vector<qint64> pairs;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!rows.parsed[i])
            continue;
        forecasts.push_back(rows.distribution[i]);
        truth.push_back(rows.trueBin[i]);
        pairs.push_back(rows.pairId[i]);
    }
    report.cumulativeReliability = cumulativeReliability(forecasts, truth, options.isotonicReliability);
    report.predictionSets = coverageTable(forecasts, truth, pairs);
}

MetricsReport reportFor(
    std::span<const ScoredRow> rows, std::span<const std::uint32_t> selection, const MetricsOptions &options)
{
    const detail::PreparedRows prepared = detail::prepare(rows, selection, options);
    MetricsReport report;
    const detail::RowSummary summary = detail::summarise(prepared, {});
    report.nTotal = qint64(prepared.size());
    report.nParsed = qint64(summary.nParsed);
    report.scalars = summary.scalars;
    report.reliability = summary.reliability;
    report.baseRate = summary.baseRate;
    addOrdinalCalibration(prepared, options, report);
    for (std::size_t i = 0; i < prepared.size(); ++i) {
        if (prepared.parsed[i])
            report.confusion.add(prepared.trueBin[i], prepared.predictedBin[i]);
    }
    for (int s = 0; s < 3; ++s) {
        report.mismatchCurves[s] = detail::mismatchCurve(prepared, s);
        report.scalars[std::size_t(Scalar::AurcMaxProb) + s] = aurc(report.mismatchCurves[s]);
    }
    if (options.regretCurves)
        report.regretCurves = detail::regretCurves(prepared);
    report.pools = detail::rankingPools(prepared);
    report.scalars[std::size_t(Scalar::UtilityAt10Pct)] = meanUtility(report, kUtilityFraction);
    if (options.bootstrapResamples > 0)
        detail::bootstrapIntervals(prepared, report.pools, options, report);
    return report;
}

using GroupTuple = std::tuple<qint64, qint64, qint64, qint64, qint64>;

GroupTuple groupTuple(const ScoredRow &row, unsigned fields)
{
    const auto pick = [fields](GroupField f, qint64 v) { return (fields & unsigned(f)) ? v : 0; };
    return {pick(GroupField::Forecaster, row.forecasterId), pick(GroupField::Problem, row.problemId),
        pick(GroupField::Hardware, row.hardwareId), pick(GroupField::Search, row.searchId),
        pick(GroupField::Repeat, row.repeat)};
}

GroupKey groupKey(const ScoredRow &row, unsigned fields)
{
    GroupKey key;
    const auto has = [fields](GroupField f) { return (fields & unsigned(f)) != 0; };
    if (has(GroupField::Forecaster))
        key.forecasterId = row.forecasterId;
    if (has(GroupField::Problem))
        key.problemId = row.problemId;
    if (has(GroupField::Hardware))
        key.hardwareId = row.hardwareId;
    if (has(GroupField::Search))
        key.searchId = row.searchId;
    if (has(GroupField::Repeat))
        key.repeat = row.repeat;
    return key;
}

} // namespace

namespace detail {

std::vector<RankingPool> rankingPools(const PreparedRows &rows)
{
    std::vector<RankingPool> pools;
    pools.reserve(rows.pools.size());
    for (const Pool &pool : rows.pools) {
        RankingPool out {pool.poolKey, pool.forecasterId, pool.hardwareId, pool.repeat, {}, pool.best, kNaN};
        out.items.reserve(pool.rows.size());
        for (std::uint32_t r : pool.rows)
            out.items.push_back({rows.rankScore[r], rows.speedup[r], rows.pairId[r]});
        sortForRanking(out.items);
        const std::size_t m = budgetCount(kUtilityFraction, out.items.size());
        out.utilityAt10Pct = expectedBestOfTop(out.items, m) / pool.best;
        pools.push_back(std::move(out));
    }
    return pools;
}

} // namespace detail

QString scalarName(Scalar scalar)
{
    switch (scalar) {
    case Scalar::Accuracy:
        return QStringLiteral("accuracy");
    case Scalar::WithinOne:
        return QStringLiteral("within_one");
    case Scalar::Ece:
        return QStringLiteral("ece");
    case Scalar::BrierHalf:
        return QStringLiteral("brier_half");
    case Scalar::BrierSum:
        return QStringLiteral("brier_sum");
    case Scalar::Crps:
        return QStringLiteral("crps");
    case Scalar::Nll:
        return QStringLiteral("nll");
    case Scalar::MeanEntropy:
        return QStringLiteral("mean_entropy");
    case Scalar::AurcMaxProb:
        return QStringLiteral("aurc_max_prob");
    case Scalar::AurcNegEntropy:
        return QStringLiteral("aurc_neg_entropy");
    case Scalar::AurcTop2Margin:
        return QStringLiteral("aurc_top2_margin");
    case Scalar::UtilityAt10Pct:
        return QStringLiteral("utility_at_10pct");
    case Scalar::BrierHalfParsed:
        return QStringLiteral("brier_half_parsed");
    case Scalar::BrierSumParsed:
        return QStringLiteral("brier_sum_parsed");
    case Scalar::CrpsParsed:
        return QStringLiteral("crps_parsed");
    case Scalar::NllParsed:
        return QStringLiteral("nll_parsed");
    case Scalar::RpsSkillBaseRate:
        return QStringLiteral("rps_skill_base_rate");
    case Scalar::BrierSkillBaseRate:
        return QStringLiteral("brier_skill_base_rate");
    case Scalar::LogSkillBaseRate:
        return QStringLiteral("log_skill_base_rate");
    case Scalar::Count:
        break;
    }
    return {};
}

MetricsReport computeReport(std::span<const ScoredRow> rows, const MetricsOptions &options)
{
    std::vector<std::uint32_t> all(rows.size());
    std::iota(all.begin(), all.end(), 0u);
    return reportFor(rows, all, options);
}

double meanUtility(const MetricsReport &report, double fraction)
{
    if (report.pools.empty())
        return kNaN;
    double sum = 0.0;
    for (const RankingPool &pool : report.pools) {
        const double u = fraction == kUtilityFraction
            ? pool.utilityAt10Pct
            : expectedBestOfTop(pool.items, budgetCount(fraction, pool.items.size())) / pool.bestSpeedup;
        sum += u;
    }
    return sum / double(report.pools.size());
}

std::vector<GroupReport> computeGroupedReports(
    std::span<const ScoredRow> rows, unsigned fields, const MetricsOptions &options)
{
    std::vector<std::uint32_t> order(rows.size());
    std::iota(order.begin(), order.end(), 0u);
    std::vector<GroupTuple> keys(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        keys[i] = groupTuple(rows[i], fields);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });

    std::vector<GroupReport> groups;
    std::size_t begin = 0;
    while (begin < order.size()) {
        std::size_t end = begin + 1;
        while (end < order.size() && keys[order[end]] == keys[order[begin]])
            ++end;
        const std::span<const std::uint32_t> selection(order.data() + begin, end - begin);
        groups.push_back({groupKey(rows[order[begin]], fields), reportFor(rows, selection, options)});
        begin = end;
    }
    return groups;
}

namespace {

// What "the same pair" means: the same reference (pool), candidate and hardware, and the same sample of it.
using PairKey = std::tuple<qint64, qint64, qint64, int>;

PairKey pairKeyOf(const ScoredRow &row) { return {row.poolKey, row.pairId, row.hardwareId, row.repeat}; }

} // namespace

std::vector<ScoredRow> samePairs(std::span<const ScoredRow> rows)
{
    std::vector<std::pair<PairKey, qint64>> pairForecaster; // (pair key, forecasterId), unique
    std::vector<qint64> forecasters;
    pairForecaster.reserve(rows.size());
    for (const ScoredRow &row : rows) {
        pairForecaster.emplace_back(pairKeyOf(row), row.forecasterId);
        forecasters.push_back(row.forecasterId);
    }
    std::sort(forecasters.begin(), forecasters.end());
    const std::size_t forecasterCount
        = std::size_t(std::unique(forecasters.begin(), forecasters.end()) - forecasters.begin());
    std::sort(pairForecaster.begin(), pairForecaster.end());
    pairForecaster.erase(std::unique(pairForecaster.begin(), pairForecaster.end()), pairForecaster.end());

    std::vector<PairKey> complete; // keys every forecaster has, ascending
    for (std::size_t i = 0; i < pairForecaster.size();) {
        std::size_t j = i;
        while (j < pairForecaster.size() && pairForecaster[j].first == pairForecaster[i].first)
            ++j;
        if (j - i == forecasterCount)
            complete.push_back(pairForecaster[i].first);
        i = j;
    }
    // One row per (key, forecaster): a forecaster holding two rows of one key would make n unequal again.
    std::set<std::pair<PairKey, qint64>> taken;
    std::vector<ScoredRow> kept;
    for (const ScoredRow &row : rows) {
        const PairKey key = pairKeyOf(row);
        if (!std::binary_search(complete.begin(), complete.end(), key))
            continue;
        if (taken.insert({key, row.forecasterId}).second)
            kept.push_back(row);
    }
    return kept;
}

} // namespace gpuf::metrics
