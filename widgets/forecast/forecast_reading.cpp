// ForecastReading; see forecast_reading.h.
#include "widgets/forecast/forecast_reading.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdlib>

namespace gpuf {
namespace {

constexpr double kEpsilon = 1e-9;
// A peak of a split forecast holds at least this much, and the bins between two peaks fall below half the smaller one.
constexpr double kPeakMass = 0.2;
constexpr double kValleyRatio = 0.5;
// A bin holding at least half the probability makes a forecast concentrated, whatever its tail.
constexpr double kMajority = 0.5;

QString percent(double p) { return QStringLiteral("%1%").arg(qRound(p * 100.0)); }

QString binName(int bin)
{
    return QCoreApplication::translate("gpuf::ForecastReading", "bin %1 — %2").arg(bin).arg(bins::label(bin));
}

double mass(const bins::Distribution &p, int first, int last)
{
    double sum = 0.0;
    for (int b = first; b <= last; ++b)
        sum += p[b - 1];
    return sum;
}

// The narrowest run of adjacent bins holding kLikelyMass; among equally narrow runs, the one holding the most.
void findLikelyRun(const bins::Distribution &p, ForecastReading &r)
{
    for (int width = 1; width <= bins::kBinCount; ++width) {
        double best = -1.0;
        for (int first = 1; first + width - 1 <= bins::kBinCount; ++first) {
            const double m = mass(p, first, first + width - 1);
            if (m + kEpsilon >= kLikelyMass && m > best) {
                best = m;
                r.firstLikelyBin = first;
                r.lastLikelyBin = first + width - 1;
                r.likelyMass = m;
            }
        }
        if (best >= 0.0)
            return;
    }
}

// The second peak of a bimodal distribution, or 0: a local maximum at least two bins from the main peak, both holding
// kPeakMass, with a valley between them below half the smaller peak.
int otherPeak(const bins::Distribution &p, int mainPeak)
{
    int found = 0;
    for (int b = 1; b <= bins::kBinCount; ++b) {
        const double v = p[b - 1];
        const bool localMax = (b == 1 || v >= p[b - 2]) && (b == bins::kBinCount || v >= p[b]);
        if (!localMax || std::abs(b - mainPeak) < 2 || v + kEpsilon < kPeakMass)
            continue;
        const int from = std::min(b, mainPeak) + 1;
        const int to = std::max(b, mainPeak) - 1;
        double valley = 1.0;
        for (int between = from; between <= to; ++between)
            valley = std::min(valley, p[between - 1]);
        if (valley < kValleyRatio * std::min(v, p[mainPeak - 1]) && (found == 0 || v > p[found - 1]))
            found = b;
    }
    return found;
}

QString headlineOf(const ForecastFigures &f, const ForecastReading &r)
{
    const bins::Distribution &p = f.p;
    QString text;
    switch (r.shape) {
    case ForecastReading::Shape::Concentrated:
        text = QCoreApplication::translate("gpuf::ForecastReading", "Bin %1 — %2: %3 on this bin, %4 within %5.")
                   .arg(r.predictedBin)
                   .arg(bins::label(r.predictedBin), percent(p[r.predictedBin - 1]), percent(r.likelyMass),
                       binSpanText(r.firstLikelyBin, r.lastLikelyBin));
        break;
    case ForecastReading::Shape::Wide:
        text = QCoreApplication::translate("gpuf::ForecastReading",
            "Uncertain: %1 of the probability is spread over %2; the most likely, %3, holds only %4.")
                   .arg(percent(r.likelyMass), binSpanText(r.firstLikelyBin, r.lastLikelyBin), binName(r.likelyBin),
                       percent(p[r.likelyBin - 1]));
        break;
    case ForecastReading::Shape::Split: {
        const int low = std::min(r.likelyBin, r.otherPeakBin);
        const int high = std::max(r.likelyBin, r.otherPeakBin);
        text = QCoreApplication::translate("gpuf::ForecastReading",
            "Split between two outcomes: %1 on %2 and %3 on %4, little in between; no single speedup describes it.")
                   .arg(percent(p[low - 1]), binName(low), percent(p[high - 1]), binName(high));
        break;
    }
    }
    if (p[r.predictedBin - 1] + kEpsilon < p[r.likelyBin - 1]) {
        text += QLatin1Char(' ')
            + QCoreApplication::translate("gpuf::ForecastReading",
                "The forecaster named bin %1 (%2), though its own probabilities favour %3 (%4).")
                  .arg(r.predictedBin)
                  .arg(percent(p[r.predictedBin - 1]), binName(r.likelyBin), percent(p[r.likelyBin - 1]));
    }
    return text;
}

QString expectedNoteOf(const ForecastFigures &f, const ForecastReading &r)
{
    if (r.expectedSpeedupBin == r.predictedBin || r.expectedSpeedupBin == 0)
        return {};
    const double there = f.p[r.expectedSpeedupBin - 1];
    switch (r.shape) {
    case ForecastReading::Shape::Split:
        return QCoreApplication::translate("gpuf::ForecastReading",
            "an average of the two peaks: it falls in bin %1, which holds only %2, not in the predicted bin %3")
            .arg(r.expectedSpeedupBin)
            .arg(percent(there))
            .arg(r.predictedBin);
    case ForecastReading::Shape::Wide:
        return QCoreApplication::translate("gpuf::ForecastReading",
            "the mean of a wide distribution: it falls in bin %1 (%2), not in the predicted bin %3")
            .arg(r.expectedSpeedupBin)
            .arg(percent(there))
            .arg(r.predictedBin);
    case ForecastReading::Shape::Concentrated:
        break;
    }
    // Concentrated, yet the mean moved: the tail on the far side pulls it (a 5.66× midpoint weighs more than 0.35×).
    const bool faster = r.expectedSpeedupBin > r.predictedBin;
    const double tail = faster ? mass(f.p, r.predictedBin + 1, bins::kBinCount) : mass(f.p, 1, r.predictedBin - 1);
    return faster ? QCoreApplication::translate("gpuf::ForecastReading",
               "pulled into bin %1 by the %2 on faster bins; the predicted bin %3 is still the likeliest")
                        .arg(r.expectedSpeedupBin)
                        .arg(percent(tail))
                        .arg(r.predictedBin)
                  : QCoreApplication::translate("gpuf::ForecastReading",
                      "pulled into bin %1 by the %2 on slower bins; the predicted bin %3 is still the likeliest")
                        .arg(r.expectedSpeedupBin)
                        .arg(percent(tail))
                        .arg(r.predictedBin);
}

} // namespace

QString binSpanText(int firstBin, int lastBin)
{
    if (firstBin == lastBin)
        return QCoreApplication::translate("gpuf::ForecastReading", "bin %1 (%2)")
            .arg(firstBin)
            .arg(bins::rangeText(firstBin));
    // Edges as bins::rangeText writes them (an edge is a bin's own bound, not a measured value).
    const auto edge = [](double value) -> QString { return QString::number(value, 'f', 2) + QStringLiteral("×"); };
    QString range;
    if (firstBin == 1 && lastBin == bins::kBinCount)
        range = QCoreApplication::translate("gpuf::ForecastReading", "any speedup");
    else if (firstBin == 1)
        range = QStringLiteral("< ") + edge(bins::upperEdge(lastBin));
    else if (lastBin == bins::kBinCount)
        range = QStringLiteral("≥ ") + edge(bins::lowerEdge(firstBin));
    else
        range = edge(bins::lowerEdge(firstBin)) + QStringLiteral("–") + edge(bins::upperEdge(lastBin));
    return QCoreApplication::translate("gpuf::ForecastReading", "bins %1–%2 (%3)")
        .arg(firstBin)
        .arg(lastBin)
        .arg(range);
}

ForecastReading readForecast(const ForecastFigures &f)
{
    ForecastReading r;
    r.predictedBin = std::clamp(f.predictedBin, 1, bins::kBinCount);
    r.likelyBin = bins::argmaxBin(f.p);
    findLikelyRun(f.p, r);
    r.otherPeakBin = otherPeak(f.p, r.likelyBin);
    r.expectedSpeedupBin = bins::binOf(f.expectedSpeedup).value_or(0);
    if (r.otherPeakBin != 0)
        r.shape = ForecastReading::Shape::Split;
    else if (r.lastLikelyBin - r.firstLikelyBin <= 2 || f.p[r.likelyBin - 1] >= kMajority)
        r.shape = ForecastReading::Shape::Concentrated;
    else
        r.shape = ForecastReading::Shape::Wide;
    r.headline = headlineOf(f, r);
    r.expectedNote = expectedNoteOf(f, r);
    return r;
}

} // namespace gpuf
