// Threshold rule, risk–coverage curves (binary_mismatch and regret), AURC and selective risk; see selective.h.
#include "core/metrics/selective.h"

#include "core/metrics/prepared.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace gpuf::metrics {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

int scoreIndex(bins::ConfidenceScore score)
{
    return int(std::find(bins::kConfidenceScores.begin(), bins::kConfidenceScores.end(), score)
        - bins::kConfidenceScores.begin());
}

std::vector<std::uint32_t> everyRow(std::size_t n)
{
    std::vector<std::uint32_t> all(n);
    std::iota(all.begin(), all.end(), 0u);
    return all;
}

// Walks the thresholds of one score from −∞ upwards: `visit(threshold)` sees the state for that
// threshold, then `remove(row)` is called for every row whose score equals it, since a strict threshold
// just above that score abstains on them. Ends with the +∞ threshold, where nothing is predicted.
template<typename Visit, typename Remove>
void walkThresholds(const detail::PreparedRows &rows, int score, Visit visit, Remove remove)
{
    const std::vector<std::uint32_t> &order = rows.ascending[score];
    const std::vector<double> &confidence = rows.confidence[score];
    visit(-kInf);
    std::size_t i = 0;
    while (i < order.size()) {
        const double value = confidence[order[i]];
        visit(value);
        for (; i < order.size() && confidence[order[i]] == value; ++i)
            remove(order[i]);
    }
    visit(kInf);
}

// Regret bookkeeping for the walk. Each pool keeps its parsed rows ordered by (predicted bin, speedup
// descending) with a cursor per bin that only moves forward past abstained rows, so asking for the best
// predicted row of the top bin costs amortised O(1) while rows leave the predicted set.
class RegretState
{
public:
    explicit RegretState(const detail::PreparedRows &rows)
        : m_rows(rows)
        , m_removed(rows.size(), 0)
    {
        const std::size_t poolCount = rows.pools.size();
        m_count.assign(poolCount * bins::kBinCount, 0);
        m_cursor.assign(poolCount * bins::kBinCount, 0);
        m_abstainedBest.assign(poolCount, -kInf);
        m_regret.assign(poolCount, 0.0);
        for (std::size_t p = 0; p < poolCount; ++p) {
            std::vector<std::uint32_t> members;
            for (std::uint32_t r : rows.pools[p].rows) {
                if (rows.parsed[r])
                    members.push_back(r);
                else // parse failures are measured at every threshold
                    m_abstainedBest[p] = std::max(m_abstainedBest[p], rows.speedup[r]);
            }
            std::sort(members.begin(), members.end(), [&](std::uint32_t a, std::uint32_t b) {
                if (rows.predictedBin[a] != rows.predictedBin[b])
                    return rows.predictedBin[a] < rows.predictedBin[b];
                return rows.speedup[a] > rows.speedup[b];
            });
            for (std::size_t k = 0; k < members.size(); ++k) {
                const std::size_t slot = p * bins::kBinCount + rows.predictedBin[members[k]] - 1;
                if (m_count[slot]++ == 0)
                    m_cursor[slot] = m_members.size() + k;
            }
            m_members.insert(m_members.end(), members.begin(), members.end());
            m_regret[p] = poolRegret(p);
            m_sum += m_regret[p];
        }
    }

    double mean() const { return m_regret.empty() ? kNaN : m_sum / double(m_regret.size()); }

    void abstain(std::uint32_t row)
    {
        const std::int32_t p = m_rows.pool[row];
        if (p < 0)
            return;
        m_removed[row] = 1;
        --m_count[std::size_t(p) * bins::kBinCount + m_rows.predictedBin[row] - 1];
        m_abstainedBest[p] = std::max(m_abstainedBest[p], m_rows.speedup[row]);
        m_sum -= m_regret[p];
        m_regret[p] = poolRegret(std::size_t(p));
        m_sum += m_regret[p];
    }

private:
    double poolRegret(std::size_t p)
    {
        double realised = m_abstainedBest[p];
        for (int b = bins::kBinCount; b >= 1; --b) {
            const std::size_t slot = p * bins::kBinCount + b - 1;
            if (m_count[slot] == 0)
                continue;
            std::size_t &cursor = m_cursor[slot];
            while (m_removed[m_members[cursor]])
                ++cursor;
            realised = std::max(realised, m_rows.speedup[m_members[cursor]]);
            break;
        }
        return m_rows.pools[p].best - realised;
    }

