// Offscreen tests of the calibration plots: what each draws from hand-made reports, drill-down clicks into the shared
// Selection, the τ slider's operating point, PNG/SVG/PDF export, palette changes, screenshots, and refresh time.
#include "core/bins/bins.h"
#include "core/metrics/ranking.h"
#include "core/metrics/report.h"
#include "core/session/selection.h"
#include "widgets/calibration/budget_curve_plot.h"
#include "widgets/calibration/confusion_plot.h"
#include "widgets/calibration/reliability_plot.h"
#include "widgets/calibration/risk_coverage_plot.h"
#include "widgets/common/color_scheme.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <random>

using namespace gpuf;

namespace {

using metrics::ScoredRow;

std::shared_ptr<const std::vector<ScoredRow>> share(std::vector<ScoredRow> rows)
{
    return std::make_shared<const std::vector<ScoredRow>>(std::move(rows));
}

// Realistic rows: problems with their own speedup spread; forecaster 1 fairly calibrated, forecaster 2 sharper and
// noisier (over-confident) with a few parse failures. pairId = candidate id, poolKey = reference id.
struct Synthetic
{
    std::array<std::vector<ScoredRow>, 2> rows;
    QHash<RowId, RowId> references;
};

Synthetic synthetic(int pairs, int problems, quint64 seed)
{
    Synthetic s;
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<double> problemMean(static_cast<std::size_t>(problems));
    for (double &mean : problemMean)
        mean = -0.8 + 1.8 * uniform(rng);
    constexpr std::array<double, 2> kNoise {0.8, 1.5};
    constexpr std::array<double, 2> kWidth {1.0, 0.5};
    qint64 forecastId = 0;
    for (int i = 0; i < pairs; ++i) {
        const int problem = i % problems;
        const RowId candidate = 1 + i;
        const RowId reference = 1'000'000 + problem;
        s.references.insert(candidate, reference);
        const double speedup = std::exp2(problemMean[std::size_t(problem)] + 1.1 * normal(rng));
        for (int f = 0; f < 2; ++f) {
            ScoredRow row;
            row.pairId = candidate;
            row.forecastId = ++forecastId;
            row.poolKey = reference;
            row.forecasterId = f + 1;
            row.problemId = problem + 1;
            row.trueSpeedup = speedup;
            row.trueBin = *bins::binOf(speedup);
            if (f == 1 && uniform(rng) < 0.02) {
                s.rows[std::size_t(f)].push_back(row); // a parse failure
                continue;
            }
            const double centre = row.trueBin + kNoise[std::size_t(f)] * normal(rng);
            const double width = kWidth[std::size_t(f)] * (0.6 + 0.8 * uniform(rng));
            bins::Distribution p {};
            for (int b = 1; b <= bins::kBinCount; ++b)
                p[std::size_t(b - 1)] = std::exp(-(b - centre) * (b - centre) / (2 * width * width)) + 1e-4;
            row.p = *bins::renormalised(p);
            row.predictedBin = bins::argmaxBin(row.p);
            row.parsed = true;
            s.rows[std::size_t(f)].push_back(row);
        }
    }
    return s;
}

PlotInput syntheticInput(const Synthetic &s, int seriesCount, int bootstrap)
{
    static const std::array<QString, 2> names {QStringLiteral("gemini3_flash"), QStringLiteral("gpt-oss-20b")};
    PlotInput input;
    input.options.bootstrapResamples = bootstrap;
    input.referenceIds = std::make_shared<const QHash<RowId, RowId>>(s.references);
    for (int f = 0; f < seriesCount; ++f) {
        PlotSeries series;
        series.name = names[std::size_t(f)];
        series.forecasterId = f + 1;
        series.rows = share(s.rows[std::size_t(f)]);
        series.report
            = std::make_shared<const metrics::MetricsReport>(metrics::computeReport(*series.rows, input.options));
        input.series.append(series);
    }
    for (int p = 1; p <= 40; ++p)
        input.problemNames.insert(p, QStringLiteral("problem_%1").arg(p));
    return input;
}

PlotInput reportOnly(std::vector<metrics::MetricsReport> reports)
{
    PlotInput input;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        PlotSeries series;
        series.name = QStringLiteral("forecaster %1").arg(i + 1);
        series.forecasterId = RowId(i) + 1;
        series.report = std::make_shared<const metrics::MetricsReport>(std::move(reports[i]));
        series.rows = share({});
        input.series.append(series);
    }
    return input;
}

