// Label noise (core/metrics/label_noise.h): which bin a straddling pair counts in under each rule, and the figures of a
// forecaster under every rule on a case computed by hand.
#include "core/metrics/label_noise.h"

#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::metrics;

namespace {

ScoredPair pair(RowId forecast, int trueBin, int forecastBin, std::optional<double> straddledEdge)
{
    ScoredPair p;
    p.forecastId = forecast;
    p.candidateId = 100 + forecast;
    p.referenceId = 1;
    p.forecasterId = 1;
    p.problemId = 1;
    p.hardwareId = 1;
    p.p = {};
    p.p[std::size_t(forecastBin - 1)] = 1.0;
    p.predictedBin = forecastBin;
    p.parsed = true;
    p.trueBin = trueBin;
    p.trueSpeedup = bins::midpoint(trueBin);
    p.straddledEdge = straddledEdge;
    return p;
}

// A: measured in bin 4 (just above 1×, its interval straddles 1×), forecast bin 3. B: bin 5, no straddle, forecast 5.
// C: measured in bin 6 (just above 2×, straddling 2×), forecast bin 5.
ScoredPairs handCase()
{
    ScoredPairs pairs;
    pairs.pairs = {pair(1, 4, 3, 1.0), pair(2, 5, 5, std::nullopt), pair(3, 6, 5, 2.0)};
    ScoredPairsForecaster f;
    f.id = 1;
    f.name = QStringLiteral("one-hot");
    f.forecasts = 3;
    f.scored = 3;
    f.straddling = 2;
    pairs.forecasters = {f};
    return pairs;
}

const double kWrongNll = -std::log(kNllFloor);

} // namespace

