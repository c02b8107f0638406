// ReliabilityPlot; see reliability_plot.h.
#include "widgets/calibration/reliability_plot.h"
#include "widgets/plots/plot_qcustomplot.h"

#include "core/bins/bins.h"

#include <QLocale>

#include <cmath>

namespace gpuf {

namespace {

constexpr double kBucketWidth = 1.0 / metrics::kReliabilityBuckets;

QString formatEce(double ece) { return std::isfinite(ece) ? QString::number(ece, 'f', 3) : QStringLiteral("—"); }

int bucketOf(const metrics::ScoredRow &row)
{
    if (!row.parsed || !row.predictedBin)
        return -1;
    return metrics::reliabilityBucket(bins::confidence(bins::ConfidenceScore::MaxProb, row.p, *row.predictedBin));
}

} // namespace

ReliabilityPlot::ReliabilityPlot(QWidget *parent)
    : PlotWidget(parent)
    , m_accuracyRect(plot()->axisRect())
    , m_countRect(new QCPAxisRect(plot()))
    , m_title(new QCPTextElement(plot(), QString(), QFont(font().family(), 10)))
{
    setWindowTitle(tr("Reliability diagram"));
    plot()->plotLayout()->insertRow(0);
    plot()->plotLayout()->addElement(0, 0, m_title);
    plot()->plotLayout()->addElement(2, 0, m_countRect);
    plot()->plotLayout()->setRowStretchFactor(1, 3.0);
    plot()->plotLayout()->setRowStretchFactor(2, 1.0);
    auto *margins = new QCPMarginGroup(plot());
    m_accuracyRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_countRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);

    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(0.1);
    for (QCPAxisRect *rect : {m_accuracyRect, m_countRect}) {
        rect->axis(QCPAxis::atBottom)->setRange(0.0, 1.0);
        rect->axis(QCPAxis::atBottom)->setTicker(ticker);
    }
    m_accuracyRect->axis(QCPAxis::atBottom)->setTickLabels(false);
    m_accuracyRect->axis(QCPAxis::atLeft)->setRange(0.0, 1.05);
    m_accuracyRect->axis(QCPAxis::atLeft)->setLabel(tr("accuracy"));
    m_countRect->axis(QCPAxis::atBottom)->setLabel(tr("confidence (max_prob)"));
    m_countRect->axis(QCPAxis::atLeft)->setLabel(tr("forecasts"));
    m_countRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    // The legend sits in its own row under the title: inside the axis rect it would cover low-confidence bars.
    plot()->legend->setVisible(true);
    m_accuracyRect->insetLayout()->take(plot()->legend);
    plot()->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot()->legend->setMargins(QMargins(6, 2, 6, 2));
    plot()->plotLayout()->insertRow(1);
    plot()->plotLayout()->addElement(1, 0, plot()->legend);
    plot()->plotLayout()->setRowStretchFactor(1, 0.001);

    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent *event) { m_pressPos = event->pos(); });
    connect(plot(), &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        if (event->button() == Qt::LeftButton && (event->pos() - m_pressPos).manhattanLength() <= 3)
            handleClick(event->pos());
    });
    rebuild();
}

QCPBars *ReliabilityPlot::accuracyBars(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_accuracyBars[std::size_t(index)] : nullptr;
}

QCPBars *ReliabilityPlot::countBars(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_countBars[std::size_t(index)] : nullptr;
}

QString ReliabilityPlot::title() const { return m_title->text(); }

double ReliabilityPlot::barWidth() const { return kBucketWidth * 0.84 / std::max<qsizetype>(1, input().series.size()); }

double ReliabilityPlot::barKey(int index, int bucket) const
{
    const qsizetype n = std::max<qsizetype>(1, input().series.size());
    return (bucket + 0.5) * kBucketWidth + (index - (n - 1) / 2.0) * barWidth();
}

// One forecaster's bars: accuracy per non-empty bucket (with bootstrap whiskers when the report has intervals) and
// the bucket counts below; returns the largest count.
double ReliabilityPlot::fillSeries(int k, const metrics::MetricsReport &report, QCPBars *bars, QCPBars *counts)
{
    double maxCount = 1.0;
    QVector<double> keys, accuracy, countValues, minus, plus;
    for (int b = 0; b < metrics::kReliabilityBuckets; ++b) {
        const metrics::ReliabilityBucket &bucket = report.reliability[std::size_t(b)];
        if (bucket.count == 0) // an empty bucket has no accuracy: no bar, not a zero bar
            continue;
        keys.append(barKey(k, b));
        accuracy.append(bucket.accuracy);
        countValues.append(double(bucket.count));
        maxCount = std::max(maxCount, double(bucket.count));
        const metrics::Interval ci = report.reliabilityAccuracyIntervals[std::size_t(b)];
        minus.append(std::isfinite(ci.low) ? bucket.accuracy - ci.low : qQNaN());
        plus.append(std::isfinite(ci.high) ? ci.high - bucket.accuracy : qQNaN());
    }
    bars->setData(keys, accuracy, true);
    counts->setData(keys, countValues, true);
    if (report.hasIntervals) {
        auto *whiskers = new QCPErrorBars(bars->keyAxis(), bars->valueAxis());
        whiskers->removeFromLegend();
        whiskers->setDataPlottable(bars);
        whiskers->setData(minus, plus);
        whiskers->setWhiskerWidth(6);
        whiskers->setSymbolGap(0); // bars have no symbol to leave room for
        whiskers->setPen(QPen(colors().foreground, 1.0));
    }
    return maxCount;
}