// Shows the widget at a fixed size and lays the plot out, so coordToPixel is meaningful.
void showAndLayOut(PlotWidget *widget)
{
    widget->resize(960, 680);
    widget->show();
    QVERIFY(QTest::qWaitForWindowExposed(widget));
    widget->plot()->replot(QCustomPlot::rpImmediateRefresh);
}

template<typename Predicate>
QList<RowId> expectedIds(const std::vector<ScoredRow> &rows, Predicate predicate)
{
    QList<RowId> ids;
    for (const ScoredRow &row : rows)
        if (predicate(row) && !ids.contains(row.pairId))
            ids.append(row.pairId);
    return ids;
}

int maxProbBucket(const ScoredRow &row)
{
    return row.parsed
        ? metrics::reliabilityBucket(bins::confidence(bins::ConfidenceScore::MaxProb, row.p, *row.predictedBin))
        : -1;
}

// The candidates of the pairs a drill-down listed, in order, each once.
QList<RowId> listedCandidates(const Selection &selection)
{
    QList<RowId> ids;
    for (const DrillPair &p : selection.drillPairs()) {
        if (!ids.contains(p.candidateId))
            ids.append(p.candidateId);
    }
    return ids;
}

} // namespace

class TestCalibrationPlots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void reliabilityBars_data();
    void reliabilityBars();
    void reliabilityClickDrillsDown();

    void confusionCells_data();
    void confusionCells();
    void confusionClickDrillsDown_data();
    void confusionClickDrillsDown();

    void riskCoveragePoints();
    void riskCoverageSliderUpdatesOperatingPoint();
    void riskCoverageClickSetsThreshold();

    void budgetCurves();
    void budgetDrillDown();

    void exports_data();
    void exports();
    void exportRefusesUnknownSuffix();

    void paletteChangeRecolours();
    void screenshots();
    void refreshTime();

private:
    QString m_screenshotDir;
};

void TestCalibrationPlots::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_screenshotDir = QStringLiteral(GPUF_BINARY_DIR "/calibration_screenshots");
    QVERIFY(QDir().mkpath(m_screenshotDir));
}

void TestCalibrationPlots::reliabilityBars_data()
{
    QTest::addColumn<QList<int>>("counts");
    QTest::addColumn<int>("seriesCount");
    QTest::addColumn<bool>("intervals");
    QTest::newRow("three buckets") << QList<int> {0, 0, 0, 0, 0, 5, 0, 12, 30, 0} << 1 << false;
    QTest::newRow("every bucket") << QList<int> {1, 2, 3, 4, 5, 6, 7, 8, 9, 10} << 1 << true;
    QTest::newRow("one bucket") << QList<int> {0, 0, 0, 0, 0, 0, 0, 0, 0, 40} << 1 << false;
    QTest::newRow("two forecasters") << QList<int> {0, 3, 0, 8, 0, 20, 0, 0, 4, 0} << 2 << true;
    QTest::newRow("empty") << QList<int>(10, 0) << 1 << false;
}

