// Ordinal calibration (issue 28): RPS and skill against the base rate, PAV, consistency bands, cumulative
// reliability and prediction sets — hand-computed cases, and a second computation written here from the definitions.
#include "core/metrics/consistency_band.h"
#include "core/metrics/cumulative_reliability.h"
#include "core/metrics/isotonic.h"
#include "core/metrics/ordinal_scores.h"
#include "core/metrics/prediction_sets.h"
#include "core/metrics/report.h"
#include "metrics_test_rows.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace gpuf;
using namespace gpuf::metrics;
using gpuf::metrics::testing::dist;
using gpuf::metrics::testing::parsedRow;

namespace {

bool near(double a, double b, double tolerance = 1e-12) { return std::abs(a - b) <= tolerance; }

// RPS written from its definition, independently of core: (1/7)·Σ_k (Σ_{j≤k} (p_j − y_j))².
double rpsByDefinition(const bins::Distribution &p, int t)
{
    double sum = 0.0, running = 0.0;
    for (int k = 1; k <= 7; ++k) {
        running += p[k - 1] - (k == t ? 1.0 : 0.0);
        sum += running * running;
    }
    return sum / 7.0;
}

ScoredRow rowOf(const bins::Distribution &p, int trueBin) { return parsedRow(p, bins::argmaxBin(p), trueBin); }

// Three pairs used by the hand-computed cases.
std::vector<ScoredRow> threePairs()
{
    return {rowOf(dist({{4, 0.5}, {5, 0.5}}), 4), rowOf(dist({{3, 0.2}, {4, 0.3}, {5, 0.5}}), 6),
        rowOf(dist({{1, 1.0}}), 1)};
}

} // namespace

class TestMetricsOrdinal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rpsByHand();
    void skillByHand();
    void baseRateForecasterHasZeroSkill();
    void perfectForecaster();
    void skillAgainstSecondComputation();
    void pavByHand();
    void consistencyBandByHand();
    void cumulativeReliabilityByHand();
    void cumulativeReliabilityAgainstSecondComputation();
    void isotonicIsMonotoneAndKeepsMass();
    void shortestSetByHand();
    void conformalScoresByHand();
    void conformalThresholdRank();
    void coverageOnConstructedCase();
};

void TestMetricsOrdinal::rpsByHand()
{
    // Pair 1: p = ½ on bins 4 and 5, t = 4. F = (0, 0, 0, .5, 1, 1, 1), [t ≤ k] = (0, 0, 0, 1, 1, 1, 1):
    //   only k = 4 differs, (0.5 − 1)² = 0.25, RPS = 0.25 / 7 = 0.0357142857…
    // Pair 2: p = (.2 on 3, .3 on 4, .5 on 5), t = 6. F = (0, 0, .2, .5, 1, 1, 1), [t ≤ k] = (0, 0, 0, 0, 0, 1, 1):
    //   0.04 + 0.25 + 1 = 1.29, RPS = 1.29 / 7 = 0.1842857142…
    // Pair 3: all mass on bin 1, t = 1: F = [t ≤ k] = 1 everywhere, RPS = 0.
    const std::vector<ScoredRow> rows = threePairs();
    QVERIFY(near(rps(rows[0].p, 4), 0.0357142857142857));
    QVERIFY(near(rps(rows[1].p, 6), 0.1842857142857143));
    QCOMPARE(rps(rows[2].p, 1), 0.0);
    // Mean over the pairs: 1.54 / 21 = 0.0733333…
    QVERIFY(near(computeReport(rows).scalar(Scalar::Crps), 0.0733333333333333));
}