class TestLabelNoise : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countedBin_data()
    {
        QTest::addColumn<int>("measured");
        QTest::addColumn<double>("edge");
        QTest::addColumn<int>("lower");
        QTest::addColumn<int>("upper");
        QTest::addColumn<int>("other");
        QTest::newRow("√2, measured above") << 5 << std::sqrt(2.0) << 4 << 5 << 4;
        QTest::newRow("√2, measured below") << 4 << std::sqrt(2.0) << 4 << 5 << 5;
        QTest::newRow("0.5, measured above") << 2 << 0.5 << 1 << 2 << 1;
        QTest::newRow("4, measured below") << 7 << 4.0 << 7 << 8 << 8;
        QTest::newRow("1, measured above") << 4 << 1.0 << 3 << 4 << 3;
    }
    void countedBin()
    {
        QFETCH(int, measured);
        QFETCH(double, edge);
        QFETCH(int, lower);
        QFETCH(int, upper);
        QFETCH(int, other);
        QCOMPARE(metrics::countedBin(measured, edge, StraddlingRule::AsMeasured), std::optional<int>(measured));
        QCOMPARE(metrics::countedBin(measured, edge, StraddlingRule::LowerBin), std::optional<int>(lower));
        QCOMPARE(metrics::countedBin(measured, edge, StraddlingRule::UpperBin), std::optional<int>(upper));
        QCOMPARE(metrics::countedBin(measured, edge, StraddlingRule::OtherBin), std::optional<int>(other));
        QCOMPARE(metrics::countedBin(measured, edge, StraddlingRule::Drop), std::nullopt);
    }

    void names()
    {
        for (StraddlingRule rule : kStraddlingRules)
            QCOMPARE(straddlingRuleFromName(straddlingRuleName(rule)), std::optional(rule));
        QCOMPARE(straddlingRuleFromName(QStringLiteral("both")), std::nullopt);
    }

    void dropLowersTheCounts()
    {
        const ScoredPairs dropped = applyStraddlingRule(handCase(), StraddlingRule::Drop);
        QCOMPARE(dropped.pairs.size(), 1);
        QCOMPARE(dropped.pairs.first().forecastId, RowId(2));
        QCOMPARE(dropped.forecasters.first().scored, 1);
        QCOMPARE(dropped.forecasters.first().straddling, 0);
        const ScoredPairs lower = applyStraddlingRule(handCase(), StraddlingRule::LowerBin);
        QCOMPARE(lower.pairs.size(), 3);
        QCOMPARE(lower.pairs[0].trueBin, 3);
        QCOMPARE(lower.pairs[1].trueBin, 5); // not straddling: untouched
        QCOMPARE(lower.pairs[2].trueBin, 5);
        QCOMPARE(lower.pairs[2].trueSpeedup, handCase().pairs[2].trueSpeedup); // the speedup stays as measured
        QCOMPARE(lower.forecasters.first().scored, 3);
    }

    // By hand, one-hot forecasts: RPS = |forecast bin − true bin| / 7, Brier Σ = 2 for a miss, NLL = −ln 1e-12 for a
    // miss.
    void figuresUnderEveryRule_data()
    {
        QTest::addColumn<int>("rule");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("moved");
        QTest::addColumn<double>("accuracy");
        QTest::addColumn<double>("withinOne");
        QTest::addColumn<double>("rps");
        QTest::addColumn<double>("brierSum");
        QTest::addColumn<double>("nll");
        // As measured: A (4 vs 3) and C (6 vs 5) missed by one bin, B right.
        QTest::newRow("as-measured") << int(StraddlingRule::AsMeasured) << qint64(3) << qint64(0) << 1.0 / 3.0 << 1.0
                                     << (1.0 / 7 + 0 + 1.0 / 7) / 3 << 4.0 / 3.0 << 2.0 * kWrongNll / 3.0;
        // Lower: A counts in 3 and C in 5: all right.
        QTest::newRow("lower") << int(StraddlingRule::LowerBin) << qint64(3) << qint64(2) << 1.0 << 1.0 << 0.0 << 0.0
                               << 0.0;
        // Upper: both already in the upper bin, nothing moves.
        QTest::newRow("upper") << int(StraddlingRule::UpperBin) << qint64(3) << qint64(0) << 1.0 / 3.0 << 1.0
                               << 2.0 / 21.0 << 4.0 / 3.0 << 2.0 * kWrongNll / 3.0;
        QTest::newRow("other") << int(StraddlingRule::OtherBin) << qint64(3) << qint64(2) << 1.0 << 1.0 << 0.0 << 0.0
                               << 0.0;
        // Dropped: B alone.
        QTest::newRow("drop") << int(StraddlingRule::Drop) << qint64(1) << qint64(0) << 1.0 << 1.0 << 0.0 << 0.0 << 0.0;
    }
    void figuresUnderEveryRule()
    {
        QFETCH(int, rule);
        QFETCH(qint64, n);
        QFETCH(qint64, moved);
        QFETCH(double, accuracy);
        QFETCH(double, withinOne);
        QFETCH(double, rps);
        QFETCH(double, brierSum);
        QFETCH(double, nll);
        const std::vector<LabelNoise> noise = labelNoise(handCase(), false);
        QCOMPARE(noise.size(), std::size_t(1));
        QCOMPARE(noise[0].straddling, 2);
        QCOMPARE(noise[0].rows.size(), kStraddlingRules.size());
        const LabelNoiseRow &row = noise[0].rows[std::size_t(rule)];
        QCOMPARE(int(row.rule), rule);
        QCOMPARE(row.scored, n);
        QCOMPARE(row.moved, moved);
        QCOMPARE(row.accuracy, accuracy);
        QCOMPARE(row.withinOne, withinOne);
        QVERIFY2(std::abs(row.rps - rps) < 1e-12, qPrintable(QString::number(row.rps)));
        QVERIFY2(std::abs(row.brierSum - brierSum) < 1e-12, qPrintable(QString::number(row.brierSum)));
        QVERIFY2(std::abs(row.nll - nll) < 1e-9, qPrintable(QString::number(row.nll)));
    }

    void json()
    {
        const QJsonObject json = labelNoiseJson(labelNoise(handCase(), false).front());
        QCOMPARE(json.value(QStringLiteral("n_straddling")).toInteger(), 2);
        const QJsonObject rules = json.value(QStringLiteral("rules")).toObject();
        QCOMPARE(rules.keys().size(), 5);
        QCOMPARE(rules.value(QStringLiteral("lower")).toObject().value(QStringLiteral("accuracy")).toDouble(), 1.0);
        QCOMPARE(rules.value(QStringLiteral("drop")).toObject().value(QStringLiteral("n")).toInteger(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLabelNoise)
#include "tst_label_noise.moc"