void TestCalibrationPlots::reliabilityBars()
{
    QFETCH(QList<int>, counts);
    QFETCH(int, seriesCount);
    QFETCH(bool, intervals);
    metrics::MetricsReport report;
    int nonEmpty = 0;
    for (int b = 0; b < metrics::kReliabilityBuckets; ++b) {
        metrics::ReliabilityBucket &bucket = report.reliability[std::size_t(b)];
        bucket.low = b / 10.0;
        bucket.high = (b + 1) / 10.0;
        bucket.count = counts[b];
        bucket.meanConfidence = counts[b] ? bucket.low + 0.05 : qQNaN();
        bucket.accuracy = counts[b] ? 0.9 - 0.05 * b : qQNaN();
        report.reliabilityAccuracyIntervals[std::size_t(b)] = {bucket.accuracy - 0.05, bucket.accuracy + 0.04};
        report.nParsed += counts[b];
        nonEmpty += counts[b] > 0;
    }
    report.nTotal = report.nParsed + 3;
    report.hasIntervals = intervals;
    report.scalars[std::size_t(metrics::Scalar::Ece)] = 0.1234;
    ReliabilityPlot plot;
    plot.setInput(reportOnly(std::vector<metrics::MetricsReport>(std::size_t(seriesCount), report)));

    for (int k = 0; k < seriesCount; ++k) {
        QCPBars *bars = plot.accuracyBars(k);
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), nonEmpty);
        QCOMPARE(plot.countBars(k)->data()->size(), nonEmpty);
        int i = 0;
        for (int b = 0; b < metrics::kReliabilityBuckets; ++b) {
            if (counts[b] == 0)
                continue;
            QCOMPARE(bars->data()->at(i)->key, plot.barKey(k, b));
            QVERIFY(plot.barKey(k, b) > b / 10.0 && plot.barKey(k, b) < (b + 1) / 10.0);
            QCOMPARE(bars->data()->at(i)->value, 0.9 - 0.05 * b);
            QCOMPARE(plot.countBars(k)->data()->at(i)->value, double(counts[b]));
            ++i;
        }
    }
    QVERIFY(!plot.accuracyBars(seriesCount));
    // Whiskers exist exactly when the report has intervals.
    int errorBars = 0;
    for (int i = 0; i < plot.plot()->plottableCount(); ++i)
        errorBars += qobject_cast<QCPErrorBars *>(plot.plot()->plottable(i)) != nullptr;
    QCOMPARE(errorBars, intervals ? seriesCount : 0);
    QVERIFY2(plot.title().contains(QStringLiteral("ECE 0.123")), qPrintable(plot.title()));
    QVERIFY2(plot.title().contains(QStringLiteral("%1 parsed of %2").arg(report.nParsed).arg(report.nTotal)),
        qPrintable(plot.title()));
}

void TestCalibrationPlots::reliabilityClickDrillsDown()
{
    const Synthetic s = synthetic(1500, 12, 7);
    const PlotInput input = syntheticInput(s, 2, 0);
    Selection selection;
    ReliabilityPlot plot;
    plot.setSelection(&selection);
    plot.setInput(input);
    showAndLayOut(&plot);

    // The second forecaster's fullest bucket, clicked in the count histogram and in the accuracy bars.
    const metrics::Reliability &buckets = input.series[1].report->reliability;
    const int bucket = int(std::max_element(buckets.begin(), buckets.end(), [](const auto &a, const auto &b) {
        return a.count < b.count;
    }) - buckets.begin());
    const QList<RowId> expected
        = expectedIds(s.rows[1], [bucket](const ScoredRow &row) { return maxProbBucket(row) == bucket; });
    QVERIFY(!expected.isEmpty());
    for (QCPAxisRect *rect : {plot.accuracyRect(), plot.countRect()}) {
        selection.clear();
        const double value = rect == plot.countRect() ? double(buckets[std::size_t(bucket)].count) / 2
                                                      : buckets[std::size_t(bucket)].accuracy / 2;
        const QPoint pixel(int(std::lround(rect->axis(QCPAxis::atBottom)->coordToPixel(plot.barKey(1, bucket)))),
            int(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(value))));
        QTest::mouseClick(plot.plot(), Qt::LeftButton, {}, pixel);
        QCOMPARE(listedCandidates(selection), expected);
        QVERIFY2(selection.drillDescription().contains(QStringLiteral("gpt-oss-20b")),
            qPrintable(selection.drillDescription()));
        QCOMPARE(selection.candidateId(), expected.first());
        QCOMPARE(selection.baselineId(), s.references.value(expected.first()));
    }
}

