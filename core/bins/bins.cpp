// Speedup bins and distribution scores; see bins.h.
#include "core/bins/bins.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuf::bins {
namespace {

constexpr std::array<const char *, kBinCount> kKeys {"severe_slowdown", "significant_slowdown", "moderate_slowdown",
    "minor_slowdown", "minor_speedup", "significant_speedup", "high_speedup", "extreme_speedup"};

// Human labels follow the ground-truth geometry (bin 4 is [1, 1.41): a slight speedup). The tool-schema keys
// above keep the authors' names, whose table was shifted by one bin against the labels (paper-facts §1).
constexpr std::array<const char *, kBinCount> kLabels {QT_TRANSLATE_NOOP("gpuf::bins", "severe slowdown"),
    QT_TRANSLATE_NOOP("gpuf::bins", "significant slowdown"), QT_TRANSLATE_NOOP("gpuf::bins", "slight slowdown"),
    QT_TRANSLATE_NOOP("gpuf::bins", "slight speedup"), QT_TRANSLATE_NOOP("gpuf::bins", "moderate speedup"),
    QT_TRANSLATE_NOOP("gpuf::bins", "significant speedup"), QT_TRANSLATE_NOOP("gpuf::bins", "high speedup"),
    QT_TRANSLATE_NOOP("gpuf::bins", "extreme speedup")};

bool validBin(int bin) { return bin >= 1 && bin <= kBinCount; }

} // namespace

std::optional<int> binOf(double speedup)
{
    if (!(speedup > 0.0)) // also rejects NaN
        return std::nullopt;
    if (std::isinf(speedup))
        return kBinCount;
    const double raw = std::floor(2.0 * std::log2(speedup)) + 4.0;
    return static_cast<int>(std::clamp(raw, 1.0, double(kBinCount)));
}

double lowerEdge(int bin)
{
    if (!validBin(bin) || bin == 1)
        return 0.0;
    return std::exp2((bin - 4) / 2.0);
}

double upperEdge(int bin)
{
    if (!validBin(bin) || bin == kBinCount)
        return std::numeric_limits<double>::infinity();
    return std::exp2((bin - 3) / 2.0);
}

double midpoint(int bin)
{
    if (bin == 1)
        return std::sqrt(0.25 * 0.5);
    if (bin == kBinCount)
        return std::sqrt(4.0 * 8.0);
    if (!validBin(bin))
        return std::numeric_limits<double>::quiet_NaN();
    return std::exp2((2.0 * bin - 7.0) / 4.0);
}

QString key(int bin) { return validBin(bin) ? QString::fromLatin1(kKeys[bin - 1]) : QString(); }

QString label(int bin)
{
    return validBin(bin) ? QCoreApplication::translate("gpuf::bins", kLabels[bin - 1]) : QString();
}

QString numberedLabel(int bin) { return QStringLiteral("%1 · %2").arg(bin).arg(label(bin)); }

QString untranslatedLabel(int bin) { return validBin(bin) ? QString::fromLatin1(kLabels[bin - 1]) : QString(); }

QString rangeText(int bin)
{
    if (!validBin(bin))
        return {};
    const QString times = QStringLiteral("×");
    if (bin == 1)
        return QStringLiteral("< 0.50") + times;
    if (bin == kBinCount)
        return QStringLiteral("≥ 4.00") + times;
    return QString::number(lowerEdge(bin), 'f', 2) + times + QStringLiteral("–")
        + QString::number(upperEdge(bin), 'f', 2) + times;
}

QString speedupText(double speedup, int minDecimals)
{
    constexpr int kMaxDecimals = 5;
    const QString times = QStringLiteral("×");
    const std::optional<int> bin = binOf(speedup);
    if (!bin)
        return QStringLiteral("—");
    int decimals = std::clamp(minDecimals, 0, kMaxDecimals);
    if (std::isinf(speedup))
        return QStringLiteral("∞") + times;
    for (; decimals <= kMaxDecimals; ++decimals) {
        const QString text = QString::number(speedup, 'f', decimals);
        if (binOf(text.toDouble()) == bin)
            return text + times;
    }
    // Rounding to the nearest still crosses the edge: cut toward the value's own bin.
    const double scale = std::pow(10.0, kMaxDecimals);
    const double shown = QString::number(speedup, 'f', kMaxDecimals).toDouble();
    const double cut = shown > speedup ? std::floor(speedup * scale) / scale : std::ceil(speedup * scale) / scale;
    return QString::number(cut, 'f', kMaxDecimals) + times;
}

std::optional<double> geometricMean(std::span<const double> speedups)
{
    if (speedups.empty())
        return std::nullopt;
    double logSum = 0.0;
    for (double s : speedups) {
        if (!(s > 0.0) || !std::isfinite(s))
            return std::nullopt;
        logSum += std::log(s);
    }
    return std::exp(logSum / double(speedups.size()));
}

double expectedBin(const Distribution &p)
{
    double sum = 0.0;
    for (int b = 1; b <= kBinCount; ++b)
        sum += b * p[b - 1];
    return sum;
}

double expectedSpeedup(const Distribution &p)
{
    double sum = 0.0;
    for (int b = 1; b <= kBinCount; ++b)
        sum += p[b - 1] * midpoint(b);
    return sum;
}

std::optional<Distribution> renormalised(const Distribution &p)
{
    double sum = 0.0;
    for (double v : p)
        sum += v;
    if (!(sum > 0.0) || !std::isfinite(sum))
        return std::nullopt;
    Distribution out;
    for (int i = 0; i < kBinCount; ++i)
        out[i] = p[i] / sum;
    return out;
}

QString confidenceScoreName(ConfidenceScore score)
{
    switch (score) {
    case ConfidenceScore::MaxProb:
        return QStringLiteral("max_prob");
    case ConfidenceScore::NegEntropy:
        return QStringLiteral("neg_entropy");
    case ConfidenceScore::Top2Margin:
        return QStringLiteral("top2_margin");
    }
    return {};
}

std::optional<ConfidenceScore> confidenceScoreFromName(const QString &name)
{
    for (ConfidenceScore s : kConfidenceScores) {
        if (confidenceScoreName(s) == name)
            return s;
    }
    return std::nullopt;
}

double entropy(const Distribution &p)
{
    double h = 0.0;
    for (double v : p) {
        if (v > 0.0)
            h -= v * std::log(v);
    }
    return h;
}

double confidence(ConfidenceScore score, const Distribution &p, int predictedBin)
{
    switch (score) {
    case ConfidenceScore::MaxProb:
        return validBin(predictedBin) ? p[predictedBin - 1] : std::numeric_limits<double>::quiet_NaN();
    case ConfidenceScore::NegEntropy:
        return 1.0 - entropy(p) / std::log(double(kBinCount));
    case ConfidenceScore::Top2Margin: {
        Distribution sorted = p;
        std::partial_sort(sorted.begin(), sorted.begin() + 2, sorted.end(), std::greater<>());
        return sorted[0] - sorted[1];
    }
    }
    return std::numeric_limits<double>::quiet_NaN();
}

int argmaxBin(const Distribution &p) { return int(std::max_element(p.begin(), p.end()) - p.begin()) + 1; }

} // namespace gpuf::bins