    const detail::PreparedRows &m_rows;
    std::vector<std::uint8_t> m_removed;
    std::vector<std::uint32_t> m_members;
    std::vector<qint64> m_count;
    std::vector<std::size_t> m_cursor;
    std::vector<double> m_abstainedBest;
    std::vector<double> m_regret;
    double m_sum = 0.0;
};

} // namespace

namespace detail {

RiskCoverageCurve mismatchCurve(const PreparedRows &rows, int score)
{
    RiskCoverageCurve curve;
    if (rows.size() == 0)
        return curve;
    const double total = double(rows.size());
    qint64 predicted = qint64(rows.ascending[score].size());
    qint64 wrong = 0;
    for (std::uint32_t r : rows.ascending[score])
        wrong += rows.predictedBin[r] != rows.trueBin[r] ? 1 : 0;
    curve.reserve(rows.ascending[score].size() + 2);
    walkThresholds(
        rows, score,
        [&](double threshold) {
            const double risk = predicted > 0 ? double(wrong) / double(predicted) : kNaN;
            curve.push_back({threshold, double(predicted) / total, risk, predicted});
        },
        [&](std::uint32_t r) {
            --predicted;
            wrong -= rows.predictedBin[r] != rows.trueBin[r] ? 1 : 0;
        });
    std::reverse(curve.begin(), curve.end());
    return curve;
}

double weightedMismatchAurc(const PreparedRows &rows, int score, std::span<const std::uint32_t> weights)
{
    double total = 0.0, predicted = 0.0, wrong = 0.0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        total += weights[i];
    for (std::uint32_t r : rows.ascending[score]) {
        predicted += weights[r];
        wrong += rows.predictedBin[r] != rows.trueBin[r] ? weights[r] : 0.0;
    }
    if (total <= 0.0)
        return kNaN;
    // The walk meets coverages in decreasing order; the trapezoid sum does not care about direction.
    double area = 0.0, previousCoverage = 0.0, previousRisk = 0.0;
    int valid = 0;
    walkThresholds(
        rows, score,
        [&](double) {
            if (predicted <= 0.0)
                return;
            const double coverage = predicted / total;
            const double risk = wrong / predicted;
            if (valid > 0 && coverage != previousCoverage)
                area += 0.5 * (risk + previousRisk) * (previousCoverage - coverage);
            previousCoverage = coverage;
            previousRisk = risk;
            ++valid;
        },
        [&](std::uint32_t r) {
            predicted -= weights[r];
            wrong -= rows.predictedBin[r] != rows.trueBin[r] ? weights[r] : 0.0;
        });
    return valid < 2 ? kNaN : area;
}

RiskCoverageCurve regretCurve(const PreparedRows &rows, int score)
{
    RiskCoverageCurve curve;
    if (rows.size() == 0)
        return curve;
    const double total = double(rows.size());
    qint64 predicted = qint64(rows.ascending[score].size());
    RegretState state(rows);
    curve.reserve(rows.ascending[score].size() + 2);
    walkThresholds(
        rows, score,
        [&](double threshold) {
            curve.push_back({threshold, double(predicted) / total, state.mean(), predicted});
        },
        [&](std::uint32_t r) {
            --predicted;
            state.abstain(r);
        });
    std::reverse(curve.begin(), curve.end());
    return curve;
}

} // namespace detail

QString riskKindName(RiskKind risk)
{
    return risk == RiskKind::BinaryMismatch ? QStringLiteral("binary_mismatch") : QStringLiteral("regret");
}

bool abstains(const ScoredRow &row, bins::ConfidenceScore score, double threshold)
{
    const std::optional<bins::Distribution> p = detail::usableDistribution(row);
    return !p || bins::confidence(score, *p, *row.predictedBin) < threshold;
}

RiskCoverageCurve riskCoverageCurve(
    std::span<const ScoredRow> rows, bins::ConfidenceScore score, RiskKind risk, const MetricsOptions &options)
{
    const std::vector<std::uint32_t> all = everyRow(rows.size());
    const detail::PreparedRows prepared = detail::prepare(rows, all, options);
    return risk == RiskKind::BinaryMismatch ? detail::mismatchCurve(prepared, scoreIndex(score))
                                            : detail::regretCurve(prepared, scoreIndex(score));
}