void TestCalibrationPlots::confusionCells_data()
{
    QTest::addColumn<int>("how");
    QTest::newRow("counts") << int(metrics::ConfusionNormalisation::None);
    QTest::newRow("rows") << int(metrics::ConfusionNormalisation::ByTrueBin);
    QTest::newRow("columns") << int(metrics::ConfusionNormalisation::ByPredictedBin);
    QTest::newRow("total") << int(metrics::ConfusionNormalisation::ByTotal);
}

void TestCalibrationPlots::confusionCells()
{
    QFETCH(int, how);
    metrics::MetricsReport report;
    // A band around the diagonal, plus one far-off cell; true bin 8 has no forecasts at all.
    for (int t = 1; t <= 7; ++t)
        for (int p = std::max(1, t - 1); p <= std::min(8, t + 1); ++p)
            report.confusion.counts[std::size_t(t - 1)][std::size_t(p - 1)] = 10 * t + p;
    report.confusion.counts[0][7] = 3;
    int nonEmpty = 0;
    for (const auto &row : report.confusion.counts)
        for (qint64 n : row)
            nonEmpty += n > 0;

    ConfusionPlot plot;
    plot.setNormalisation(metrics::ConfusionNormalisation(how));
    plot.setInput(reportOnly({report, report}));
    const metrics::NormalisedConfusion shares
        = metrics::normalised(report.confusion, metrics::ConfusionNormalisation(how));
    for (int k = 0; k < 2; ++k) {
        QCPColorMap *map = plot.colorMap(k);
        QVERIFY(map);
        QCOMPARE(map->data()->keySize(), bins::kBinCount);
        QCOMPARE(map->data()->valueSize(), bins::kBinCount);
        QCOMPARE(plot.cellLabels(k).size(), nonEmpty);
        QVERIFY(plot.colorScale(k));
        double top = 0.0;
        for (int t = 1; t <= 8; ++t) {
            for (int p = 1; p <= 8; ++p) {
                const qint64 n = report.confusion.counts[std::size_t(t - 1)][std::size_t(p - 1)];
                const double expected = how == int(metrics::ConfusionNormalisation::None)
                    ? double(n)
                    : shares[std::size_t(t - 1)][std::size_t(p - 1)];
                const double drawn = map->data()->cell(p - 1, t - 1);
                if (std::isnan(expected))
                    QVERIFY(std::isnan(drawn));
                else
                    QCOMPARE(drawn, expected);
                if (std::isfinite(expected))
                    top = std::max(top, expected);
            }
        }
        QCOMPARE(plot.colorScale(k)->dataRange().upper, top);
    }
    QVERIFY(!plot.colorMap(2));
    // Counts show integers; shares show percentages.
    const QString first = plot.cellLabels(0).first()->text();
    QCOMPARE(first.endsWith(QLatin1Char('%')), how != int(metrics::ConfusionNormalisation::None));
}

void TestCalibrationPlots::confusionClickDrillsDown_data()
{
    QTest::addColumn<int>("series");
    QTest::addColumn<int>("trueBin");
    QTest::addColumn<int>("predictedBin");
    QTest::newRow("first, 5 as 4") << 0 << 5 << 4;
    QTest::newRow("first, diagonal 4") << 0 << 4 << 4;
    QTest::newRow("second, 3 as 5") << 1 << 3 << 5;
}