void TestMetricsOrdinal::skillByHand()
{
    // Base rate of the true bins {4, 6, 1}: q = ⅓ on bins 1, 4 and 6; its F = (⅓, ⅓, ⅓, ⅔, ⅔, 1, 1).
    //   t = 1: 3·(⅔)² + 2·(⅓)² = 14/9;  t = 4: 3·(⅓)² + 2·(⅓)² = 5/9;  t = 6: 3·(⅓)² + 2·(⅔)² = 11/9.
    //   Mean RPS = (30/9) / 3 / 7 = 10/63 = 0.158730…; RPSS = 1 − (1.54/21)/(10/63) = 1 − 0.462 = 0.538.
    // Brier Σ: forecaster (0.5 + 1.38 + 0) / 3; base rate 1 − 2·⅓ + 3·(⅓)² = ⅔ on every row; BSS = 1 − 0.94 = 0.06.
    // Log: forecaster (ln 2 − ln 1e-12 + 0) / 3 (bin 6 had no mass: the 1e-12 floor); base rate ln 3;
    //   skill = 1 − 9.4413894… / 1.0986123… = −7.5939230…
    const MetricsReport r = computeReport(threePairs());
    QVERIFY(near(r.baseRate.rps, 10.0 / 63.0));
    QVERIFY(near(r.baseRate.brierSum, 2.0 / 3.0));
    QVERIFY(near(r.baseRate.nll, std::log(3.0)));
    QVERIFY(near(r.scalar(Scalar::RpsSkillBaseRate), 0.538, 1e-12));
    QVERIFY(near(r.scalar(Scalar::BrierSkillBaseRate), 0.06, 1e-12));
    QVERIFY(near(r.scalar(Scalar::LogSkillBaseRate), 1.0 - (std::log(2.0) - std::log(1e-12)) / 3.0 / std::log(3.0)));
    QVERIFY(near(r.scalar(Scalar::LogSkillBaseRate), -7.5939230, 1e-6));
    for (int b : {1, 4, 6})
        QVERIFY(near(r.baseRate.p[b - 1], 1.0 / 3.0));
}

void TestMetricsOrdinal::baseRateForecasterHasZeroSkill()
{
    std::vector<ScoredRow> rows = metrics::testing::randomRows(300, 11);
    std::array<double, bins::kBinCount> counts {};
    for (const ScoredRow &row : rows)
        counts[row.trueBin - 1] += 1.0;
    bins::Distribution base {};
    for (int b = 0; b < bins::kBinCount; ++b)
        base[b] = counts[b] / double(rows.size());
    for (ScoredRow &row : rows)
        row = rowOf(base, row.trueBin);
    const MetricsReport r = computeReport(rows);
    QVERIFY(near(r.scalar(Scalar::RpsSkillBaseRate), 0.0, 1e-12));
    QVERIFY(near(r.scalar(Scalar::BrierSkillBaseRate), 0.0, 1e-12));
    QVERIFY(near(r.scalar(Scalar::LogSkillBaseRate), 0.0, 1e-12));
}

void TestMetricsOrdinal::perfectForecaster()
{
    std::vector<ScoredRow> rows = metrics::testing::randomRows(200, 12);
    for (ScoredRow &row : rows) {
        const qint64 pair = row.pairId; // distinct pairs, so the conformal folds split them
        row = rowOf(dist({{row.trueBin, 1.0}}), row.trueBin);
        row.pairId = pair;
    }
    const MetricsReport r = computeReport(rows);
    QCOMPARE(r.scalar(Scalar::Crps), 0.0);
    QCOMPARE(r.scalar(Scalar::RpsSkillBaseRate), 1.0);
    QCOMPARE(r.scalar(Scalar::BrierSkillBaseRate), 1.0);
    QCOMPARE(r.scalar(Scalar::LogSkillBaseRate), 1.0);
    // Every set holds just the true bin: full coverage at width 1, from the forecast and after calibration.
    for (const CoverageRow &c : r.predictionSets) {
        QCOMPARE(c.forecastCoverage, 1.0);
        QCOMPARE(c.forecastWidth, 1.0);
        QCOMPARE(c.conformalCoverage, 1.0);
        QCOMPARE(c.conformalWidth, 1.0);
    }
    // All rows in one bin: the base rate is perfect too, so there is no skill to measure.
    std::vector<ScoredRow> one(5, rowOf(dist({{3, 1.0}}), 3));
    QVERIFY(std::isnan(computeReport(one).scalar(Scalar::RpsSkillBaseRate)));
}

void TestMetricsOrdinal::skillAgainstSecondComputation()
{
    const std::vector<ScoredRow> rows = metrics::testing::randomRows(500, 13);
    // The second computation: parse failures as uniform, base rate from counts, scores averaged over every row.
    std::array<double, bins::kBinCount> counts {};
    for (const ScoredRow &row : rows)
        counts[row.trueBin - 1] += 1.0;
    bins::Distribution base {};
    for (int b = 0; b < bins::kBinCount; ++b)
        base[b] = counts[b] / double(rows.size());
    double own = 0.0, reference = 0.0, ownBrier = 0.0, referenceBrier = 0.0;
    for (const ScoredRow &row : rows) {
        bins::Distribution p = row.parsed ? row.p : bins::Distribution {};
        if (!row.parsed)
            p.fill(0.125);
        own += rpsByDefinition(p, row.trueBin);
        reference += rpsByDefinition(base, row.trueBin);
        for (int b = 1; b <= 8; ++b) {
            const double y = b == row.trueBin ? 1.0 : 0.0;
            ownBrier += (p[b - 1] - y) * (p[b - 1] - y);
            referenceBrier += (base[b - 1] - y) * (base[b - 1] - y);
        }
    }
    const MetricsReport r = computeReport(rows);
    QVERIFY(near(r.scalar(Scalar::Crps), own / double(rows.size()), 1e-12));
    QVERIFY(near(r.scalar(Scalar::RpsSkillBaseRate), 1.0 - own / reference, 1e-12));
    QVERIFY(near(r.scalar(Scalar::BrierSkillBaseRate), 1.0 - ownBrier / referenceBrier, 1e-12));
}

