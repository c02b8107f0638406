// Tests for the metrics report as a whole: JSON keys, seeded bootstrap, grouping and same-pair selection.
#include "core/metrics/bootstrap.h"
#include "core/metrics/report.h"
#include "core/metrics/report_json.h"
#include "metrics_test_rows.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <set>

using namespace gpuf;
using namespace gpuf::metrics;
using metrics::testing::dist;
using metrics::testing::failedRow;
using metrics::testing::parsedRow;

namespace {
bool sameNumber(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void compareReports(const MetricsReport &a, const MetricsReport &b)
{
    QCOMPARE(a.nTotal, b.nTotal);
    QCOMPARE(a.nParsed, b.nParsed);
    for (int s = 0; s < kScalarCount; ++s)
        QVERIFY2(sameNumber(a.scalars[s], b.scalars[s]), qPrintable(scalarName(Scalar(s))));
    QVERIFY(a.confusion.counts == b.confusion.counts);
}
} // namespace

class TestMetricsReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonKeys()
    {
        const auto rows = metrics::testing::randomRows(200, 1);
        const QJsonObject json = toJson(computeReport(rows));
        const QStringList expected {QStringLiteral("n_total"), QStringLiteral("n_parsed"), QStringLiteral("accuracy"),
            QStringLiteral("within_one"), QStringLiteral("ece"), QStringLiteral("brier_half"),
            QStringLiteral("brier_sum"), QStringLiteral("crps"), QStringLiteral("nll"), QStringLiteral("mean_entropy"),
            QStringLiteral("aurc_max_prob"), QStringLiteral("aurc_neg_entropy"), QStringLiteral("aurc_top2_margin"),
            QStringLiteral("utility_at_10pct"), QStringLiteral("reliability"), QStringLiteral("confusion"),
            QStringLiteral("brier_half_parsed"), QStringLiteral("brier_sum_parsed"), QStringLiteral("crps_parsed"),
            QStringLiteral("nll_parsed"), QStringLiteral("rps_skill_base_rate"),
            QStringLiteral("brier_skill_base_rate"), QStringLiteral("log_skill_base_rate"), QStringLiteral("ordinal"),
            QStringLiteral("cumulative_reliability"), QStringLiteral("prediction_sets")};
        const QStringList keys = json.keys();
        QCOMPARE(QSet<QString>(keys.begin(), keys.end()), QSet<QString>(expected.begin(), expected.end()));
        QCOMPARE(json.value(QStringLiteral("n_total")).toInteger(), 200);
        const QJsonArray reliability = json.value(QStringLiteral("reliability")).toArray();
        QCOMPARE(reliability.size(), 10);
        const QStringList bucketKeys = reliability.first().toObject().keys();
        QCOMPARE(QSet<QString>(bucketKeys.begin(), bucketKeys.end()),
            (QSet<QString> {QStringLiteral("low"), QStringLiteral("high"), QStringLiteral("mean_confidence"),
                QStringLiteral("accuracy"), QStringLiteral("count")}));
        const QJsonArray confusion = json.value(QStringLiteral("confusion")).toArray();
        QCOMPARE(confusion.size(), 8);
        qint64 cells = 0;
        for (const QJsonValue row : confusion) {
            QCOMPARE(row.toArray().size(), 8);
            for (const QJsonValue c : row.toArray())
                cells += c.toInteger();
        }
        QCOMPARE(cells, json.value(QStringLiteral("n_parsed")).toInteger());
    }

    void jsonNanIsNull()
    {
        const QJsonObject json = toJson(computeReport(std::vector<ScoredRow> {failedRow(3)}));
        QVERIFY(json.value(QStringLiteral("accuracy")).isNull());
        QVERIFY(json.value(QStringLiteral("ece")).isNull());
        QVERIFY(json.value(QStringLiteral("utility_at_10pct")).isNull());
        QCOMPARE(json.value(QStringLiteral("brier_sum")).toDouble(), 0.875);
        const QJsonObject bucket = json.value(QStringLiteral("reliability")).toArray().at(0).toObject();
        QVERIFY(bucket.value(QStringLiteral("accuracy")).isNull());
        QCOMPARE(bucket.value(QStringLiteral("count")).toInteger(), 0);
        QVERIFY(!json.contains(QStringLiteral("ci")));
        // Serialises without NaN tokens.
        QVERIFY(!QJsonDocument(json).toJson().contains("nan"));
    }