void TestCalibrationPlots::confusionClickDrillsDown()
{
    QFETCH(int, series);
    QFETCH(int, trueBin);
    QFETCH(int, predictedBin);
    const Synthetic s = synthetic(1500, 12, 11);
    const PlotInput input = syntheticInput(s, 2, 0);
    Selection selection;
    ConfusionPlot plot;
    plot.setSelection(&selection);
    plot.setInput(input);
    showAndLayOut(&plot);

    const QList<RowId> expected = expectedIds(s.rows[std::size_t(series)],
        [&](const ScoredRow &row) { return row.parsed && row.trueBin == trueBin && row.predictedBin == predictedBin; });
    QVERIFY(!expected.isEmpty());
    QTest::mouseClick(plot.plot(), Qt::LeftButton, {}, plot.cellCenter(series, trueBin, predictedBin));
    QCOMPARE(listedCandidates(selection), expected);
    // One listed pair per forecast the cell counts, each with the cell's bins.
    const auto inCell = std::count_if(s.rows[std::size_t(series)].cbegin(), s.rows[std::size_t(series)].cend(),
        [&](const ScoredRow &row) { return row.parsed && row.trueBin == trueBin && row.predictedBin == predictedBin; });
    QCOMPARE(selection.drillPairs().size(), qsizetype(inCell));
    for (const DrillPair &p : selection.drillPairs()) {
        QCOMPARE(p.trueBin, trueBin);
        QCOMPARE(p.predictedBin, std::optional<int>(predictedBin));
    }
    QVERIFY2(selection.drillDescription().startsWith(QStringLiteral("true bin %1, predicted bin %2 (%3): %4 forecast")
                                                         .arg(trueBin)
                                                         .arg(predictedBin)
                                                         .arg(input.series[series].name)
                                                         .arg(inCell)),
        qPrintable(selection.drillDescription()));
    QCOMPARE(selection.candidateId(), expected.first());
    QCOMPARE(selection.baselineId(), s.references.value(expected.first()));
}

void TestCalibrationPlots::riskCoveragePoints()
{
    metrics::MetricsReport report;
    const double inf = std::numeric_limits<double>::infinity();
    report.mismatchCurves[0]
        = {{inf, 0.0, qQNaN(), 0}, {0.9, 0.2, 0.1, 2}, {0.7, 0.5, 0.2, 5}, {0.4, 0.8, 0.3, 8}, {-inf, 1.0, 0.35, 10}};
    report.mismatchCurves[1] = {{inf, 0.0, qQNaN(), 0}, {0.5, 0.6, 0.25, 6}, {-inf, 1.0, 0.35, 10}};
    report.regretCurves[0] = {{inf, 0.0, 0.0, 0}, {-inf, 1.0, 0.5, 10}};
    RiskCoveragePlot plot;
    plot.setInput(reportOnly({report}));
    QCOMPARE(plot.curve(0)->data()->size(), 4); // the NaN-risk point is not drawn
    QCOMPARE(plot.pointIndices(0), (std::vector<int> {1, 2, 3, 4}));
    QCOMPARE(plot.curve(0)->data()->at(2)->key, 0.8);
    QCOMPARE(plot.curve(0)->data()->at(2)->value, 0.3);
    QVERIFY(plot.title().contains(QStringLiteral("max_prob")));
    plot.setScore(bins::ConfidenceScore::NegEntropy);
    QCOMPARE(plot.curve(0)->data()->size(), 2);
    QVERIFY(plot.title().contains(QStringLiteral("neg_entropy")));
    plot.setScore(bins::ConfidenceScore::MaxProb);
    plot.setRisk(metrics::RiskKind::Regret);
    QCOMPARE(plot.curve(0)->data()->size(), 2);
    QCOMPARE(plot.curve(0)->data()->at(1)->value, 0.5);
    QVERIFY(!plot.curve(1));
}

void TestCalibrationPlots::riskCoverageSliderUpdatesOperatingPoint()
{
    const Synthetic s = synthetic(1200, 10, 3);
    const PlotInput input = syntheticInput(s, 2, 0);
    RiskCoveragePlot plot;
    plot.setInput(input);
    for (int value : {0, 350, 620, 900, 1000}) {
        plot.thresholdSlider()->setValue(value);
        const double tau = value / 1000.0;
        QCOMPARE(plot.threshold(), tau);
        for (int k = 0; k < 2; ++k) {
            const metrics::ThresholdOutcome outcome
                = metrics::applyThreshold(s.rows[std::size_t(k)], bins::ConfidenceScore::MaxProb, tau, input.options);
            const QString expected = QStringLiteral("%1: coverage %2%, risk ")
                                         .arg(input.series[k].name, QString::number(100.0 * outcome.coverage, 'f', 1));
            QVERIFY2(plot.operatingPointText().contains(expected), qPrintable(plot.operatingPointText()));
            QVERIFY2(
                plot.operatingPointText().contains(
                    QStringLiteral("%1 GPU measurements").arg(QLocale().toString(outcome.total - outcome.predicted))),
                qPrintable(plot.operatingPointText()));
            QCOMPARE(plot.operatingMarker(k)->data()->size(), 1);
            QCOMPARE(plot.operatingMarker(k)->data()->at(0)->key, outcome.coverage);
        }
    }
    // Everything deferred at τ = 1 (no max_prob reaches 1 here), nothing at τ = 0.
    plot.thresholdSlider()->setValue(0);
    QCOMPARE(plot.operatingPoint(0).predicted, plot.operatingPoint(0).total);
}