void TestMetricsOrdinal::pavByHand()
{
    // Sorted: 0.1→0, 0.2→1, 0.3→0, 0.4→1, 0.4→1. 0.3's 0 violates 0.2's 1: pooled to ½. The tie at 0.4 is one block.
    const std::vector<BinaryOutcome> a {{0.3, 0}, {0.1, 0}, {0.4, 1}, {0.2, 1}, {0.4, 1}};
    const std::vector<IsotonicBlock> fit = isotonicFit(a);
    QCOMPARE(fit.size(), std::size_t(3));
    QCOMPARE(fit[0].fitted, 0.0);
    QCOMPARE(fit[0].count, 1);
    QCOMPARE(fit[1].forecastLow, 0.2);
    QCOMPARE(fit[1].forecastHigh, 0.3);
    QCOMPARE(fit[1].fitted, 0.5);
    QCOMPARE(fit[1].count, 2);
    QCOMPARE(fit[2].fitted, 1.0);
    QCOMPARE(fit[2].count, 2);
    // Ties are pooled before anything else: 0.5→{1, 0} is ½, then 0.6→0 violates it: one block of ⅓.
    const std::vector<BinaryOutcome> b {{0.5, 1}, {0.5, 0}, {0.6, 0}};
    const std::vector<IsotonicBlock> tied = isotonicFit(b);
    QCOMPARE(tied.size(), std::size_t(1));
    QVERIFY(near(tied[0].fitted, 1.0 / 3.0));
    QCOMPARE(tied[0].count, 3);
}

void TestMetricsOrdinal::consistencyBandByHand()
{
    // One forecast of ½: K ∈ {0, 1} with ½ each; the 5 % quantile is 0, the 95 % quantile 1.
    const std::vector<double> half {0.5};
    QCOMPARE(consistencyBand(half, 0.9).low, 0.0);
    QCOMPARE(consistencyBand(half, 0.9).high, 1.0);
    // Two forecasts of 0.9: P(K=0) = .01, P(K=1) = .18, P(K=2) = .81; CDF .01, .19, 1 → quantiles 1 and 2 of 2.
    const std::vector<double> two {0.9, 0.9};
    QCOMPARE(consistencyBand(two, 0.9).low, 0.5);
    QCOMPARE(consistencyBand(two, 0.9).high, 1.0);
    // 1000 forecasts of ½ (approximated): 500 ± 1.6449·√250 = 500 ± 26.0 → [474, 526] / 1000.
    const std::vector<double> many(1000, 0.5);
    QCOMPARE(consistencyBand(many, 0.9).low, 0.474);
    QCOMPARE(consistencyBand(many, 0.9).high, 0.526);
    QVERIFY(std::isnan(consistencyBand({}, 0.9).low));
}

void TestMetricsOrdinal::cumulativeReliabilityByHand()
{
    // p = ½ on bins 4 and 5 with t = 4: P(bin > 3) = 1 (observed 1), P(bin > 4) = ½ (observed 0), P(bin > 5) = 0.
    const std::vector<bins::Distribution> p {dist({{4, 0.5}, {5, 0.5}})};
    const std::vector<std::uint8_t> t {4};
    const CumulativeReliability curves = cumulativeReliability(p, t, true);
    QCOMPARE(curves[2].edge, 3);
    QCOMPARE(curves[2].speedup, 1.0);
    QCOMPARE(curves[2].buckets[9].count, 1);
    QCOMPARE(curves[2].buckets[9].observed, 1.0);
    QCOMPARE(curves[3].buckets[5].count, 1);
    QCOMPARE(curves[3].buckets[5].meanForecast, 0.5);
    QCOMPARE(curves[3].buckets[5].observed, 0.0);
    QCOMPARE(curves[3].bucketsOutsideBand(), 0); // one Bernoulli(½) can be 0
    QCOMPARE(curves[4].buckets[0].count, 1);
    QCOMPARE(curves[4].buckets[0].observed, 0.0);
    QCOMPARE(curves[3].isotonic.size(), std::size_t(1));
    QCOMPARE(curves[3].isotonic[0].fitted, 0.0);
    // A confident miss lies outside its band: P(bin > 3) = 1 for ten rows that all stayed at or below bin 3.
    const std::vector<bins::Distribution> sure(10, dist({{6, 1.0}}));
    const std::vector<std::uint8_t> low(10, 2);
    QCOMPARE(cumulativeReliability(sure, low, false)[2].bucketsOutsideBand(), 1);
}