    void bootstrapIsReproducible()
    {
        const auto rows = metrics::testing::randomRows(500, 2);
        MetricsOptions options;
        options.bootstrapResamples = 100;
        options.bootstrapSeed = 7;
        const MetricsReport a = computeReport(rows, options);
        const MetricsReport b = computeReport(rows, options);
        QVERIFY(a.hasIntervals);
        QCOMPARE(a.bootstrapResamples, 100);
        for (int s = 0; s < kScalarCount; ++s) {
            QVERIFY(sameNumber(a.intervals[s].low, b.intervals[s].low));
            QVERIFY(sameNumber(a.intervals[s].high, b.intervals[s].high));
        }
        for (int k = 0; k < kReliabilityBuckets; ++k)
            QVERIFY(sameNumber(a.reliabilityAccuracyIntervals[k].low, b.reliabilityAccuracyIntervals[k].low));
        QCOMPARE(toJson(a), toJson(b));

        options.bootstrapSeed = 8;
        const MetricsReport c = computeReport(rows, options);
        QVERIFY(c.interval(Scalar::Accuracy).low != a.interval(Scalar::Accuracy).low
            || c.interval(Scalar::Accuracy).high != a.interval(Scalar::Accuracy).high);
    }

    void bootstrapIntervalsAreSensible()
    {
        const auto rows = metrics::testing::randomRows(800, 3);
        MetricsOptions options;
        options.bootstrapResamples = 200;
        const MetricsReport r = computeReport(rows, options);
        for (int s = 0; s < kScalarCount; ++s) {
            const Interval i = r.intervals[s];
            const double point = r.scalars[s];
            QVERIFY2(i.low <= i.high, qPrintable(scalarName(Scalar(s))));
            // 800 rows: every point estimate lies well inside its 95% interval, which is not degenerate.
            QVERIFY2(i.low <= point && point <= i.high, qPrintable(scalarName(Scalar(s))));
            QVERIFY2(i.high - i.low > 0.0, qPrintable(scalarName(Scalar(s))));
        }
        const QJsonObject ci = toJson(r).value(QStringLiteral("ci")).toObject();
        QCOMPARE(ci.value(QStringLiteral("accuracy")).toArray().size(), 2);
        QCOMPARE(ci.value(QStringLiteral("reliability_accuracy")).toArray().size(), 10);
        QCOMPARE(ci.size(), kScalarCount + 1);
    }

    void samplerFollowsTheStandardEngine()
    {
        // With n = 2^32 the sampler returns the engine's top 32 bits; the standard fixes the 10000th
        // output of a default-seeded mt19937_64 as 9981545732273789042.
        IndexSampler sampler(5489u);
        std::uint64_t last = 0;
        for (int i = 0; i < 10000; ++i)
            last = sampler.next(std::uint64_t(1) << 32);
        QCOMPARE(last, std::uint64_t(9981545732273789042ULL >> 32));
    }

    void samplerIsUniform()
    {
        IndexSampler sampler(1);
        std::array<int, 7> counts {};
        for (int i = 0; i < 70000; ++i)
            ++counts[sampler.next(7)];
        for (int c : counts)
            QVERIFY2(std::abs(c - 10000) < 500, qPrintable(QString::number(c)));
        QCOMPARE(sampler.next(1), std::uint64_t(0));
        QVERIFY(IndexSampler::streamSeed(1, 0) != IndexSampler::streamSeed(1, 1));
    }

    void percentile_data()
    {
        QTest::addColumn<double>("level");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        // Values 1..101: quantile q sits at 1 + 100·q.
        QTest::newRow("90%") << 0.9 << 6.0 << 96.0;
        QTest::newRow("95%") << 0.95 << 3.5 << 98.5;
        QTest::newRow("0%: the median") << 0.0 << 51.0 << 51.0;
    }
    void percentile()
    {
        QFETCH(double, level);
        QFETCH(double, low);
        QFETCH(double, high);
        std::vector<double> values;
        for (int v = 101; v >= 1; --v)
            values.push_back(v);
        values.push_back(std::numeric_limits<double>::quiet_NaN()); // ignored
        const Interval i = percentileInterval(values, level);
        QCOMPARE(i.low, low);
        QCOMPARE(i.high, high);
    }