double aurc(std::span<const RiskCoveragePoint> curve)
{
    std::vector<RiskCoveragePoint> valid;
    valid.reserve(curve.size());
    std::copy_if(curve.begin(), curve.end(), std::back_inserter(valid),
        [](const RiskCoveragePoint &p) { return !std::isnan(p.risk); });
    if (valid.size() < 2)
        return kNaN;
    const auto byCoverage
        = [](const RiskCoveragePoint &a, const RiskCoveragePoint &b) { return a.coverage < b.coverage; };
    if (!std::is_sorted(valid.begin(), valid.end(), byCoverage))
        std::stable_sort(valid.begin(), valid.end(), byCoverage);
    double area = 0.0;
    for (std::size_t i = 1; i < valid.size(); ++i) {
        const RiskCoveragePoint &a = valid[i - 1];
        const RiskCoveragePoint &b = valid[i];
        if (b.coverage != a.coverage)
            area += 0.5 * (a.risk + b.risk) * (b.coverage - a.coverage);
    }
    return area;
}

double selectiveRiskAt(std::span<const RiskCoveragePoint> curve, double coverage)
{
    std::vector<RiskCoveragePoint> valid;
    std::copy_if(curve.begin(), curve.end(), std::back_inserter(valid),
        [](const RiskCoveragePoint &p) { return !std::isnan(p.risk); });
    if (valid.empty())
        return kNaN;
    std::stable_sort(valid.begin(), valid.end(),
        [](const RiskCoveragePoint &a, const RiskCoveragePoint &b) { return a.coverage < b.coverage; });
    if (coverage <= valid.front().coverage)
        return valid.front().risk;
    if (coverage >= valid.back().coverage)
        return valid.back().risk;
    const auto upper = std::lower_bound(
        valid.begin(), valid.end(), coverage, [](const RiskCoveragePoint &p, double c) { return p.coverage < c; });
    const RiskCoveragePoint &b = *upper;
    const RiskCoveragePoint &a = *(upper - 1);
    if (b.coverage == a.coverage)
        return a.risk;
    const double t = (coverage - a.coverage) / (b.coverage - a.coverage);
    return a.risk + t * (b.risk - a.risk);
}

ThresholdOutcome applyThreshold(
    std::span<const ScoredRow> rows, bins::ConfidenceScore score, double threshold, const MetricsOptions &options)
{
    const std::vector<std::uint32_t> all = everyRow(rows.size());
    const detail::PreparedRows prepared = detail::prepare(rows, all, options);
    const int s = scoreIndex(score);
    const auto predicts = [&](std::size_t i) { return prepared.parsed[i] && !(prepared.confidence[s][i] < threshold); };

    ThresholdOutcome out;
    out.total = qint64(prepared.size());
    qint64 wrong = 0;
    for (std::size_t i = 0; i < prepared.size(); ++i) {
        if (!predicts(i))
            continue;
        ++out.predicted;
        wrong += prepared.predictedBin[i] != prepared.trueBin[i] ? 1 : 0;
    }
    out.coverage = out.total > 0 ? double(out.predicted) / double(out.total) : kNaN;
    out.binaryMismatch = out.predicted > 0 ? double(wrong) / double(out.predicted) : kNaN;

    // Regret straight from its definition, pool by pool (the curve's incremental walk is checked against it).
    double regretSum = 0.0;
    for (const detail::Pool &pool : prepared.pools) {
        double abstainedBest = -kInf, topBest = -kInf;
        int topBin = 0;
        for (std::uint32_t r : pool.rows) {
            if (!predicts(r)) {
                abstainedBest = std::max(abstainedBest, prepared.speedup[r]);
            } else if (prepared.predictedBin[r] > topBin) {
                topBin = prepared.predictedBin[r];
                topBest = prepared.speedup[r];
            } else if (prepared.predictedBin[r] == topBin) {
                topBest = std::max(topBest, prepared.speedup[r]);
            }
        }
        regretSum += pool.best - std::max(abstainedBest, topBest);
    }
    out.regret = prepared.pools.empty() ? kNaN : regretSum / double(prepared.pools.size());
    return out;
}

} // namespace gpuf::metrics