void TestMetricsOrdinal::cumulativeReliabilityAgainstSecondComputation()
{
    const std::vector<ScoredRow> rows = metrics::testing::randomRows(400, 14);
    const MetricsReport r = computeReport(rows);
    for (int edge = 1; edge <= 7; ++edge) {
        std::array<double, 10> count {}, forecast {}, hits {};
        for (const ScoredRow &row : rows) {
            if (!row.parsed)
                continue;
            // The forecast core scores: renormalised (a no-op up to rounding, which matters at bucket edges).
            const bins::Distribution p = *bins::renormalised(row.p);
            double q = 0.0;
            for (int b = edge + 1; b <= 8; ++b)
                q += p[b - 1];
            const int bucket = std::min(9, int(std::floor(std::max(0.0, q) * 10.0)));
            count[bucket] += 1;
            forecast[bucket] += q;
            hits[bucket] += row.trueBin > edge ? 1 : 0;
        }
        const EdgeReliability &curve = r.cumulativeReliability[edge - 1];
        QCOMPARE(curve.count, r.nParsed);
        for (int b = 0; b < 10; ++b) {
            QCOMPARE(double(curve.buckets[b].count), count[b]);
            if (count[b] > 0) {
                QVERIFY(near(curve.buckets[b].meanForecast, forecast[b] / count[b], 1e-9));
                QVERIFY(near(curve.buckets[b].observed, hits[b] / count[b]));
                QVERIFY(curve.buckets[b].bandLow <= curve.buckets[b].bandHigh);
            }
        }
    }
}

void TestMetricsOrdinal::isotonicIsMonotoneAndKeepsMass()
{
    const std::vector<ScoredRow> rows = metrics::testing::randomRows(300, 15);
    MetricsOptions options;
    options.isotonicReliability = true;
    const MetricsReport r = computeReport(rows, options);
    for (const EdgeReliability &curve : r.cumulativeReliability) {
        qint64 n = 0;
        double hits = 0.0;
        for (std::size_t i = 0; i < curve.isotonic.size(); ++i) {
            n += curve.isotonic[i].count;
            hits += curve.isotonic[i].fitted * double(curve.isotonic[i].count);
            if (i > 0) {
                QVERIFY(curve.isotonic[i].fitted > curve.isotonic[i - 1].fitted);
                QVERIFY(curve.isotonic[i].forecastLow > curve.isotonic[i - 1].forecastHigh);
            }
        }
        // PAV keeps the total: the fitted values average to the observed frequency.
        QCOMPARE(n, curve.count);
        QVERIFY(near(hits / double(n), curve.observed, 1e-9));
    }
    QVERIFY(computeReport(rows).cumulativeReliability[0].isotonic.empty());
}

void TestMetricsOrdinal::shortestSetByHand()
{
    const bins::Distribution p = dist({{4, 0.3}, {5, 0.3}, {6, 0.3}, {7, 0.1}});
    const BinRange ninety = shortestSet(p, 0.9); // 0.3 + 0.3 + 0.3 reaches 0.9 despite rounding
    QCOMPARE(ninety.low, 4);
    QCOMPARE(ninety.high, 6);
    const BinRange half = shortestSet(p, 0.5); // 4–5 and 5–6 both hold 0.6: the lower
    QCOMPARE(half.low, 4);
    QCOMPARE(half.high, 5);
    const BinRange all = shortestSet(p, 0.95); // 4–7
    QCOMPARE(all.low, 4);
    QCOMPARE(all.high, 7);
    QCOMPARE(all.width(), 4);
}