void TestCalibrationPlots::riskCoverageClickSetsThreshold()
{
    const Synthetic s = synthetic(800, 8, 5);
    const PlotInput input = syntheticInput(s, 1, 0);
    Selection selection;
    RiskCoveragePlot plot;
    plot.setSelection(&selection);
    plot.setInput(input);
    showAndLayOut(&plot);
    const QCPGraph *curve = plot.curve(0);
    const int drawn = curve->data()->size() / 2;
    const auto point = curve->data()->at(drawn);
    const QPoint pixel(int(std::lround(plot.plot()->xAxis->coordToPixel(point->key))),
        int(std::lround(plot.plot()->yAxis->coordToPixel(point->value))));
    QTest::mouseClick(plot.plot(), Qt::LeftButton, {}, pixel);
    QVERIFY(!listedCandidates(selection).isEmpty());
    QVERIFY2(selection.drillDescription().startsWith(QStringLiteral("forecasts trusted at max_prob")),
        qPrintable(selection.drillDescription()));
    // The clicked point's threshold (a curve point within a few pixels) moved the slider.
    QVERIFY(plot.thresholdSlider()->value() > 0);
    const double tau = plot.threshold();
    const metrics::ThresholdOutcome outcome
        = metrics::applyThreshold(s.rows[0], bins::ConfidenceScore::MaxProb, tau, input.options);
    QVERIFY(std::abs(outcome.coverage - point->key) < 0.05);
}

void TestCalibrationPlots::budgetCurves()
{
    const Synthetic s = synthetic(900, 9, 13);
    const PlotInput input = syntheticInput(s, 2, 0);
    BudgetCurvePlot plot;
    plot.setInput(input);
    for (int k = 0; k < 2; ++k) {
        const metrics::MetricsReport &report = *input.series[k].report;
        QCOMPARE(plot.problemCurves(k).size(), 9);
        QCOMPARE(plot.pooledCurve(k)->data()->size(), BudgetCurvePlot::kGridPoints);
        const BudgetCurves &curves = plot.curves(k);
        QCOMPARE(curves.pooled.pools, int(report.pools.size()));
        // At 10% the pooled curve is the report's utility@10%; measuring everything finds the best.
        QVERIFY(std::abs(curves.pooled.utility[BudgetCurvePlot::kGridPoints / 10 - 1]
                    - report.scalar(metrics::Scalar::UtilityAt10Pct))
            < 1e-12);
        QVERIFY(std::abs(curves.pooled.utility.last() - 1.0) < 1e-12);
        QVERIFY(std::abs(curves.pooled.utility[49] - metrics::meanUtility(report, 0.25)) < 1e-12);
        for (qsizetype i = 1; i < curves.pooled.utility.size(); ++i)
            QVERIFY(curves.pooled.utility[i] >= curves.pooled.utility[i - 1] - 1e-12);
    }
    QVERIFY(plot.randomCurve());
    // The random-order baseline equals the ranking's own tie expectation with every score equal.
    metrics::MetricsReport single;
    single.pools.push_back(input.series[0].report->pools.front());
    const BudgetCurves one = gpuf::budgetCurves(single, {}, BudgetCurvePlot::kGridPoints);
    std::vector<metrics::RankedItem> tied = single.pools.front().items;
    for (metrics::RankedItem &item : tied)
        item.score = 0.0;
    const std::vector<double> expected = metrics::budgetCurve(tied);
    for (int j : {1, 20, 77, 133, BudgetCurvePlot::kGridPoints}) {
        const std::size_t m = metrics::budgetCount(double(j) / BudgetCurvePlot::kGridPoints, tied.size());
        QVERIFY(std::abs(one.random.utility[j - 1] - expected[m - 1] / single.pools.front().bestSpeedup) < 1e-9);
    }
    plot.setShowProblems(false);
    QVERIFY(plot.problemCurves(0).isEmpty());
    QCOMPARE(plot.plot()->graphCount(), 3); // two pooled curves and the random order
}

