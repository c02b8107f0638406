// Flattening scored rows into per-row arrays and the row-level sums; see prepared.h.
#include "core/metrics/prepared.h"
#include "core/common/nan.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace gpuf::metrics::detail {
namespace {

const double kLn8 = std::log(double(bins::kBinCount));
static_assert(bins::kConfidenceScores[0] == bins::ConfidenceScore::MaxProb
    && bins::kConfidenceScores[1] == bins::ConfidenceScore::NegEntropy
    && bins::kConfidenceScores[2] == bins::ConfidenceScore::Top2Margin);

double rankScoreOf(RankingScore kind, const bins::Distribution &p, std::optional<int> predictedBin)
{
    switch (kind) {
    case RankingScore::ExpectedBin:
        return bins::expectedBin(p);
    case RankingScore::ExpectedSpeedup:
        return bins::expectedSpeedup(p);
    case RankingScore::PredictedBin:
        return predictedBin ? double(*predictedBin) : bins::expectedBin(p);
    }
    return kNaN;
}

struct PoolIdentity
{
    qint64 poolKey;
    qint64 forecasterId;
    qint64 hardwareId;
    int repeat;
    bool operator==(const PoolIdentity &) const = default;
};

struct PoolIdentityHash
{
    std::size_t operator()(const PoolIdentity &k) const
    {
        std::size_t h = std::hash<qint64>()(k.poolKey);
        for (qint64 v : {k.forecasterId, k.hardwareId, qint64(k.repeat)})
            h ^= std::hash<qint64>()(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        return h;
    }
};

void buildPools(std::span<const ScoredRow> rows, PreparedRows &out, int minPoolSize)
{
    std::unordered_map<PoolIdentity, std::int32_t, PoolIdentityHash> index;
    out.pool.assign(out.size(), -1);
    for (std::uint32_t i = 0; i < out.size(); ++i) {
        if (std::isnan(out.speedup[i]))
            continue;
        const ScoredRow &row = rows[out.source[i]];
        const PoolIdentity key {row.poolKey, row.forecasterId, row.hardwareId, row.repeat};
        auto [it, inserted] = index.try_emplace(key, std::int32_t(out.pools.size()));
        if (inserted)
            out.pools.push_back(Pool {key.poolKey, key.forecasterId, key.hardwareId, key.repeat, 0.0, {}});
        out.pools[it->second].rows.push_back(i);
    }
    // Drop the small pools, keeping first-seen order for the rest.
    std::vector<Pool> kept;
    for (Pool &pool : out.pools) {
        if (qsizetype(pool.rows.size()) < std::max(1, minPoolSize))
            continue;
        pool.best = 0.0;
        for (std::uint32_t r : pool.rows) {
            pool.best = std::max(pool.best, out.speedup[r]);
            out.pool[r] = std::int32_t(kept.size());
        }
        kept.push_back(std::move(pool));
    }
    out.pools = std::move(kept);
}

// Maps a double to an unsigned key with the same order (negative values included), so scores can be
// radix-sorted: sorting 100 000 scores this way is several times faster than a comparison sort.
std::uint64_t orderedKey(double v)
{
    std::uint64_t bitsOf = 0;
    std::memcpy(&bitsOf, &v, sizeof v);
    return (bitsOf & 0x8000000000000000ULL) ? ~bitsOf : (bitsOf | 0x8000000000000000ULL);
}

// Stable LSD radix sort of row indices by key: 11-bit digits (6 passes, histograms that stay in L1, all
// counted in one read of the keys); a pass where every key has the same digit is skipped. Stability keeps
// ties in input order.
void radixSortByKey(std::vector<std::uint32_t> &rows, std::vector<std::uint64_t> &keys)
{
    constexpr int kDigitBits = 11;
    constexpr int kPasses = (64 + kDigitBits - 1) / kDigitBits;
    constexpr std::size_t kRadix = std::size_t(1) << kDigitBits;
    std::vector<std::array<std::uint32_t, kRadix>> counts(kPasses);
    for (std::uint64_t k : keys) {
        for (int pass = 0; pass < kPasses; ++pass)
            ++counts[pass][(k >> (pass * kDigitBits)) & (kRadix - 1)];
    }
    std::vector<std::uint32_t> rowsTmp(rows.size());
    std::vector<std::uint64_t> keysTmp(keys.size());
    for (int pass = 0; pass < kPasses; ++pass) {
        std::array<std::uint32_t, kRadix> &offsets = counts[pass];
        if (std::find(offsets.begin(), offsets.end(), std::uint32_t(keys.size())) != offsets.end())
            continue;
        std::exclusive_scan(offsets.begin(), offsets.end(), offsets.begin(), std::uint32_t(0));
        const int shift = pass * kDigitBits;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            const std::uint32_t slot = offsets[(keys[i] >> shift) & (kRadix - 1)]++;
            rowsTmp[slot] = rows[i];
            keysTmp[slot] = keys[i];
        }
        rows.swap(rowsTmp);
        keys.swap(keysTmp);
    }
}

void sortByScores(PreparedRows &out)
{
    std::vector<std::uint64_t> keys;
    for (int s = 0; s < 3; ++s) {
        std::vector<std::uint32_t> &order = out.ascending[s];
        order.clear();
        keys.clear();
        for (std::uint32_t i = 0; i < out.size(); ++i) {
            if (out.parsed[i]) {
                order.push_back(i);
                keys.push_back(orderedKey(out.confidence[s][i]));
            }
        }
        radixSortByKey(order, keys);
        std::vector<std::uint32_t> &runs = out.runs[s];
        runs.clear();
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (i == 0 || keys[i] != keys[i - 1])
                runs.push_back(0);
            ++runs.back();
        }
        out.wrongAscending[s].resize(order.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            out.wrongAscending[s][i] = out.predictedBin[order[i]] != out.trueBin[order[i]] ? 1 : 0;
    }
}

// Skill of the "all rows" scores (parse failures as uniform) against the base rate of the same rows.
void setSkillScalars(RowSummary &out, const BinCounts &trueBinCount)
{
    out.baseRate = baseRateScores(trueBinCount);
    auto &s = out.scalars;
    const auto skill = [&s](Scalar score, double reference) { return skillScore(s[std::size_t(score)], reference); };
    s[std::size_t(Scalar::RpsSkillBaseRate)] = skill(Scalar::Crps, out.baseRate.rps);
    s[std::size_t(Scalar::BrierSkillBaseRate)] = skill(Scalar::BrierSum, out.baseRate.brierSum);
    s[std::size_t(Scalar::LogSkillBaseRate)] = skill(Scalar::Nll, out.baseRate.nll);
}

} // namespace