void ReliabilityPlot::rebuild()
{
    plot()->clearPlottables();
    m_accuracyBars.fill(nullptr);
    m_countBars.fill(nullptr);
    QCPAxis *confidenceAxis = m_accuracyRect->axis(QCPAxis::atBottom);
    QCPAxis *accuracyAxis = m_accuracyRect->axis(QCPAxis::atLeft);

    QCPGraph *diagonal = plot()->addGraph(confidenceAxis, accuracyAxis);
    diagonal->setData(QVector<double> {0.0, 1.0}, QVector<double> {0.0, 1.0}, true);
    diagonal->setPen(QPen(colors().muted, 1.2, Qt::DashLine));
    diagonal->setName(tr("perfect calibration"));

    QStringList lines {tr("Reliability (confidence = max_prob, %1 buckets)").arg(metrics::kReliabilityBuckets)};
    double maxCount = 1.0;
    const QLocale locale;
    for (int k = 0; k < input().series.size(); ++k) {
        const PlotSeries &series = input().series[k];
        if (!series.report)
            continue;
        const metrics::MetricsReport &report = *series.report;
        auto *bars = new QCPBars(confidenceAxis, accuracyAxis);
        auto *counts = new QCPBars(m_countRect->axis(QCPAxis::atBottom), m_countRect->axis(QCPAxis::atLeft));
        m_accuracyBars[std::size_t(k)] = bars;
        m_countBars[std::size_t(k)] = counts;
        for (QCPBars *b : {bars, counts}) {
            b->setWidth(barWidth());
            b->setPen(QPen(colors().seriesColor(k), 1.0));
            b->setBrush(colors().seriesColor(k, 150));
        }
        bars->setName(series.name);
        counts->removeFromLegend();

        maxCount = std::max(maxCount, fillSeries(k, report, bars, counts));
        lines.append(
            tr("%1: ECE %2 · %3 parsed of %4%5")
                .arg(series.name, formatEce(report.scalar(metrics::Scalar::Ece)), locale.toString(report.nParsed),
                    locale.toString(report.nTotal),
                    report.hasIntervals ? tr(" · whiskers: %1 bootstrap resamples").arg(report.bootstrapResamples)
                                        : QString()));
    }
    m_countRect->axis(QCPAxis::atLeft)->setRange(0.0, maxCount * 1.08);
    m_title->setText(lines.join(QLatin1Char('\n')));
    applyFrameColors(plot(), colors());
    plot()->legend->setBorderPen(Qt::NoPen); // a full-width row: a frame around it would read as a second plot
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

DrillDown ReliabilityPlot::bucketDrillDown(int index, int bucket) const
{
    DrillDown drill;
    if (index < 0 || index >= input().series.size() || !input().series[index].rows)
        return drill;
    const PlotSeries &series = input().series[index];
    const auto inBucket = [bucket](const metrics::ScoredRow &row) {
        return row.trueBin >= 1 && row.trueBin <= bins::kBinCount && bucketOf(row) == bucket;
    };
    drill.candidateIds = candidateIdsWhere(*series.rows, inBucket);
    drill.pairs = drillPairsWhere(series, input(), inBucket);
    drill.description = tr("max_prob %1–%2 (%3)")
                            .arg(QString::number(bucket * kBucketWidth, 'f', 1),
                                QString::number((bucket + 1) * kBucketWidth, 'f', 1), series.name);
    return drill;
}

void ReliabilityPlot::handleClick(const QPoint &pos)
{
    for (QCPAxisRect *rect : {m_accuracyRect, m_countRect}) {
        if (!rect->rect().contains(pos))
            continue;
        const double x = rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
        const int bucket = int(std::floor(x / kBucketWidth));
        if (bucket < 0 || bucket >= metrics::kReliabilityBuckets)
            return;
        // The series whose bar is nearest the click inside the bucket.
        int best = -1;
        double bestDistance = barWidth() * 0.75;
        for (int k = 0; k < input().series.size(); ++k) {
            const double distance = std::abs(barKey(k, bucket) - x);
            const bool occupied = input().series[k].report && input().series[k].report->reliability[bucket].count > 0;
            if (occupied && distance < bestDistance) {
                best = k;
                bestDistance = distance;
            }
        }
        if (best >= 0)
            drillDown(bucketDrillDown(best, bucket));
        return;
    }
}

} // namespace gpuf