void TestCalibrationPlots::budgetDrillDown()
{
    const Synthetic s = synthetic(600, 6, 17);
    const PlotInput input = syntheticInput(s, 1, 0);
    Selection selection;
    BudgetCurvePlot plot;
    plot.setSelection(&selection);
    plot.setInput(input);
    const metrics::MetricsReport &report = *input.series[0].report;
    QList<RowId> expected;
    for (const metrics::RankingPool &pool : report.pools)
        for (std::size_t i = 0; i < metrics::budgetCount(0.2, pool.items.size()); ++i)
            expected.append(pool.items[i].pairId);
    const DrillDown drill = plot.budgetDrillDown(0, 0.2);
    QCOMPARE(drill.candidateIds, expected);

    showAndLayOut(&plot);
    const int j = BudgetCurvePlot::kGridPoints / 5;
    const QPoint pixel(int(std::lround(plot.plot()->xAxis->coordToPixel(0.2))),
        int(std::lround(plot.plot()->yAxis->coordToPixel(plot.curves(0).pooled.utility[j - 1]))));
    QTest::mouseClick(plot.plot(), Qt::LeftButton, {}, pixel);
    QCOMPARE(selection.filterIds(), expected);
    QCOMPARE(selection.baselineId(), s.references.value(expected.first()));
}

void TestCalibrationPlots::exports_data()
{
    QTest::addColumn<int>("plotKind");
    QTest::addColumn<QString>("suffix");
    for (int kind = 0; kind < 4; ++kind)
        for (const char *suffix : {"png", "svg", "pdf"})
            QTest::addRow("plot %d %s", kind, suffix) << kind << QString::fromLatin1(suffix);
}

static std::unique_ptr<PlotWidget> makePlot(int kind)
{
    switch (kind) {
    case 0:
        return std::make_unique<ReliabilityPlot>();
    case 1:
        return std::make_unique<ConfusionPlot>();
    case 2:
        return std::make_unique<RiskCoveragePlot>();
    default:
        return std::make_unique<BudgetCurvePlot>();
    }
}

