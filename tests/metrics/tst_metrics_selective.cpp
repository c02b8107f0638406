// Tests for selective prediction and ranking in core/metrics: the threshold rule, risk–coverage curves,
// AURC, selective risk, regret, and ranking utility with ties (checked against brute-force enumeration).
#include "core/metrics/prepared.h"
#include "core/metrics/ranking.h"
#include "core/metrics/report.h"
#include "core/metrics/selective.h"
#include "metrics_test_rows.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace gpuf;
using namespace gpuf::metrics;
using metrics::testing::dist;
using metrics::testing::failedRow;
using metrics::testing::parsedRow;

namespace {
constexpr double kTol = 1e-12;
constexpr double kInf = std::numeric_limits<double>::infinity();
bool near(double a, double b, double tol = kTol) { return std::abs(a - b) <= tol || (std::isnan(a) && std::isnan(b)); }

// Five rows whose max_prob curve is worked out in riskCoverageByHand().
std::vector<ScoredRow> fiveRows()
{
    return {
        parsedRow(dist({{4, 0.9}, {5, 0.1}}), 4, 4), // 0.9 right
        parsedRow(dist({{4, 0.8}, {5, 0.2}}), 4, 6), // 0.8 wrong
        parsedRow(dist({{4, 0.8}, {5, 0.2}}), 4, 4), // 0.8 right (a tie)
        parsedRow(dist({{4, 0.5}, {5, 0.5}}), 4, 2), // 0.5 wrong
        failedRow(3),
    };
}

// Two pools for regret, worked out in regretByHand().
std::vector<ScoredRow> regretRows()
{
    auto pooled = [](ScoredRow row, qint64 pool) {
        row.poolKey = pool;
        return row;
    };
    return {
        pooled(parsedRow(dist({{5, 0.6}, {4, 0.4}}), 5, 6, 3.0), 1),
        pooled(parsedRow(dist({{7, 0.9}, {6, 0.1}}), 7, 4, 1.0), 1),
        pooled(parsedRow(dist({{6, 0.8}, {5, 0.2}}), 6, 5, 2.0), 1),
        pooled(failedRow(2, 0.5), 1),
        pooled(parsedRow(dist({{4, 0.7}, {5, 0.3}}), 4, 6, 2.0), 2),
        pooled(parsedRow(dist({{5, 0.7}, {4, 0.3}}), 5, 4, 1.0), 2),
    };
}

// E[best of the top m] by enumerating every ordering consistent with the scores.
std::vector<double> bruteForceBudgetCurve(const std::vector<RankedItem> &items)
{
    const std::size_t n = items.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> sum(n, 0.0);
    long long valid = 0;
    do {
        bool sorted = true;
        for (std::size_t i = 1; i < n && sorted; ++i)
            sorted = items[order[i - 1]].score >= items[order[i]].score;
        if (!sorted)
            continue;
        ++valid;
        double best = -kInf;
        for (std::size_t m = 0; m < n; ++m) {
            best = std::max(best, items[order[m]].speedup);
            sum[m] += best;
        }
    } while (std::next_permutation(order.begin(), order.end()));
    for (double &s : sum)
        s /= double(valid);
    return sum;
}
} // namespace

