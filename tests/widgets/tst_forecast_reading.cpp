// The words shown for one forecast (ForecastReading): a concentrated, a wide and a split distribution each get a
// headline that agrees with the predicted bin, and an expected speedup in another bin is explained; on screen, the
// forecast detail shows the same texts above and beside its figures.
#include "widgets/forecast/forecast_detail.h"
#include "widgets/forecast/forecast_reading.h"

#include <QAction>
#include <QApplication>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(bins::Distribution)

class TestForecastReading : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readings_data()
    {
        QTest::addColumn<bins::Distribution>("p");
        QTest::addColumn<int>("predicted");
        QTest::addColumn<int>("shape");
        QTest::addColumn<QString>("headline");
        QTest::addColumn<QString>("note");
        QTest::newRow("concentrated") << bins::Distribution {0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0} << 6
                                      << int(ForecastReading::Shape::Concentrated)
                                      << u"Bin 6 — significant speedup: 60% on this bin, 80% within bins 5–6 "
                                         "(1.41×–2.83×)."_s
                                      << QString();
        QTest::newRow("concentrated, long fast tail")
            << bins::Distribution {0.02, 0.02, 0.06, 0.55, 0.1, 0.05, 0.05, 0.15} << 4
            << int(ForecastReading::Shape::Concentrated)
            << u"Bin 4 — slight speedup: 55% on this bin, 90% within bins 4–8 (≥ 1.00×)."_s
            << u"pulled into bin 6 by the 35% on faster bins; the predicted bin 4 is still the likeliest"_s;
        QTest::newRow("wide") << bins::Distribution {0.35, 0.1, 0.05, 0.08, 0.1, 0.12, 0.12, 0.08} << 1
                              << int(ForecastReading::Shape::Wide)
                              << u"Uncertain: 80% of the probability is spread over bins 1–6 (< 2.83×); the most "
                                 "likely, bin 1 — severe slowdown, holds only 35%."_s
                              << u"the mean of a wide distribution: it falls in bin 5 (10%), not in the predicted "
                                 "bin 1"_s;
        QTest::newRow("split") << bins::Distribution {0.4, 0.1, 0.02, 0.03, 0.05, 0.3, 0.08, 0.02} << 1
                               << int(ForecastReading::Shape::Split)
                               << u"Split between two outcomes: 40% on bin 1 — severe slowdown and 30% on bin 6 — "
                                  "significant speedup, little in between; no single speedup describes it."_s
                               << u"an average of the two peaks: it falls in bin 5, which holds only 5%, not in the "
                                  "predicted bin 1"_s;
        QTest::newRow("named bin is not the likeliest")
            << bins::Distribution {0.05, 0.05, 0.1, 0.3, 0.45, 0.05, 0, 0} << 4
            << int(ForecastReading::Shape::Concentrated)
            << u"Bin 4 — slight speedup: 30% on this bin, 85% within bins 3–5 (0.71×–2.00×). The forecaster named "
               "bin 4 (30%), though its own probabilities favour bin 5 — moderate speedup (45%)."_s
            << QString();
    }
    void readings()
    {
        QFETCH(bins::Distribution, p);
        QFETCH(int, predicted);
        QFETCH(int, shape);
        QFETCH(QString, headline);
        QFETCH(QString, note);
        const ForecastReading r = readForecast(figuresOf(p, predicted));
        QCOMPARE(int(r.shape), shape);
        QCOMPARE(r.headline, headline);
        QCOMPARE(r.expectedNote, note);
        // Whatever the shape, a note is there exactly when the expected speedup lies outside the predicted bin.
        QCOMPARE(r.expectedNote.isEmpty(), bins::binOf(figuresOf(p, predicted).expectedSpeedup) == predicted);
    }

    // What the user sees: the headline above the plot and the expected speedup with its explanation beside it.
    void detailShowsTheReading()
    {
        QAction measure(u"Measure on GPU"_s);
        ForecastDetail detail(&measure);
        detail.resize(900, 600);
        detail.show();
        const auto show = [&detail](const bins::Distribution &p, int predicted) {
            Forecast f;
            f.id = 1;
            f.forecasterId = 1;
            f.status = ForecastStatus::Ok;
            f.probabilities = p;
            f.predictedBin = predicted;
            ForecastRow row;
            row.forecasterId = 1;
            row.forecast = f;
            row.figures = figuresOf(f);
            PairForecasts pair;
            pair.candidateId = 2;
            pair.baselineId = 1;
            pair.forecasts = {f};
            detail.showRow(pair, row, 0.5);
        };
        show({0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0}, 6);
        QVERIFY(detail.headlineText().startsWith(u"Bin 6 — significant speedup: 60% on this bin"_s));
        QVERIFY2(!detail.expectedText().contains(u" — "_s), qPrintable(detail.expectedText()));
        QVERIFY(detail.predictedText().startsWith(u"6 — "_s));

        show({0.35, 0.1, 0.05, 0.08, 0.1, 0.12, 0.12, 0.08}, 1);
        QVERIFY2(detail.headlineText().startsWith(u"Uncertain: 80% of the probability is spread over bins 1–6"_s),
            qPrintable(detail.headlineText()));
        QCOMPARE(detail.expectedText(),
            u"1.63× (expected bin 3.72) — the mean of a wide distribution: it falls in bin 5 (10%), not in the "
            "predicted bin 1"_s);
        QVERIFY(detail.predictedText().startsWith(u"1 — severe slowdown"_s));

        detail.showMessage(u"Select a candidate to see its forecasts."_s);
        QVERIFY(detail.headlineText().isEmpty());
    }
};

QTEST_MAIN(TestForecastReading)
#include "tst_forecast_reading.moc"