std::optional<bins::Distribution> usableDistribution(const ScoredRow &row)
{
    if (!row.parsed || !row.predictedBin || *row.predictedBin < 1 || *row.predictedBin > bins::kBinCount)
        return std::nullopt;
    for (double v : row.p) {
        if (!(v >= 0.0) || !std::isfinite(v))
            return std::nullopt;
    }
    return bins::renormalised(row.p);
}

PreparedRows prepare(
    std::span<const ScoredRow> rows, std::span<const std::uint32_t> selection, const MetricsOptions &options)
{
    PreparedRows out;
    const std::size_t n = selection.size();
    for (auto *v : {&out.parsed, &out.trueBin, &out.predictedBin, &out.bucket})
        v->reserve(n);
    for (auto *v : {&out.brierSum, &out.crps, &out.nll, &out.entropy, &out.rankScore, &out.speedup})
        v->reserve(n);
    out.distribution.reserve(n);
    for (auto &v : out.confidence)
        v.reserve(n);
    out.source.reserve(n);
    out.pairId.reserve(n);

    const bins::Distribution uniform = uniformDistribution();
    const double uniformRank = rankScoreOf(options.rankingScore, uniform, std::nullopt);
    for (std::uint32_t index : selection) {
        const ScoredRow &row = rows[index];
        const int t = row.trueBin;
        if (t < 1 || t > bins::kBinCount)
            continue;
        out.source.push_back(index);
        out.pairId.push_back(row.pairId);
        out.trueBin.push_back(std::uint8_t(t));
        const bool knownSpeedup = row.trueSpeedup && *row.trueSpeedup > 0.0 && std::isfinite(*row.trueSpeedup);
        out.speedup.push_back(knownSpeedup ? *row.trueSpeedup : kNaN);

        const std::optional<bins::Distribution> p = usableDistribution(row);
        const bins::Distribution &dist = p ? *p : uniform;
        out.parsed.push_back(p ? 1 : 0);
        out.distribution.push_back(dist);
        out.brierSum.push_back(brierSum(dist, t));
        out.crps.push_back(crps(dist, t));
        out.nll.push_back(nll(dist, t));
        out.rankScore.push_back(p ? rankScoreOf(options.rankingScore, dist, row.predictedBin) : uniformRank);
        if (!p) {
            out.predictedBin.push_back(0);
            out.bucket.push_back(0);
            out.entropy.push_back(kNaN);
            for (auto &c : out.confidence)
                c.push_back(kNaN);
            continue;
        }
        const int predicted = *row.predictedBin;
        out.predictedBin.push_back(std::uint8_t(predicted));
        const double h = bins::entropy(dist);
        out.entropy.push_back(h);
        // neg_entropy is 1 − H/ln 8 (bins::confidence); the entropy is at hand, so it is not computed twice.
        out.confidence[0].push_back(bins::confidence(bins::ConfidenceScore::MaxProb, dist, predicted));
        out.confidence[1].push_back(1.0 - h / kLn8);
        out.confidence[2].push_back(bins::confidence(bins::ConfidenceScore::Top2Margin, dist, predicted));
        out.bucket.push_back(std::uint8_t(reliabilityBucket(out.confidence[0].back())));
    }
    sortByScores(out);
    buildPools(rows, out, options.minPoolSize);
    return out;
}