    void percentileOfNothing()
    {
        std::vector<double> none {std::numeric_limits<double>::quiet_NaN()};
        QVERIFY(std::isnan(percentileInterval(none, 0.95).low));
    }

    void grouping()
    {
        auto rows = metrics::testing::randomRows(300, 4);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            rows[i].forecasterId = qint64(i % 3);
            rows[i].repeat = int(i % 2);
        }
        const std::vector<GroupReport> byForecaster = computeGroupedReports(rows, unsigned(GroupField::Forecaster));
        QCOMPARE(byForecaster.size(), std::size_t(3));
        for (const GroupReport &group : byForecaster) {
            QVERIFY(group.key.forecasterId.has_value());
            QVERIFY(!group.key.repeat.has_value());
            std::vector<ScoredRow> subset;
            for (const ScoredRow &row : rows) {
                if (row.forecasterId == *group.key.forecasterId)
                    subset.push_back(row);
            }
            compareReports(group.report, computeReport(subset));
        }
        QCOMPARE(byForecaster[0].key.forecasterId, std::optional<qint64>(0));
        QCOMPARE(byForecaster[2].key.forecasterId, std::optional<qint64>(2));

        const auto both = computeGroupedReports(rows, unsigned(GroupField::Forecaster) | unsigned(GroupField::Repeat));
        QCOMPARE(both.size(), std::size_t(6));
        qint64 total = 0;
        for (const GroupReport &g : both)
            total += g.report.nTotal;
        QCOMPARE(total, 300);

        const auto pooled = computeGroupedReports(rows, 0);
        QCOMPARE(pooled.size(), std::size_t(1));
        compareReports(pooled[0].report, computeReport(rows));

        const QJsonObject named = toJson(
            byForecaster, [](const GroupKey &key) { return QStringLiteral("forecaster_%1").arg(*key.forecasterId); });
        QCOMPARE(named.keys(),
            (QStringList {
                QStringLiteral("forecaster_0"), QStringLiteral("forecaster_1"), QStringLiteral("forecaster_2")}));
    }

    void samePairs()
    {
        auto row = [](qint64 forecaster, qint64 pair, int repeat = 0, qint64 pool = 1, qint64 hardware = 1) {
            ScoredRow r = parsedRow(dist({{4, 1.0}}), 4, 4);
            r.forecasterId = forecaster;
            r.pairId = pair;
            r.repeat = repeat;
            r.poolKey = pool;
            r.hardwareId = hardware;
            return r;
        };
        ScoredRow failure = failedRow(4);
        failure.forecasterId = 2;
        failure.pairId = 11; // a parse failure still counts as forecast
        failure.poolKey = 1;
        failure.hardwareId = 1;
        // Forecaster 2's second sample of 12, its 14 against another reference and 15 on other hardware have no
        // counterpart in forecaster 1's rows: the same candidate is not the same pair.
        const std::vector<ScoredRow> rows {row(1, 10), row(1, 11), row(1, 12), row(1, 14), row(1, 15), failure,
            row(2, 12), row(2, 12, 1), row(2, 13), row(2, 14, 0, 2), row(2, 15, 0, 1, 2)};
        const std::vector<ScoredRow> kept = metrics::samePairs(rows);
        std::multiset<std::pair<qint64, qint64>> got;
        for (const ScoredRow &r : kept)
            got.insert({r.forecasterId, r.pairId});
        const std::multiset<std::pair<qint64, qint64>> expected {{1, 11}, {1, 12}, {2, 11}, {2, 12}};
        QCOMPARE(got, expected);
        QVERIFY(metrics::samePairs({}).empty());
    }
};

QTEST_GUILESS_MAIN(TestMetricsReport)
#include "tst_metrics_report.moc"
