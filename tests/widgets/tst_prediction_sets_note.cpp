// The Forecast dock's prediction sets line (widgets/forecast/prediction_sets_note.h) as the user reads it in the
// detail: the forecast's own 90 % set and the conformal set at the forecaster's calibrated threshold, worked out by
// hand, and the conformal calibration read off a metrics report.
#include "core/session/calibration_data.h"
#include "widgets/forecast/forecast_detail.h"
#include "widgets/forecast/prediction_sets_note.h"

#include <QAction>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

// Mode bin 4 (0.5), then bin 5 (0.3), bin 6 (0.15) and bin 3 (0.05).
const bins::Distribution kP {0.0, 0.0, 0.05, 0.5, 0.3, 0.15, 0.0, 0.0};

ForecastRow rowOf(RowId forecaster)
{
    ForecastRow row;
    row.kind = ForecastRow::Kind::Stored;
    row.forecasterId = forecaster;
    row.forecast.id = 11;
    row.forecast.forecasterId = forecaster;
    row.forecast.probabilities = kP;
    row.forecast.predictedBin = 4;
    row.forecast.status = ForecastStatus::Ok;
    row.figures = figuresOf(kP, 4);
    return row;
}

} // namespace

class TestPredictionSetsNote : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void detailShowsBothSets()
    {
        QAction measure(u"Measure"_s, nullptr);
        ForecastDetail detail(&measure);
        PairForecasts pair;
        pair.candidateId = 2;
        pair.baselineId = 1;
        // No two bins hold 0.9 (4–5: 0.8); of three, 4–6 holds 0.95 and 3–5 only 0.85. The conformal set at threshold
        // 0.55 holds the bins added while the mass before them stays ≤ 0.55: bin 4 (0), bin 5 (0.5); bin 6 comes at
        // 0.8.
        detail.setConformal({{7, ConformalCalibration {0.9, 0.55, 0.875, 40}}});
        detail.showRow(pair, rowOf(7), 0.5);
        QCOMPARE(detail.setsText(),
            u"bins 4–6 (1.00×–2.83×) with 90 % of this forecast · conformal 90 %: bins 4–5 (1.00×–2.00×), calibrated "
            u"on 40 measured pair(s), covered 88 % of them out of sample"_s);
        // A forecaster without measured pairs: no conformal set, and why.
        detail.showRow(pair, rowOf(8), 0.5);
        QCOMPARE(detail.setsText(),
            u"bins 4–6 (1.00×–2.83×) with 90 % of this forecast · no conformal set: the forecaster has no measured "
            u"pairs to calibrate on yet"_s);
    }

    // A set from the slowest bin or to the fastest names its open end as the reading does ("< 4.00×"), not "—–4.00×".
    void openEndedSets()
    {
        const bins::Distribution low {0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
        QVERIFY2(predictionSetsText(low, std::nullopt).startsWith(u"bins 1–7 (< 4.00×) with 90 % of this forecast"_s),
            qPrintable(predictionSetsText(low, std::nullopt)));
        const bins::Distribution high {0.0, 0.0, 0.0, 0.0, 0.05, 0.05, 0.4, 0.5};
        QVERIFY2(predictionSetsText(high, std::nullopt).startsWith(u"bins 7–8 (≥ 2.83×) with 90 % of this forecast"_s),
            qPrintable(predictionSetsText(high, std::nullopt)));
        const bins::Distribution flat {0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125};
        QVERIFY2(predictionSetsText(flat, std::nullopt).startsWith(u"bins 1–8 (any speedup) with"_s),
            qPrintable(predictionSetsText(flat, std::nullopt)));
    }

    void calibrationFromTheMetrics()
    {
        CalibrationSnapshot snapshot;
        metrics::ForecasterReport r;
        r.forecaster.id = 5;
        r.report.predictionSets = {{0.2, 30, 0.8, 2.0, 0.77, 2.1, 0.4}, {0.1, 30, 0.9, 3.0, 0.9, 2.9, 0.61}};
        snapshot.metrics.reports.push_back(r);
        const QHash<RowId, ConformalCalibration> got = conformalCalibrations(snapshot);
        QCOMPARE(got.size(), 1);
        QCOMPARE(got.value(5).threshold, 0.61);
        QCOMPARE(got.value(5).coverage, 0.9);
        QCOMPARE(got.value(5).pairs, 30);
    }
};

QTEST_MAIN(TestPredictionSetsNote)
#include "tst_prediction_sets_note.moc"