void TestCalibrationPlots::exports()
{
    QFETCH(int, plotKind);
    QFETCH(QString, suffix);
    const Synthetic s = synthetic(400, 4, 19);
    std::unique_ptr<PlotWidget> plot = makePlot(plotKind);
    plot->setInput(syntheticInput(s, 2, 0));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("plot.") + suffix);
    const Status status = plot->exportTo(path, QSize(800, 560));
    QVERIFY2(status.ok(), qPrintable(status.error()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray head = file.read(8);
    QVERIFY(file.size() > 1000);
    if (suffix == QLatin1StringView("png"))
        QVERIFY(head.startsWith("\x89PNG"));
    else if (suffix == QLatin1StringView("pdf"))
        QVERIFY(head.startsWith("%PDF"));
    else
        QVERIFY(file.readAll().contains("<svg") || head.contains("<?xml"));
}

void TestCalibrationPlots::exportRefusesUnknownSuffix()
{
    ReliabilityPlot plot;
    QTemporaryDir dir;
    const Status status = plot.exportTo(dir.filePath(QStringLiteral("plot.bmpx")));
    QVERIFY(!status.ok());
    QVERIFY(status.error().contains(QStringLiteral(".png")));
}

void TestCalibrationPlots::paletteChangeRecolours()
{
    const Synthetic s = synthetic(400, 4, 23);
    const PlotInput input = syntheticInput(s, 2, 0);
    ReliabilityPlot plot;
    plot.setPalette(lightPalette());
    plot.setInput(input);
    const QColor lightBar = plot.accuracyBars(0)->pen().color();
    QCOMPARE(plot.accuracyRect()->axis(QCPAxis::atLeft)->basePen().color(), lightPalette().color(QPalette::Text));

    plot.setPalette(darkPalette());
    QCOMPARE(plot.accuracyRect()->axis(QCPAxis::atLeft)->basePen().color(), darkPalette().color(QPalette::Text));
    QCOMPARE(plot.countRect()->axis(QCPAxis::atBottom)->tickLabelColor(), darkPalette().color(QPalette::Text));
    QVERIFY(plot.accuracyBars(0)->pen().color() != lightBar);
    QVERIFY(plot.accuracyBars(0)->pen().color() != plot.accuracyBars(1)->pen().color());
    QVERIFY(plot.colors().dark);

    ConfusionPlot confusion;
    confusion.setPalette(lightPalette());
    confusion.setInput(input);
    const QColor lightScale = confusion.colorScale(0)->axis()->basePen().color();
    confusion.setPalette(darkPalette());
    QVERIFY(confusion.colorScale(0)->axis()->basePen().color() != lightScale);
}

void TestCalibrationPlots::screenshots()
{
    const Synthetic s = synthetic(2400, 24, 29);
    const std::array<PlotInput, 2> inputs {syntheticInput(s, 1, 100), syntheticInput(s, 2, 100)};
    static const std::array<const char *, 4> names {"reliability", "confusion", "risk_coverage", "budget_curve"};
    for (int kind = 0; kind < 4; ++kind) {
        for (int series = 1; series <= 2; ++series) {
            QImage previous;
            for (const bool dark : {false, true}) {
                std::unique_ptr<PlotWidget> plot = makePlot(kind);
                plot->setPalette(dark ? darkPalette() : lightPalette());
                plot->setInput(inputs[std::size_t(series - 1)]);
                if (auto *risk = qobject_cast<RiskCoveragePlot *>(plot.get()))
                    risk->setThreshold(0.55);
                showAndLayOut(plot.get());
                const QImage image = plot->grab().toImage();
                QVERIFY(!image.isNull());
                const QString path = QStringLiteral("%1/%2_%3_%4.png")
                                         .arg(m_screenshotDir, QLatin1StringView(names[std::size_t(kind)]),
                                             series == 1 ? QStringLiteral("one") : QStringLiteral("two"),
                                             dark ? QStringLiteral("dark") : QStringLiteral("light"));
                QVERIFY(image.save(path));
                if (!previous.isNull())
                    QVERIFY(image != previous); // the palette reached the plot
                previous = image;
            }
        }
    }
}

void TestCalibrationPlots::refreshTime()
{
    // 100 000 forecasts per forecaster, two overlaid: the refresh draws aggregates, so it must stay well inside a
    // frame budget. The bound here is generous (loaded CI machines); the figure is printed for the report.
    const Synthetic s = synthetic(100'000, 118, 31);
    const PlotInput input = syntheticInput(s, 2, 0);
    std::array<std::unique_ptr<PlotWidget>, 4> plots;
    for (int kind = 0; kind < 4; ++kind) {
        plots[std::size_t(kind)] = makePlot(kind);
        plots[std::size_t(kind)]->resize(960, 680);
    }
    QElapsedTimer timer;
    timer.start();
    static const std::array<const char *, 4> names {"reliability", "confusion", "risk_coverage", "budget_curve"};
    for (std::size_t i = 0; i < plots.size(); ++i) {
        QElapsedTimer one;
        one.start();
        plots[i]->setInput(input);
        plots[i]->plot()->replot(QCustomPlot::rpImmediateRefresh);
        qInfo("calibration_plot_%s_refresh_100k_x2_ms %lld", names[i], one.elapsed());
    }
    const qint64 ms = timer.elapsed();
    qInfo("calibration_plots_refresh_100k_x2_ms %lld", ms);
    QVERIFY2(ms < 2000, qPrintable(QStringLiteral("refresh took %1 ms").arg(ms)));
}

QTEST_MAIN(TestCalibrationPlots)
#include "tst_calibration_plots.moc"
