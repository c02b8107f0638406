// Offscreen tests of what makes the plots readable at dock sizes: bin names on the confusion matrix's axes, value axes
// whose tick labels never print over each other, hover labels naming the per-problem curves, the export's default file
// name, and the explanation table's signed contribution bars.
#include "core/bins/bins.h"
#include "core/metrics/report.h"
#include "widgets/calibration/budget_curve_plot.h"
#include "widgets/calibration/confusion_plot.h"
#include "widgets/calibration/reliability_plot.h"
#include "widgets/forecast/contribution_delegate.h"
#include "widgets/forecast/distribution_plot.h"
#include "widgets/forecast/explanation_model.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QDate>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include <random>

using namespace gpuf;

namespace {

// Rows of one forecaster over `problems` problems, each problem a pool of candidates against its own reference.
PlotInput input(int pairs, int problems, quint64 seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    auto rows = std::make_shared<std::vector<metrics::ScoredRow>>();
    auto references = std::make_shared<QHash<RowId, RowId>>();
    for (int i = 0; i < pairs; ++i) {
        metrics::ScoredRow row;
        row.pairId = 1 + i;
        row.forecastId = 1 + i;
        row.problemId = 1 + i % problems;
        row.poolKey = 1'000'000 + row.problemId;
        row.forecasterId = 1;
        row.trueSpeedup = std::exp2(0.3 * row.problemId - 0.5 + normal(rng));
        row.trueBin = *bins::binOf(*row.trueSpeedup);
        bins::Distribution p {};
        const double centre = row.trueBin + 0.9 * normal(rng);
        for (int b = 1; b <= bins::kBinCount; ++b)
            p[std::size_t(b - 1)] = std::exp(-(b - centre) * (b - centre) / 2.0) + 1e-4;
        row.p = *bins::renormalised(p);
        row.predictedBin = bins::argmaxBin(row.p);
        row.parsed = true;
        references->insert(row.pairId, row.poolKey);
        rows->push_back(row);
    }
    PlotInput in;
    PlotSeries series;
    series.name = QStringLiteral("Cost model (held-out operations)");
    series.forecasterId = 1;
    series.rows = rows;
    series.report = std::make_shared<const metrics::MetricsReport>(metrics::computeReport(*rows, in.options));
    in.series.append(series);
    in.referenceIds = references;
    for (int p = 1; p <= problems; ++p)
        in.problemNames.insert(p, QStringLiteral("problem_%1").arg(p));
    return in;
}

template<typename Plot>
void showAt(Plot &plot, QSize size)
{
    plot.resize(size);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh); // the tick counts follow the first layout
}

} // namespace

