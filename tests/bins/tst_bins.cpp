// Tests for core/bins: the bin formula's pinned values, edges, midpoints and distribution scores.
#include "core/bins/bins.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace gpuf;

class TestBins : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void binOf_data()
    {
        QTest::addColumn<double>("speedup");
        QTest::addColumn<int>("bin");
        // Pinned values (paper-facts §1).
        QTest::newRow("0.4") << 0.4 << 1;
        QTest::newRow("0.6") << 0.6 << 2;
        QTest::newRow("0.8") << 0.8 << 3;
        QTest::newRow("1.0") << 1.0 << 4;
        QTest::newRow("1.5") << 1.5 << 5;
        QTest::newRow("2.0") << 2.0 << 6;
        QTest::newRow("3.0") << 3.0 << 7;
        QTest::newRow("5.0") << 5.0 << 8;
        QTest::newRow("0.001") << 0.001 << 1;
        QTest::newRow("10000") << 10000.0 << 8;
        // Lower edges are inclusive.
        QTest::newRow("edge 0.5") << 0.5 << 2;
        QTest::newRow("edge 4") << 4.0 << 8;
        QTest::newRow("just below 1") << std::nextafter(1.0, 0.0) << 3;
        QTest::newRow("just below 2") << std::nextafter(2.0, 0.0) << 5;
        QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << 8;
    }
    void binOf()
    {
        QFETCH(double, speedup);
        QFETCH(int, bin);
        QCOMPARE(bins::binOf(speedup), std::optional<int>(bin));
    }

    // The shown text of a speedup lies in the speedup's own bin: two rows never read 1.00× in different bins.
    void speedupText_data()
    {
        QTest::addColumn<double>("speedup");
        QTest::addColumn<QString>("text");
        QTest::newRow("exactly 1") << 1.0 << QStringLiteral("1.00×");
        QTest::newRow("plain") << 1.234 << QStringLiteral("1.23×");
        QTest::newRow("just below 1") << 0.9996 << QStringLiteral("0.9996×");
        QTest::newRow("closer below 1") << 0.99996 << QStringLiteral("0.99996×");
        QTest::newRow("cut, not rounded") << 0.9999999 << QStringLiteral("0.99999×");
        QTest::newRow("just above 1") << 1.0004 << QStringLiteral("1.00×");
        QTest::newRow("below sqrt 2") << 1.414 << QStringLiteral("1.41×");
        QTest::newRow("above sqrt 2") << 1.4143 << QStringLiteral("1.4143×");
        QTest::newRow("below 2") << 1.999 << QStringLiteral("1.999×");
        QTest::newRow("below 0.5") << 0.4999 << QStringLiteral("0.4999×");
        QTest::newRow("large") << 12.5 << QStringLiteral("12.50×");
        QTest::newRow("not a speedup") << 0.0 << QStringLiteral("—");
    }
    void speedupText()
    {
        QFETCH(double, speedup);
        QFETCH(QString, text);
        QCOMPARE(bins::speedupText(speedup), text);
    }
    void speedupTextStaysInItsBin()
    {
        for (int b = 2; b <= 8; ++b) {
            for (double offset : {-1e-3, -1e-4, -1e-5, -1e-7, -1e-12, 0.0, 1e-12, 1e-7, 1e-5, 1e-4, 1e-3}) {
                const double s = bins::lowerEdge(b) * (1.0 + offset);
                QString text = bins::speedupText(s);
                text.chop(1); // "×"
                QCOMPARE(bins::binOf(text.toDouble()), bins::binOf(s));
            }
        }
    }

    void binOfRejectsNonPositive()
    {
        QCOMPARE(bins::binOf(0.0), std::nullopt);
        QCOMPARE(bins::binOf(-1.0), std::nullopt);
        QCOMPARE(bins::binOf(std::numeric_limits<double>::quiet_NaN()), std::nullopt);
    }

    void edgesAgreeWithFormula()
    {
        for (int b = 2; b <= 8; ++b) {
            QCOMPARE(bins::binOf(bins::lowerEdge(b) * (1 + 1e-12)), std::optional<int>(b));
            QCOMPARE(bins::binOf(bins::lowerEdge(b) * (1 - 1e-12)), std::optional<int>(b - 1));
            QCOMPARE(bins::upperEdge(b - 1), bins::lowerEdge(b));
        }
        QCOMPARE(bins::lowerEdge(1), 0.0);
        QVERIFY(std::isinf(bins::upperEdge(8)));
    }

    void midpoints()
    {
        QVERIFY(qAbs(bins::midpoint(1) - 0.35355339) < 1e-7);
        QVERIFY(qAbs(bins::midpoint(8) - 5.65685425) < 1e-7);
        QVERIFY(qAbs(bins::midpoint(4) - std::pow(2.0, 0.25)) < 1e-12);
        for (int b = 1; b <= 8; ++b)
            QCOMPARE(bins::binOf(bins::midpoint(b)), std::optional<int>(b));
    }

    void labelsAndKeys()
    {
        QCOMPARE(bins::key(1), QStringLiteral("severe_slowdown"));
        QCOMPARE(bins::key(8), QStringLiteral("extreme_speedup"));
        QCOMPARE(bins::label(4), QStringLiteral("slight speedup")); // [1, 1.41): a speedup, whatever its key says
        QCOMPARE(bins::label(3), QStringLiteral("slight slowdown"));
        QCOMPARE(bins::key(4), QStringLiteral("minor_slowdown"));
        QCOMPARE(bins::rangeText(4), QStringLiteral("1.00×–1.41×"));
        QCOMPARE(bins::key(0), QString());
    }

    void geometricMean()
    {
        const double values[] = {2.0, 8.0};
        QVERIFY(qAbs(*bins::geometricMean(values) - 4.0) < 1e-12);
        const double withFailure[] = {2.0, 0.0};
        QCOMPARE(bins::geometricMean(withFailure), std::nullopt);
        QCOMPARE(bins::geometricMean({}), std::nullopt);
    }

    void expectations()
    {
        bins::Distribution p {};
        p[3] = 0.5; // bin 4
        p[4] = 0.5; // bin 5
        QCOMPARE(bins::expectedBin(p), 4.5);
        QVERIFY(qAbs(bins::expectedSpeedup(p) - 0.5 * (bins::midpoint(4) + bins::midpoint(5))) < 1e-12);
    }

    void renormalisation()
    {
        bins::Distribution p {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}; // sums to 0.8
        const auto r = bins::renormalised(p);
        QVERIFY(r.has_value());
        for (double v : *r)
            QVERIFY(qAbs(v - 0.125) < 1e-12);
        QCOMPARE(bins::renormalised(bins::Distribution {}), std::nullopt);
    }

    void confidenceScores()
    {
        bins::Distribution uniform;
        uniform.fill(0.125);
        QVERIFY(qAbs(bins::confidence(bins::ConfidenceScore::NegEntropy, uniform, 1)) < 1e-12);
        QCOMPARE(bins::confidence(bins::ConfidenceScore::Top2Margin, uniform, 1), 0.0);

        bins::Distribution sure {};
        sure[6] = 1.0;
        QCOMPARE(bins::confidence(bins::ConfidenceScore::NegEntropy, sure, 7), 1.0);
        QCOMPARE(bins::confidence(bins::ConfidenceScore::MaxProb, sure, 7), 1.0);
        // max_prob is p[predicted_bin], the model's own choice, not the argmax.
        QCOMPARE(bins::confidence(bins::ConfidenceScore::MaxProb, sure, 6), 0.0);

        bins::Distribution two {};
        two[2] = 0.7;
        two[3] = 0.2;
        two[4] = 0.1;
        QVERIFY(qAbs(bins::confidence(bins::ConfidenceScore::Top2Margin, two, 3) - 0.5) < 1e-12);
        QCOMPARE(bins::argmaxBin(two), 3);
        QCOMPARE(bins::confidenceScoreFromName(QStringLiteral("neg_entropy")),
            std::optional(bins::ConfidenceScore::NegEntropy));
    }
};

QTEST_GUILESS_MAIN(TestBins)
#include "tst_bins.moc"