void TestMetricsOrdinal::conformalScoresByHand()
{
    // From the mode (bin 4, 0.4): 5 (0.1 > 0.05), 6 (0.15 > 0.05), 3 (0.05 > 0), 2, 1, then 7 and 8 (left is gone).
    const bins::Distribution p = dist({{1, 0.1}, {2, 0.2}, {3, 0.05}, {4, 0.4}, {5, 0.1}, {6, 0.15}});
    const std::array<int, 8> expected {4, 5, 6, 3, 2, 1, 7, 8};
    QCOMPARE(growthOrder(p), expected);
    // Scores: the mass added before the bin.
    QCOMPARE(conformalScore(p, 4), 0.0);
    QVERIFY(near(conformalScore(p, 5), 0.4));
    QVERIFY(near(conformalScore(p, 6), 0.5));
    QVERIFY(near(conformalScore(p, 3), 0.65));
    QVERIFY(near(conformalScore(p, 2), 0.7));
    QVERIFY(near(conformalScore(p, 1), 0.9));
    QVERIFY(near(conformalScore(p, 7), 1.0));
    const BinRange set = conformalSet(p, 0.5); // bins with score ≤ 0.5: 4, 5, 6
    QCOMPARE(set.low, 4);
    QCOMPARE(set.high, 6);
    QVERIFY(near(set.mass, 0.65));
    QCOMPARE(conformalSet(p, std::numeric_limits<double>::infinity()).width(), 8);
}

void TestMetricsOrdinal::conformalThresholdRank()
{
    // n = 10, α = 0.1: rank ⌈11·0.9⌉ = 10 → the largest; α = 0.2: ⌈8.8⌉ = 9.
    std::vector<double> ten {0.5, 0.1, 0.9, 0.3, 0.7, 0.2, 1.0, 0.4, 0.6, 0.8};
    QCOMPARE(conformalThreshold(ten, 0.1), 1.0);
    QCOMPARE(conformalThreshold(ten, 0.2), 0.9);
    // n = 9, α = 0.1: ⌈10·0.9⌉ = 9 exactly (not 10 by rounding) → the largest; n = 8: rank 9 > 8 → the full set.
    std::vector<double> nine {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    QCOMPARE(conformalThreshold(nine, 0.1), 0.9);
    std::vector<double> eight {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
    QVERIFY(std::isinf(conformalThreshold(eight, 0.1)));
}

void TestMetricsOrdinal::coverageOnConstructedCase()
{
    // 100 pairs, one forecast (.3 on 4, 5, 6; .1 on 7); 30 true bins each at 4, 5, 6 and 10 at 7.
    const bins::Distribution p = dist({{4, 0.3}, {5, 0.3}, {6, 0.3}, {7, 0.1}});
    std::vector<bins::Distribution> forecasts(100, p);
    std::vector<std::uint8_t> truth;
    std::vector<qint64> groups;
    for (int i = 0; i < 100; ++i) {
        truth.push_back(std::uint8_t(i < 30 ? 4 : i < 60 ? 5 : i < 90 ? 6 : 7));
        groups.push_back(i);
    }
    const std::vector<CoverageRow> table = coverageTable(forecasts, truth, groups);
    QCOMPARE(table.size(), kSetAlphas.size());
    // The forecast's own sets: 4–5 at 50 % (covers 60 of 100), 4–6 at 80 % and 90 % (90), 4–7 at 95 % (all).
    const std::array<double, 4> coverage {0.6, 0.9, 0.9, 1.0}, width {2, 3, 3, 4};
    for (std::size_t a = 0; a < table.size(); ++a) {
        QCOMPARE(table[a].count, 100);
        QVERIFY(near(table[a].forecastCoverage, coverage[a]));
        QVERIFY(near(table[a].forecastWidth, width[a]));
    }
    // Conformal scores are 0 (bin 4), .3 (5), .6 (6), .9 (7). On all 100: α = .1 → rank ⌈101·.9⌉ = 91 → .9.
    QVERIFY(near(table[2].conformalThreshold, 0.9));
    // Out of sample the calibrated sets reach their target up to the finite-sample slack of the folds.
    for (const CoverageRow &row : table)
        QVERIFY2(row.conformalCoverage >= 1.0 - row.alpha - 0.05, qPrintable(QString::number(row.alpha)));
    // 90 % (and above) needs bin 7 in some folds: wider than at 50 %.
    QVERIFY(table[0].conformalWidth < table[2].conformalWidth);
}

QTEST_GUILESS_MAIN(TestMetricsOrdinal)
#include "tst_metrics_ordinal.moc"
