// Threshold rule, risk–coverage curves (binary_mismatch and regret), AURC and selective risk; see selective.h.
#include "core/metrics/selective.h"
#include "core/common/nan.h"

#include "core/metrics/prepared.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace gpuf::metrics {
namespace {

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
// threshold, then `remove(position, run)` abstains on the run of rows (positions in rows.ascending) whose
// score equals it, since a strict threshold just above that score abstains on them. Ends with +∞, where
// nothing is predicted.
template<typename Visit, typename Remove>
void walkThresholds(const detail::PreparedRows &rows, int score, Visit visit, Remove remove)
{
    const std::vector<std::uint32_t> &order = rows.ascending[score];
    const std::vector<double> &confidence = rows.confidence[score];
    visit(-kInf);
    std::size_t position = 0;
    for (std::uint32_t run : rows.runs[score]) {
        visit(confidence[order[position]]);
        remove(position, run);
        position += run;
    }
    visit(kInf);
}

// Regret bookkeeping for the walk. Each pool keeps its parsed rows ordered by (predicted bin, speedup
// descending) with a cursor per bin that only moves forward past abstained rows, so asking for the best
// predicted row of the top bin costs amortised O(1) while rows leave the predicted set. The layout is the
// same for every score, so it is built once and each walk copies only the small mutable part. State is
// packed per row and per pool because the walk visits rows in score order, i.e. at random in memory.
struct RegretRow
{
    double speedup = 0.0;
    std::int32_t pool = -1;
    std::uint32_t member = 0; // position in RegretLayout::memberSpeedup
    int bin = 0;
};

struct PoolState
{
    double best = 0.0;
    double abstainedBest = -kInf;
    double trustedBest = -kInf; // best speedup among predicted rows of the top predicted bin
    double regret = 0.0;
    int topBin = 0;
    std::array<std::uint32_t, bins::kBinCount> count {};
    std::array<std::uint32_t, bins::kBinCount> cursor {};
};

struct RegretLayout
{
    explicit RegretLayout(const detail::PreparedRows &rows)
        : row(rows.size())
        , pools(rows.pools.size())
    {
        std::vector<std::uint32_t> parsedMembers;
        for (std::size_t p = 0; p < rows.pools.size(); ++p) {
            PoolState &pool = pools[p];
            pool.best = rows.pools[p].best;
            parsedMembers.clear();
            for (std::uint32_t r : rows.pools[p].rows) {
                if (rows.parsed[r])
                    parsedMembers.push_back(r);
                else // parse failures are measured at every threshold
                    pool.abstainedBest = std::max(pool.abstainedBest, rows.speedup[r]);
            }
            std::sort(parsedMembers.begin(), parsedMembers.end(), [&](std::uint32_t a, std::uint32_t b) {
                if (rows.predictedBin[a] != rows.predictedBin[b])
                    return rows.predictedBin[a] < rows.predictedBin[b];
                return rows.speedup[a] > rows.speedup[b];
            });
            for (std::uint32_t r : parsedMembers) {
                const int bin = rows.predictedBin[r];
                const auto member = std::uint32_t(memberSpeedup.size());
                if (pool.count[bin - 1]++ == 0)
                    pool.cursor[bin - 1] = member;
                row[r] = {rows.speedup[r], std::int32_t(p), member, bin};
                memberSpeedup.push_back(rows.speedup[r]);
            }
        }
    }

    std::vector<RegretRow> row;
    std::vector<double> memberSpeedup;
    std::vector<PoolState> pools;
};

class RegretState
{
public:
    explicit RegretState(const RegretLayout &layout)
        : m_rows(layout.row)
        , m_memberSpeedup(layout.memberSpeedup)
        , m_removed(layout.memberSpeedup.size(), 0)
        , m_pools(layout.pools)
    {
        for (PoolState &pool : m_pools) {
            findTrusted(pool);
            pool.regret = pool.best - std::max(pool.abstainedBest, pool.trustedBest);
            m_sum += pool.regret;
        }
    }

    double mean() const { return m_pools.empty() ? kNaN : m_sum / double(m_pools.size()); }