class TestMetricsSelective : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void thresholdRule()
    {
        const ScoredRow row = parsedRow(dist({{4, 0.7}, {5, 0.3}}), 4, 4);
        QVERIFY(!abstains(row, bins::ConfidenceScore::MaxProb, 0.7)); // strict: equal predicts
        QVERIFY(abstains(row, bins::ConfidenceScore::MaxProb, std::nextafter(0.7, 1.0)));
        QVERIFY(!abstains(row, bins::ConfidenceScore::Top2Margin, 0.3));
        QVERIFY(abstains(failedRow(4), bins::ConfidenceScore::MaxProb, -kInf)); // failures always abstain
    }

    void riskCoverageByHand()
    {
        const RiskCoverageCurve c
            = riskCoverageCurve(fiveRows(), bins::ConfidenceScore::MaxProb, RiskKind::BinaryMismatch, {});
        // Thresholds {−∞, 0.5, 0.8, 0.9, +∞}, listed by increasing coverage (the failure is in the denominator).
        QCOMPARE(c.size(), std::size_t(5));
        const double thresholds[] {kInf, 0.9, 0.8, 0.5, -kInf};
        const double coverage[] {0.0, 0.2, 0.6, 0.8, 0.8};
        const double risk[] {std::numeric_limits<double>::quiet_NaN(), 0.0, 1.0 / 3, 0.5, 0.5};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(c[i].threshold, thresholds[i]);
            QVERIFY(near(c[i].coverage, coverage[i]));
            QVERIFY2(near(c[i].risk, risk[i]), qPrintable(QString::number(c[i].risk)));
        }
        QCOMPARE(c[2].predicted, 3);
        QVERIFY(near(aurc(c), 0.4 * (1.0 / 3) / 2 + 0.2 * (1.0 / 3 + 0.5) / 2));
    }

    void selectiveRisk_data()
    {
        QTest::addColumn<double>("coverage");
        QTest::addColumn<double>("risk");
        QTest::newRow("below the first point: clamped") << 0.1 << 0.0;
        QTest::newRow("at a point") << 0.6 << 1.0 / 3;
        QTest::newRow("halfway 0.2..0.6") << 0.4 << 1.0 / 6;
        QTest::newRow("between 0.6 and 0.8") << 0.7 << (1.0 / 3 + 0.5) / 2;
        QTest::newRow("beyond the last: clamped") << 0.95 << 0.5;
    }
    void selectiveRisk()
    {
        QFETCH(double, coverage);
        QFETCH(double, risk);
        const RiskCoverageCurve c
            = riskCoverageCurve(fiveRows(), bins::ConfidenceScore::MaxProb, RiskKind::BinaryMismatch, {});
        QVERIFY(near(selectiveRiskAt(c, coverage), risk, 1e-12));
    }

    void aurcEdgeCases()
    {
        QVERIFY(std::isnan(aurc({})));
        const RiskCoveragePoint one {0.5, 0.5, 0.2, 1};
        QVERIFY(std::isnan(aurc(std::vector<RiskCoveragePoint> {one})));
        QVERIFY(std::isnan(selectiveRiskAt({}, 0.5)));
        // Unsorted input is sorted by coverage; equal-coverage neighbours add nothing.
        const std::vector<RiskCoveragePoint> points {{0, 1.0, 0.4, 4}, {0, 0.5, 0.2, 2}, {0, 0.5, 0.2, 2}};
        QVERIFY(near(aurc(points), 0.5 * (0.2 + 0.4) / 2));
        // All scores tied: two valid points of equal coverage → area 0, not NaN.
        const std::vector<ScoredRow> tied {
            parsedRow(dist({{4, 0.6}, {5, 0.4}}), 4, 4), parsedRow(dist({{4, 0.6}, {5, 0.4}}), 4, 5)};
        QCOMPARE(aurc(riskCoverageCurve(tied, bins::ConfidenceScore::MaxProb, RiskKind::BinaryMismatch, {})), 0.0);
    }

    void perfectConfidenceRanker()
    {
        // Confidence 0.9 on every right answer, 0.6 on every wrong one: risk is 0 up to the share right.
        std::vector<ScoredRow> rows;
        for (int i = 0; i < 30; ++i) {
            const bool right = i % 3 != 0;
            rows.push_back(
                parsedRow(right ? dist({{4, 0.9}, {5, 0.1}}) : dist({{4, 0.6}, {5, 0.4}}), 4, right ? 4 : 5));
        }
        const RiskCoverageCurve perfect
            = riskCoverageCurve(rows, bins::ConfidenceScore::MaxProb, RiskKind::BinaryMismatch, {});
        QCOMPARE(selectiveRiskAt(perfect, 20.0 / 30), 0.0);
        // Any other assignment of the same confidences ranks no better.
        std::mt19937 engine(3);
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<ScoredRow> shuffled = rows;
            std::vector<bins::Distribution> ps;
            for (const ScoredRow &r : rows)
                ps.push_back(r.p);
            std::shuffle(ps.begin(), ps.end(), engine);
            for (std::size_t i = 0; i < rows.size(); ++i)
                shuffled[i].p = ps[i];
            const RiskCoverageCurve other
                = riskCoverageCurve(shuffled, bins::ConfidenceScore::MaxProb, RiskKind::BinaryMismatch, {});
            QVERIFY(aurc(perfect) <= aurc(other) + kTol);
        }
    }

    void regretByHand()
    {
        const RiskCoverageCurve c
            = riskCoverageCurve(regretRows(), bins::ConfidenceScore::MaxProb, RiskKind::Regret, {});
        // Thresholds +∞, 0.9, 0.8, 0.7, 0.6, −∞ (by increasing coverage); pool regrets worked out by hand:
        // at −∞ pool 1 trusts bin 7 (speedup 1.0, best 3.0) → 2, pool 2 trusts bin 5 (1.0, best 2.0) → 1.
        const double coverage[] {0.0, 1.0 / 6, 2.0 / 6, 4.0 / 6, 5.0 / 6, 5.0 / 6};
        const double risk[] {0.0, 0.0, 0.0, 0.5, 1.5, 1.5};
        QCOMPARE(c.size(), std::size_t(6));
        for (int i = 0; i < 6; ++i) {
            QVERIFY(near(c[i].coverage, coverage[i]));
            QVERIFY2(near(c[i].risk, risk[i], 1e-12), qPrintable(QString::number(c[i].risk)));
        }
        QVERIFY(near(aurc(c), (1.0 / 3) * 0.5 / 2 + (1.0 / 6) * (0.5 + 1.5) / 2));
    }

    // The incremental curves agree with the threshold rule applied from scratch at every threshold.
    void curvesAgreeWithThresholdRule()
    {
        const auto rows = metrics::testing::randomRows(400, 11, 7);
        MetricsOptions options;
        for (bins::ConfidenceScore score : bins::kConfidenceScores) {
            const RiskCoverageCurve mismatch = riskCoverageCurve(rows, score, RiskKind::BinaryMismatch, options);
            const RiskCoverageCurve regret = riskCoverageCurve(rows, score, RiskKind::Regret, options);
            QCOMPARE(mismatch.size(), regret.size());
            for (std::size_t i = 0; i < mismatch.size(); ++i) {
                const ThresholdOutcome o = applyThreshold(rows, score, mismatch[i].threshold, options);
                QCOMPARE(o.predicted, mismatch[i].predicted);
                QVERIFY(near(o.coverage, mismatch[i].coverage));
                QVERIFY(near(o.binaryMismatch, mismatch[i].risk));
                QVERIFY2(near(o.regret, regret[i].risk, 1e-9), qPrintable(QString::number(o.regret - regret[i].risk)));
            }
            // The bootstrap's streaming AURC with unit weights equals the curve's.
            std::vector<std::uint32_t> all(rows.size());
            std::iota(all.begin(), all.end(), 0u);
            const detail::PreparedRows prepared = detail::prepare(rows, all, options);
            const std::vector<std::uint32_t> ones(prepared.size(), 1u);
            const int s = int(std::find(bins::kConfidenceScores.begin(), bins::kConfidenceScores.end(), score)
                - bins::kConfidenceScores.begin());
            QVERIFY(near(detail::weightedMismatchAurc(prepared, s, ones), aurc(mismatch), 1e-12));
        }
    }

    void budgetCount_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("m");
        QTest::newRow("10% of 30 is 3, not 4") << 0.1 << 30 << 3;
        QTest::newRow("10% of 10") << 0.1 << 10 << 1;
        QTest::newRow("10% of 4 rounds up") << 0.1 << 4 << 1;
        QTest::newRow("30% of 10") << 0.3 << 10 << 3;
        QTest::newRow("26% of 4") << 0.26 << 4 << 2;
        QTest::newRow("tiny fraction measures one") << 1e-12 << 10 << 1;
        QTest::newRow("zero fraction") << 0.0 << 10 << 0;
        QTest::newRow("more than all") << 1.5 << 10 << 10;
        QTest::newRow("empty pool") << 0.5 << 0 << 0;
    }
    void budgetCount()
    {
        QFETCH(double, fraction);
        QFETCH(int, n);
        QFETCH(int, m);
        QCOMPARE(metrics::budgetCount(fraction, std::size_t(n)), std::size_t(m));
    }

    void utilityWithTiesByHand_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<double>("utility");
        // Scores (2, 1, 1, 1) with speedups (1, 4, 2, 3): best 4. m = 2 measures one random tied item:
        // E = (2 + 3 + 4)/3 = 3 (each lifted to at least the 1.0 above); m = 3: E over pairs = 11/3.
        QTest::newRow("m=1") << 0.1 << 0.25;
        QTest::newRow("m=2") << 0.5 << 0.75;
        QTest::newRow("m=3") << 0.75 << 11.0 / 12;
        QTest::newRow("m=4") << 1.0 << 1.0;
    }
    void utilityWithTiesByHand()
    {
        QFETCH(double, fraction);
        QFETCH(double, utility);
        const std::vector<RankedItem> pool {{2, 1.0, 0}, {1, 4.0, 1}, {1, 2.0, 2}, {1, 3.0, 3}};
        QVERIFY(near(rankingUtility(pool, fraction), utility));
    }

    void budgetCurveByHand()
    {
        const std::vector<RankedItem> pool {{1, 4.0, 1}, {2, 1.0, 0}, {1, 2.0, 2}, {1, 3.0, 3}};
        const std::vector<double> curve = budgetCurve(pool);
        const double expected[] {1.0, 3.0, 11.0 / 3, 4.0};
        QCOMPARE(curve.size(), std::size_t(4));
        for (int m = 0; m < 4; ++m)
            QVERIFY(near(curve[m], expected[m]));
        QVERIFY(budgetCurve({}).empty());
        QVERIFY(std::isnan(rankingUtility({}, 0.1)));
    }

    void utilityMatchesBruteForce()
    {
        std::mt19937 engine(42);
        for (int trial = 0; trial < 60; ++trial) {
            const std::size_t n = 1 + engine() % 7;
            std::vector<RankedItem> items;
            for (std::size_t i = 0; i < n; ++i)
                items.push_back({double(engine() % 3), 0.25 + double(engine() % 8), qint64(i)});
            const std::vector<double> truth = bruteForceBudgetCurve(items);
            const std::vector<double> curve = budgetCurve(items);
            std::vector<RankedItem> sorted = items;
            sortForRanking(sorted);
            QCOMPARE(curve.size(), n);
            for (std::size_t m = 1; m <= n; ++m) {
                QVERIFY2(near(curve[m - 1], truth[m - 1], 1e-12),
                    qPrintable(QStringLiteral("trial %1 m %2").arg(trial).arg(m)));
                QVERIFY(near(expectedBestOfTop(sorted, m), truth[m - 1], 1e-12));
            }
        }
    }

    void largeTieGroupStaysFinite()
    {
        // 3000 tied items: the weights must neither overflow nor underflow into nonsense.
        std::vector<RankedItem> items;
        for (int i = 0; i < 3000; ++i)
            items.push_back({1.0, double(i + 1), i});
        // The largest of a random 300-subset of 1..3000 has expectation 300·3001/301.
        QVERIFY(near(expectedBestOfTop(items, 300), 300.0 * 3001 / 301, 1e-6));
        QVERIFY(near(rankingUtility(items, 0.1), 300.0 * 3001 / 301 / 3000, 1e-9));
    }

    void perfectRankerUtility()
    {
        std::vector<RankedItem> items;
        for (int i = 0; i < 50; ++i)
            items.push_back({double(i), 0.5 + i * 0.1, i});
        for (double x : {0.01, 0.1, 0.5, 1.0})
            QCOMPARE(rankingUtility(items, x), 1.0);
    }

    void reportPoolsAndUtility()
    {
        // Pool sizes below the minimum drop out; the report's utility is the pool mean at 10%.
        std::vector<ScoredRow> rows = regretRows();
        ScoredRow lone = parsedRow(dist({{4, 1.0}}), 4, 4, 1.0);
        lone.poolKey = 99;
        rows.push_back(lone);
        const MetricsReport r = computeReport(rows);
        QCOMPARE(r.pools.size(), std::size_t(2));
        // Pool 1 ranks by expected bin: A 4.6, B 6.9, C 5.8, the failure 4.5 (uniform): top 1 = B (1.0 of 3.0).
        // Pool 2: E 4.3, F 4.7 → F (1.0 of 2.0).
        QVERIFY(near(r.pools[0].utilityAt10Pct, 1.0 / 3));
        QVERIFY(near(r.pools[1].utilityAt10Pct, 0.5));
        QVERIFY(near(r.scalar(Scalar::UtilityAt10Pct), (1.0 / 3 + 0.5) / 2));
        QVERIFY(near(meanUtility(r, 1.0), 1.0));
        MetricsOptions keepSingles;
        keepSingles.minPoolSize = 1;
        QCOMPARE(computeReport(rows, keepSingles).pools.size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestMetricsSelective)
#include "tst_metrics_selective.moc"