RowSummary summarise(const PreparedRows &rows, std::span<const std::uint32_t> weights)
{
    const bool weighted = !weights.empty();
    double nAll = 0, nParsed = 0, correct = 0, within = 0, entropy = 0;
    double brierAll = 0, crpsAll = 0, nllAll = 0, brierParsed = 0, crpsParsed = 0, nllParsed = 0;
    std::array<double, kReliabilityBuckets> bucketCount {}, bucketConfidence {}, bucketCorrect {};
    BinCounts trueBinCount {};
    const double *maxProb = rows.confidence[0].data();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double w = weighted ? double(weights[i]) : 1.0;
        if (w == 0.0)
            continue;
        nAll += w;
        trueBinCount[rows.trueBin[i] - 1] += w;
        brierAll += w * rows.brierSum[i];
        crpsAll += w * rows.crps[i];
        nllAll += w * rows.nll[i];
        if (!rows.parsed[i])
            continue;
        const int diff = int(rows.predictedBin[i]) - int(rows.trueBin[i]);
        const double hit = diff == 0 ? w : 0.0;
        nParsed += w;
        correct += hit;
        within += (diff >= -1 && diff <= 1) ? w : 0.0;
        entropy += w * rows.entropy[i];
        brierParsed += w * rows.brierSum[i];
        crpsParsed += w * rows.crps[i];
        nllParsed += w * rows.nll[i];
        const int b = rows.bucket[i];
        bucketCount[b] += w;
        bucketConfidence[b] += w * maxProb[i];
        bucketCorrect[b] += hit;
    }

    RowSummary out;
    out.nAll = nAll;
    out.nParsed = nParsed;
    const auto over = [](double sum, double n) { return n > 0.0 ? sum / n : kNaN; };
    auto &s = out.scalars;
    s.fill(kNaN);
    s[std::size_t(Scalar::Accuracy)] = over(correct, nParsed);
    s[std::size_t(Scalar::WithinOne)] = over(within, nParsed);
    s[std::size_t(Scalar::MeanEntropy)] = over(entropy, nParsed);
    s[std::size_t(Scalar::BrierSum)] = over(brierAll, nAll);
    s[std::size_t(Scalar::BrierHalf)] = 0.5 * over(brierAll, nAll);
    s[std::size_t(Scalar::Crps)] = over(crpsAll, nAll);
    s[std::size_t(Scalar::Nll)] = over(nllAll, nAll);
    s[std::size_t(Scalar::BrierSumParsed)] = over(brierParsed, nParsed);
    s[std::size_t(Scalar::BrierHalfParsed)] = 0.5 * over(brierParsed, nParsed);
    s[std::size_t(Scalar::CrpsParsed)] = over(crpsParsed, nParsed);
    s[std::size_t(Scalar::NllParsed)] = over(nllParsed, nParsed);
    for (int b = 0; b < kReliabilityBuckets; ++b) {
        ReliabilityBucket &bucket = out.reliability[b];
        bucket.low = double(b) / kReliabilityBuckets;
        bucket.high = double(b + 1) / kReliabilityBuckets;
        bucket.count = qint64(bucketCount[b]);
        bucket.meanConfidence = over(bucketConfidence[b], bucketCount[b]);
        bucket.accuracy = over(bucketCorrect[b], bucketCount[b]);
    }
    s[std::size_t(Scalar::Ece)] = expectedCalibrationError(out.reliability);
    setSkillScalars(out, trueBinCount);
    return out;
}

} // namespace gpuf::metrics::detail