    void abstain(std::uint32_t r)
    {
        const RegretRow &row = m_rows[r];
        if (row.pool < 0)
            return;
        PoolState &pool = m_pools[std::size_t(row.pool)];
        m_removed[row.member] = 1;
        --pool.count[row.bin - 1];
        pool.abstainedBest = std::max(pool.abstainedBest, row.speedup);
        // Only a row of the top bin can change what the policy trusts; otherwise the pool's regret moves
        // just with the best abstained speedup.
        if (row.bin == pool.topBin)
            findTrusted(pool);
        m_sum -= pool.regret;
        pool.regret = pool.best - std::max(pool.abstainedBest, pool.trustedBest);
        m_sum += pool.regret;
    }

private:
    void findTrusted(PoolState &pool)
    {
        pool.topBin = 0;
        pool.trustedBest = -kInf;
        for (int b = bins::kBinCount; b >= 1; --b) {
            if (pool.count[b - 1] == 0)
                continue;
            std::uint32_t &cursor = pool.cursor[b - 1];
            while (m_removed[cursor])
                ++cursor;
            pool.topBin = b;
            pool.trustedBest = m_memberSpeedup[cursor];
            return;
        }
    }

    const std::vector<RegretRow> &m_rows;
    const std::vector<double> &m_memberSpeedup;
    std::vector<std::uint8_t> m_removed;
    std::vector<PoolState> m_pools;
    double m_sum = 0.0;
};

RiskCoverageCurve regretCurveWith(const detail::PreparedRows &rows, int score, const RegretLayout &layout)
{
    RiskCoverageCurve curve;
    if (rows.size() == 0)
        return curve;
    const double total = double(rows.size());
    const std::vector<std::uint32_t> &order = rows.ascending[score];
    qint64 predicted = qint64(order.size());
    RegretState state(layout);
    curve.reserve(rows.runs[score].size() + 2);
    walkThresholds(
        rows, score,
        [&](double threshold) {
            curve.push_back({threshold, double(predicted) / total, state.mean(), predicted});
        },
        [&](std::size_t position, std::uint32_t run) {
            predicted -= run;
            for (std::size_t i = position; i < position + run; ++i)
                state.abstain(order[i]);
        });
    std::reverse(curve.begin(), curve.end());
    return curve;
}

} // namespace

namespace detail {

RiskCoverageCurve mismatchCurve(const PreparedRows &rows, int score)
{
    RiskCoverageCurve curve;
    if (rows.size() == 0)
        return curve;
    const double total = double(rows.size());
    const std::vector<std::uint8_t> &wrongAlong = rows.wrongAscending[score];
    qint64 predicted = qint64(wrongAlong.size());
    qint64 wrong = std::accumulate(wrongAlong.begin(), wrongAlong.end(), qint64(0));
    curve.reserve(rows.runs[score].size() + 2);
    walkThresholds(
        rows, score,
        [&](double threshold) {
            const double risk = predicted > 0 ? double(wrong) / double(predicted) : kNaN;
            curve.push_back({threshold, double(predicted) / total, risk, predicted});
        },
        [&](std::size_t position, std::uint32_t run) {
            predicted -= run;
            for (std::size_t i = position; i < position + run; ++i)
                wrong -= wrongAlong[i];
        });
    std::reverse(curve.begin(), curve.end());
    return curve;
}

double weightedMismatchAurc(const PreparedRows &rows, int score, std::span<const std::uint32_t> weights)
{
    const std::vector<std::uint32_t> &order = rows.ascending[score];
    const std::vector<std::uint8_t> &wrongAlong = rows.wrongAscending[score];
    double total = 0.0, predicted = 0.0, wrong = 0.0;
    for (std::uint32_t w : weights)
        total += w;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const double w = weights[order[i]];
        predicted += w;
        wrong += wrongAlong[i] ? w : 0.0;
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
        [&](std::size_t position, std::uint32_t run) {
            for (std::size_t i = position; i < position + run; ++i) {
                const double w = weights[order[i]];
                predicted -= w;
                wrong -= wrongAlong[i] ? w : 0.0;
            }
        });
    return valid < 2 ? kNaN : area;
}

std::array<RiskCoverageCurve, 3> regretCurves(const PreparedRows &rows)
{
    const RegretLayout layout(rows);
    return {regretCurveWith(rows, 0, layout), regretCurveWith(rows, 1, layout), regretCurveWith(rows, 2, layout)};
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
    if (risk == RiskKind::BinaryMismatch)
        return detail::mismatchCurve(prepared, scoreIndex(score));
    return regretCurveWith(prepared, scoreIndex(score), RegretLayout(prepared));
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