class TestPlotReadability : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void confusionAxesNameTheBins()
    {
        ConfusionPlot plot;
        plot.setInput(input(400, 4, 1));
        showAt(plot, QSize(1300, 500));
        const auto rows = plot.matrixRect(0)->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
        const auto columns = plot.matrixRect(0)->axis(QCPAxis::atBottom)->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(rows && columns);
        QCOMPARE(rows->ticks().size(), bins::kBinCount);
        for (int bin = 1; bin <= bins::kBinCount; ++bin) {
            QCOMPARE(rows->ticks().value(bin), QStringLiteral("%1  %2").arg(bins::label(bin)).arg(bin));
            QVERIFY(columns->ticks().value(bin).startsWith(QString::number(bin) + QLatin1Char('\n')));
        }
        QCOMPARE(rows->ticks().value(4), QStringLiteral("slight speedup  4"));
        QCOMPARE(columns->ticks().value(1), QStringLiteral("1\n<0.50×"));
        QCOMPARE(columns->ticks().value(4), QStringLiteral("4\n1.00×–1.41×"));
        QCOMPARE(columns->ticks().value(8), QStringLiteral("8\n≥4.00×"));

        // Two matrices side by side in the same width: the columns are too narrow for the ranges, which would print
        // over each other; the numbers stand alone, and the second matrix does not repeat the names.
        PlotInput two = input(400, 4, 1);
        PlotSeries second = two.series.first();
        second.name = QStringLiteral("second");
        second.forecasterId = 2;
        two.series.append(second);
        plot.setInput(two);
        plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
        plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
        for (int k = 0; k < 2; ++k) {
            const auto narrow = plot.matrixRect(k)->axis(QCPAxis::atBottom)->ticker().dynamicCast<QCPAxisTickerText>();
            QCOMPARE(narrow->ticks().value(4), QStringLiteral("4"));
        }
        const auto secondRows = plot.matrixRect(1)->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
        QCOMPARE(secondRows->ticks().value(4), QStringLiteral("4"));
        // Wide again: the ranges come back.
        plot.resize(2600, 500);
        plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
        plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(
            plot.matrixRect(0)->axis(QCPAxis::atBottom)->ticker().dynamicCast<QCPAxisTickerText>()->ticks().value(4),
            QStringLiteral("4\n1.00×–1.41×"));
    }

    void valueTicksNeverCrowd_data()
    {
        QTest::addColumn<int>("height");
        QTest::newRow("short dock") << 300;
        QTest::newRow("normal dock") << 420;
        QTest::newRow("tall dock") << 900;
    }

    void valueTicksNeverCrowd()
    {
        QFETCH(int, height);
        ReliabilityPlot plot;
        plot.setInput(input(3000, 6, 2));
        showAt(plot, QSize(1000, height));
        const int line = QFontMetrics(plot.font()).height();
        for (QCPAxisRect *rect : plot.plot()->axisRects()) {
            QCPAxis *axis = rect->axis(QCPAxis::atLeft);
            const QVector<double> ticks = axis->tickVector();
            QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(ticks.size())));
            for (int i = 1; i < ticks.size(); ++i) {
                const double gap = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
                QVERIFY2(gap >= line,
                    qPrintable(QStringLiteral("%1 px between tick labels %2 px tall at height %3")
                                   .arg(gap)
                                   .arg(line)
                                   .arg(height)));
            }
        }
    }

    void hoverNamesTheCurveUnderThePointer()
    {
        BudgetCurvePlot plot;
        plot.setShowProblems(true);
        plot.setInput(input(600, 5, 3));
        showAt(plot, QSize(1000, 600));
        const QList<QCPGraph *> problems = plot.problemCurves(0);
        QCOMPARE(problems.size(), 5);
        // A point of a per-problem curve that no other curve passes within a few pixels of.
        bool found = false;
        for (QCPGraph *graph : problems) {
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd() && !found; ++it) {
                const QPoint pos(int(std::lround(graph->keyAxis()->coordToPixel(it->key))),
                    int(std::lround(graph->valueAxis()->coordToPixel(it->value))));
                const QString text = plot.hoverText(pos);
                if (!text.startsWith(graph->name()))
                    continue; // another curve passes nearer here
                found = true;
                QVERIFY(graph->name().startsWith(QStringLiteral("problem_")));
                QVERIFY2(text.contains(QStringLiteral("fraction of each pool measured")), qPrintable(text));
                QVERIFY2(text.contains(QStringLiteral("best found ÷ pool best")), qPrintable(text));
            }
            if (found)
                break;
        }
        QVERIFY2(found, "some point of a per-problem curve names it when hovered");
        QVERIFY(plot.hoverText(QPoint(2, 2)).isEmpty()); // off the axes: nothing
        const QCPGraph *pooled = plot.pooledCurve(0);
        const auto last = pooled->data()->constEnd() - 1;
        const QPoint end(int(std::lround(pooled->keyAxis()->coordToPixel(last->key))) - 1,
            int(std::lround(pooled->valueAxis()->coordToPixel(last->value))));
        QVERIFY(!plot.hoverText(end).isEmpty());
    }

    // The bins' speedup ranges under a forecast's bars: in a narrow plot (the Lessons dock's reveal) each range goes on
    // two lines, so no line of a label is wider than the space between two bars; a wide plot keeps them on one line.
    void distributionRangesNeverRunTogether_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("stacked");
        QTest::newRow("reveal in a dock") << 460 << true;
        QTest::newRow("wide") << 1400 << false;
    }
    void distributionRangesNeverRunTogether()
    {
        QFETCH(int, width);
        QFETCH(bool, stacked);
        DistributionPlot plot;
        plot.setDistribution(bins::Distribution {0, 0, 0, 0.7, 0.3, 0, 0, 0}, 4, 4, QStringLiteral("measured 1.00×"));
        showAt(plot, QSize(width, 240));
        QCPAxis *x = plot.plot()->xAxis;
        const QFontMetrics metrics(x->tickLabelFont());
        const double between = x->coordToPixel(2) - x->coordToPixel(1);
        const auto ticks = x->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
        QCOMPARE(ticks.size(), bins::kBinCount);
        for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
            for (const QString &line : it.value().split(QLatin1Char('\n')))
                QVERIFY2(metrics.horizontalAdvance(line) < between, qPrintable(line));
        }
        QCOMPARE(ticks.value(4), stacked ? QStringLiteral("4\n1.00–\n1.41×") : QStringLiteral("4\n1.00–1.41×"));
    }

    void defaultExportName_data()
    {
        QTest::addColumn<QString>("forecaster");
        QTest::addColumn<QString>("plot");
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("expected");
        QTest::newRow("cost model") << QStringLiteral("Cost model (held-out operations)")
                                    << QStringLiteral("Confusion matrix") << int(PlotWidget::ExportFormat::Png)
                                    << QStringLiteral("cost-model-held-out-operations-confusion-matrix-2026-03-02.png");
        QTest::newRow("slashes and colons")
            << QStringLiteral("qwen2.5/coder:7b") << QStringLiteral("Reliability diagram")
            << int(PlotWidget::ExportFormat::Svg)
            << QStringLiteral("qwen2.5-coder-7b-reliability-diagram-2026-03-02.svg");
        QTest::newRow("two forecasters") << QStringLiteral("gemini3_flash vs gpt-oss-20b")
                                         << QStringLiteral("Risk–coverage") << int(PlotWidget::ExportFormat::Pdf)
                                         << QStringLiteral("gemini3_flash-vs-gpt-oss-20b-risk-coverage-2026-03-02.pdf");
        QTest::newRow("no forecaster") << QString() << QStringLiteral("Ranking utility")
                                       << int(PlotWidget::ExportFormat::Png)
                                       << QStringLiteral("ranking-utility-2026-03-02.png");
        QTest::newRow("never hidden") << QStringLiteral("..hidden") << QStringLiteral("Confusion matrix")
                                      << int(PlotWidget::ExportFormat::Png)
                                      << QStringLiteral("hidden-confusion-matrix-2026-03-02.png");
    }

    void defaultExportName()
    {
        QFETCH(QString, forecaster);
        QFETCH(QString, plot);
        QFETCH(int, format);
        QFETCH(QString, expected);
        QCOMPARE(PlotWidget::defaultExportName(forecaster, plot, QDate(2026, 3, 2), PlotWidget::ExportFormat(format)),
            expected);
    }

    void exportNameOfAShownPlot()
    {
        ConfusionPlot plot;
        plot.setInput(input(100, 2, 4));
        QCOMPARE(plot.defaultExportName(PlotWidget::ExportFormat::Svg),
            QStringLiteral("cost-model-held-out-operations-confusion-matrix-%1.svg")
                .arg(QDate::currentDate().toString(Qt::ISODate)));
    }

    void contributionBars_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("largest");
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("width");
        // A 206-pixel cell from x = 0: centre 103, half-width less the margin 100.
        QTest::newRow("largest, toward") << 0.8 << 0.8 << 103.0 << 100.0;
        QTest::newRow("half, toward") << 0.4 << 0.8 << 103.0 << 50.0;
        QTest::newRow("largest, away") << -0.8 << 0.8 << 3.0 << 100.0;
        QTest::newRow("quarter, away") << -0.2 << 0.8 << 78.0 << 25.0;
        QTest::newRow("zero") << 0.0 << 0.8 << 0.0 << 0.0;
        QTest::newRow("nothing shown") << 0.3 << 0.0 << 0.0 << 0.0;
    }

    void contributionBars()
    {
        QFETCH(double, value);
        QFETCH(double, largest);
        QFETCH(double, left);
        QFETCH(double, width);
        const QRectF bar = ContributionDelegate::barRect(QRectF(0, 0, 206, 20), value, largest);
        QCOMPARE(bar.left(), left);
        QCOMPARE(bar.width(), width);
    }

    void contributionBarsAreDrawn()
    {
        QStandardItemModel model(2, 1);
        model.setData(model.index(0, 0), QStringLiteral("+0.40"));
        model.setData(model.index(0, 0), 0.4, ExplanationModel::SortRole);
        model.setData(model.index(1, 0), QStringLiteral("-0.20"));
        model.setData(model.index(1, 0), -0.2, ExplanationModel::SortRole);
        QTableView view;
        view.setModel(&model);
        view.setSelectionMode(QAbstractItemView::NoSelection); // no highlight of the bar's hue under the test
        view.setFocusPolicy(Qt::NoFocus);
        auto *delegate = new ContributionDelegate(ExplanationModel::SortRole, &view);
        view.setItemDelegateForColumn(0, delegate);
        view.resize(400, 200);
        view.setColumnWidth(0, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.viewport()->grab().toImage();
        const auto barPixels = [&](int row, bool rightOfCentre) {
            const QRect cell = view.visualRect(model.index(row, 0));
            const int y = cell.center().y();
            const QColor bar = ContributionDelegate::barColor(view.palette(), row == 0);
            int n = 0;
            const int from = rightOfCentre ? cell.center().x() + 2 : cell.left() + 4;
            const int to = rightOfCentre ? cell.right() - 4 : cell.center().x() - 2;
            for (int x = from; x < to; ++x) {
                const QColor seen = image.pixelColor(x, y);
                // The bar's hue shows through its transparency; the text is black or white.
                if (seen.hslHue() >= 0 && std::abs(seen.hslHue() - bar.hslHue()) < 12 && seen.hslSaturation() > 60)
                    ++n;
            }
            return n;
        };
        QVERIFY(barPixels(0, true) > 100); // +0.40 is the largest: half the cell, right of the centre
        QCOMPARE(barPixels(0, false), 0);
        QVERIFY(barPixels(1, false) > 50); // -0.20: a quarter… half of that, left of the centre
        QCOMPARE(barPixels(1, true), 0);
        QVERIFY(delegate->sizeHint(QStyleOptionViewItem(), model.index(0, 0)).width() >= 150);
    }
};

QTEST_MAIN(TestPlotReadability)
#include "tst_plot_readability.moc"
