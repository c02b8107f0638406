// Tests for the calibration side of core/metrics: scoring rules, ECE and reliability, confusion, and the
// report's handling of parse failures, with hand-computed values.
#include "core/metrics/calibration.h"
#include "core/metrics/report.h"
#include "metrics_test_rows.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace gpuf;
using namespace gpuf::metrics;
using metrics::testing::dist;
using metrics::testing::failedRow;
using metrics::testing::parsedRow;

Q_DECLARE_METATYPE(gpuf::bins::Distribution)

namespace {
constexpr double kTol = 1e-12;
bool near(double a, double b, double tol = kTol) { return std::abs(a - b) <= tol; }
} // namespace

class TestMetricsCalibration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scoringRules_data()
    {
        QTest::addColumn<bins::Distribution>("p");
        QTest::addColumn<int>("trueBin");
        QTest::addColumn<double>("brierSum");
        QTest::addColumn<double>("crps");
        QTest::addColumn<double>("nll");
        // Hand-computed: one-hot right / wrong, a two-bin split, and the uniform distribution.
        QTest::newRow("one-hot right") << dist({{4, 1.0}}) << 4 << 0.0 << 0.0 << 0.0;
        QTest::newRow("one-hot 1, truth 8") << dist({{1, 1.0}}) << 8 << 2.0 << 1.0 << -std::log(1e-12);
        QTest::newRow("one-hot 8, truth 1") << dist({{8, 1.0}}) << 1 << 2.0 << 1.0 << -std::log(1e-12);
        QTest::newRow("split 4/5, truth 4") << dist({{4, 0.5}, {5, 0.5}}) << 4 << 0.5 << 0.25 / 7 << std::log(2.0);
        QTest::newRow("split 4/5, truth 5") << dist({{4, 0.5}, {5, 0.5}}) << 5 << 0.5 << 0.25 / 7 << std::log(2.0);
        QTest::newRow("split 4/5, truth 1")
            << dist({{4, 0.5}, {5, 0.5}}) << 1 << 1.5 << (3 + 0.25) / 7 << -std::log(1e-12);
        QTest::newRow("uniform, truth 1") << uniformDistribution() << 1 << 0.875 << 0.3125 << std::log(8.0);
        QTest::newRow("uniform, truth 8") << uniformDistribution() << 8 << 0.875 << 0.3125 << std::log(8.0);
        QTest::newRow("uniform, truth 4") << uniformDistribution() << 4 << 0.875 << 44.0 / 64 / 7 << std::log(8.0);
    }
    void scoringRules()
    {
        QFETCH(bins::Distribution, p);
        QFETCH(int, trueBin);
        QFETCH(double, brierSum);
        QFETCH(double, crps);
        QFETCH(double, nll);
        QVERIFY2(
            near(metrics::brierSum(p, trueBin), brierSum), qPrintable(QString::number(metrics::brierSum(p, trueBin))));
        QVERIFY(near(metrics::brierHalf(p, trueBin), brierSum / 2));
        QVERIFY2(near(metrics::crps(p, trueBin), crps), qPrintable(QString::number(metrics::crps(p, trueBin))));
        QVERIFY(near(metrics::nll(p, trueBin), nll, 1e-9));
    }

    void scoringRulesStayInRange()
    {
        const auto rows = metrics::testing::randomRows(500, 7);
        for (const ScoredRow &row : rows) {
            if (!row.parsed)
                continue;
            const double half = brierHalf(row.p, row.trueBin);
            const double c = crps(row.p, row.trueBin);
            QVERIFY(half >= 0.0 && half <= 1.0 + kTol);
            QVERIFY(c >= 0.0 && c <= 1.0 + kTol);
            QVERIFY(nll(row.p, row.trueBin) >= 0.0);
        }
    }

    void reliabilityBucket_data()
    {
        QTest::addColumn<double>("confidence");
        QTest::addColumn<int>("bucket");
        QTest::newRow("0") << 0.0 << 0;
        QTest::newRow("0.05") << 0.05 << 0;
        QTest::newRow("0.1 lower edge") << 0.1 << 1;
        QTest::newRow("0.29999") << 0.29999 << 2;
        QTest::newRow("0.3") << 0.3 << 3;
        QTest::newRow("0.95") << 0.95 << 9;
        QTest::newRow("1.0 joins the top bucket") << 1.0 << 9;
        QTest::newRow("rounding above 1") << 1.0000000001 << 9;
        QTest::newRow("rounding below 0") << -1e-17 << 0;
    }
    void reliabilityBucket()
    {
        QFETCH(double, confidence);
        QFETCH(int, bucket);
        QCOMPARE(metrics::reliabilityBucket(confidence), bucket);
    }

    // Three parsed rows and one parse failure, computed by hand.
    void handComputedReport()
    {
        const std::vector<ScoredRow> rows {
            parsedRow(dist({{4, 0.95}, {5, 0.05}}), 4, 4),
            parsedRow(dist({{4, 0.95}, {5, 0.05}}), 4, 5),
            parsedRow(dist({{2, 0.35}, {3, 0.65}}), 2, 2), // predicted bin is the model's, not the argmax
            failedRow(7),
        };
        const MetricsReport r = computeReport(rows);
        QCOMPARE(r.nTotal, 4);
        QCOMPARE(r.nParsed, 3);
        QVERIFY(near(r.scalar(Scalar::Accuracy), 2.0 / 3));
        QVERIFY(near(r.scalar(Scalar::WithinOne), 1.0));
        // Buckets: 9 holds {0.95 ✓, 0.95 ✗}, 3 holds {0.35 ✓}.
        QCOMPARE(r.reliability[9].count, 2);
        QCOMPARE(r.reliability[3].count, 1);
        QVERIFY(near(r.reliability[9].meanConfidence, 0.95));
        QVERIFY(near(r.reliability[9].accuracy, 0.5));
        QVERIFY(near(r.reliability[3].accuracy, 1.0));
        QVERIFY(near(r.scalar(Scalar::Ece), 2.0 / 3 * 0.45 + 1.0 / 3 * 0.65));
        for (int b : {0, 1, 2, 4, 5, 6, 7, 8}) {
            QCOMPARE(r.reliability[b].count, 0);
            QVERIFY(std::isnan(r.reliability[b].accuracy));
            QVERIFY(near(r.reliability[b].low, b / 10.0));
            QVERIFY(near(r.reliability[b].high, (b + 1) / 10.0));
        }
        // Brier (sum form) per row: 0.0025+0.0025 = 0.005; 0.95²+0.95² = 1.805; 0.65²+0.65² = 0.845;
        // the failure is scored as uniform: 0.875.
        QVERIFY(near(r.scalar(Scalar::BrierSum), (0.005 + 1.805 + 0.845 + 0.875) / 4));
        QVERIFY(near(r.scalar(Scalar::BrierHalf), (0.005 + 1.805 + 0.845 + 0.875) / 8));
        QVERIFY(near(r.scalar(Scalar::BrierSumParsed), (0.005 + 1.805 + 0.845) / 3));
        QVERIFY(near(r.scalar(Scalar::BrierHalfParsed), (0.005 + 1.805 + 0.845) / 6));
        const double nllParsed = (-std::log(0.95) - std::log(0.05) - std::log(0.35)) / 3;
        QVERIFY(near(r.scalar(Scalar::NllParsed), nllParsed, 1e-9));
        QVERIFY(near(r.scalar(Scalar::Nll), (3 * nllParsed + std::log(8.0)) / 4, 1e-9));
        // CRPS: row 1: F4 = 0.95 vs 1 → 0.0025; row 2: F4 = 0.95 vs 0 → 0.9025; row 3: F2 = 0.35 vs 1 →
        // 0.4225; uniform with truth 7: Σ_{k≤6} (k/8)² + (7/8 − 1)² = 92/64.
        const double crpsParsed = (0.0025 + 0.9025 + 0.4225) / 7 / 3;
        QVERIFY(near(r.scalar(Scalar::CrpsParsed), crpsParsed));
        QVERIFY(near(r.scalar(Scalar::Crps), (3 * crpsParsed + 92.0 / 64 / 7) / 4));
        const double h1 = -(0.95 * std::log(0.95) + 0.05 * std::log(0.05));
        const double h3 = -(0.35 * std::log(0.35) + 0.65 * std::log(0.65));
        QVERIFY(near(r.scalar(Scalar::MeanEntropy), (2 * h1 + h3) / 3, 1e-9));
        // Confusion: rows = true bin, columns = predicted bin; the failure is not in it.
        QCOMPARE(r.confusion.counts[3][3], 1);
        QCOMPARE(r.confusion.counts[4][3], 1);
        QCOMPARE(r.confusion.counts[1][1], 1);
        QCOMPARE(r.confusion.total(), 3);
    }

    void perfectForecaster()
    {
        std::vector<ScoredRow> rows;
        for (int i = 0; i < 40; ++i) {
            const int t = 1 + i % 8;
            rows.push_back(parsedRow(dist({{t, 1.0}}), t, t));
        }
        const MetricsReport r = computeReport(rows);
        QCOMPARE(r.scalar(Scalar::Accuracy), 1.0);
        QCOMPARE(r.scalar(Scalar::Ece), 0.0);
        QCOMPARE(r.scalar(Scalar::BrierSum), 0.0);
        QCOMPARE(r.scalar(Scalar::Crps), 0.0);
        QVERIFY(near(r.scalar(Scalar::Nll), 0.0));
        QCOMPARE(r.scalar(Scalar::MeanEntropy), 0.0);
        for (int b = 0; b < 8; ++b)
            QCOMPARE(r.confusion.counts[b][b], 5);
    }

    void oneBucket()
    {
        // Every confidence in one bucket: ECE is |mean confidence − accuracy| there.
        std::vector<ScoredRow> rows;
        for (int i = 0; i < 10; ++i)
            rows.push_back(parsedRow(dist({{3, 0.62}, {4, 0.38}}), 3, i < 7 ? 3 : 4));
        const MetricsReport r = computeReport(rows);
        QCOMPARE(r.reliability[6].count, 10);
        QVERIFY(near(r.scalar(Scalar::Ece), std::abs(0.62 - 0.7)));
    }

    void noRows()
    {
        const MetricsReport r = computeReport({});
        QCOMPARE(r.nTotal, 0);
        QCOMPARE(r.nParsed, 0);
        for (int s = 0; s < kScalarCount; ++s)
            QVERIFY2(std::isnan(r.scalars[s]), qPrintable(scalarName(Scalar(s))));
        for (const ReliabilityBucket &b : r.reliability)
            QCOMPARE(b.count, 0);
        QVERIFY(r.mismatchCurves[0].empty());
    }

    void allParseFailures()
    {
        const std::vector<ScoredRow> rows {failedRow(1), failedRow(8), failedRow(4)};
        const MetricsReport r = computeReport(rows);
        QCOMPARE(r.nTotal, 3);
        QCOMPARE(r.nParsed, 0);
        QVERIFY(std::isnan(r.scalar(Scalar::Accuracy)));
        QVERIFY(std::isnan(r.scalar(Scalar::Ece)));
        QVERIFY(std::isnan(r.scalar(Scalar::MeanEntropy)));
        QVERIFY(std::isnan(r.scalar(Scalar::BrierSumParsed)));
        QVERIFY(std::isnan(r.scalar(Scalar::NllParsed)));
        QVERIFY(near(r.scalar(Scalar::BrierSum), 0.875));
        QVERIFY(near(r.scalar(Scalar::BrierHalf), 0.4375));
        QVERIFY(near(r.scalar(Scalar::Nll), std::log(8.0)));
        QVERIFY(near(r.scalar(Scalar::Crps), (0.3125 + 0.3125 + 44.0 / 64 / 7) / 3));
        QVERIFY(std::isnan(r.scalar(Scalar::AurcMaxProb)));
        QCOMPARE(r.confusion.total(), 0);
    }

    // Rows flagged parsed but unusable count as parse failures; sums ≠ 1 are renormalised again.
    void robustness()
    {
        const bins::Distribution good = dist({{4, 0.6}, {5, 0.4}});
        bins::Distribution scaled = good;
        for (double &v : scaled)
            v *= 1.1;
        const MetricsReport a = computeReport(std::vector<ScoredRow> {parsedRow(good, 4, 5)});
        const MetricsReport b = computeReport(std::vector<ScoredRow> {parsedRow(scaled, 4, 5)});
        for (int s = 0; s < kScalarCount; ++s) {
            if (!std::isnan(a.scalars[s]))
                QVERIFY2(near(a.scalars[s], b.scalars[s]), qPrintable(scalarName(Scalar(s))));
        }

        ScoredRow noBin = parsedRow(good, 4, 5);
        noBin.predictedBin.reset();
        ScoredRow badBin = parsedRow(good, 9, 5);
        ScoredRow negative = parsedRow(dist({{4, 1.2}, {5, -0.2}}), 4, 5);
        ScoredRow nan = parsedRow(dist({{4, std::numeric_limits<double>::quiet_NaN()}}), 4, 5);
        ScoredRow zero = parsedRow(bins::Distribution {}, 4, 5);
        ScoredRow noTruth = parsedRow(good, 4, 0); // ignored entirely
        const MetricsReport r = computeReport(std::vector<ScoredRow> {noBin, badBin, negative, nan, zero, noTruth});
        QCOMPARE(r.nTotal, 5);
        QCOMPARE(r.nParsed, 0);
        QVERIFY(near(r.scalar(Scalar::BrierSum), 0.875));
    }

    void confusionNormalisation()
    {
        ConfusionMatrix m;
        m.add(1, 1);
        m.add(1, 2);
        m.add(1, 2);
        m.add(3, 2);
        m.add(0, 2); // out of range: ignored
        QCOMPARE(m.total(), 4);
        const NormalisedConfusion byRow = normalised(m, ConfusionNormalisation::ByTrueBin);
        QVERIFY(near(byRow[0][0], 1.0 / 3));
        QVERIFY(near(byRow[0][1], 2.0 / 3));
        QVERIFY(near(byRow[2][1], 1.0));
        QVERIFY(std::isnan(byRow[1][0])); // empty true bin 2
        const NormalisedConfusion byColumn = normalised(m, ConfusionNormalisation::ByPredictedBin);
        QVERIFY(near(byColumn[0][1], 2.0 / 3));
        QVERIFY(near(byColumn[2][1], 1.0 / 3));
        QVERIFY(near(byColumn[0][0], 1.0));
        QVERIFY(std::isnan(byColumn[0][7]));
        const NormalisedConfusion byTotal = normalised(m, ConfusionNormalisation::ByTotal);
        QVERIFY(near(byTotal[0][1], 0.5));
        QVERIFY(near(byTotal[7][7], 0.0));
        QCOMPARE(normalised(m, ConfusionNormalisation::None)[0][1], 2.0);
        QVERIFY(std::isnan(normalised(ConfusionMatrix {}, ConfusionNormalisation::ByTotal)[0][0]));
    }
};

QTEST_GUILESS_MAIN(TestMetricsCalibration)
#include "tst_metrics_calibration.moc"
