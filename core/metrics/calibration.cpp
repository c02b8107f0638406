// Scoring rules, reliability and confusion; see calibration.h.
#include "core/metrics/calibration.h"
#include "core/common/nan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuf::metrics {

namespace { }

bins::Distribution uniformDistribution()
{
    bins::Distribution p;
    p.fill(1.0 / bins::kBinCount);
    return p;
}

double brierSum(const bins::Distribution &p, int trueBin)
{
    double sum = 0.0;
    for (int b = 1; b <= bins::kBinCount; ++b) {
        const double d = p[b - 1] - (b == trueBin ? 1.0 : 0.0);
        sum += d * d;
    }
    return sum;
}

double brierHalf(const bins::Distribution &p, int trueBin) { return 0.5 * brierSum(p, trueBin); }

double crps(const bins::Distribution &p, int trueBin)
{
    double cdf = 0.0;
    double sum = 0.0;
    for (int k = 1; k < bins::kBinCount; ++k) {
        cdf += p[k - 1];
        const double d = cdf - (k >= trueBin ? 1.0 : 0.0);
        sum += d * d;
    }
    return sum / (bins::kBinCount - 1);
}

double nll(const bins::Distribution &p, int trueBin)
{
    if (trueBin < 1 || trueBin > bins::kBinCount)
        return kNaN;
    return -std::log(std::max(p[trueBin - 1], kNllFloor));
}

int reliabilityBucket(double confidence)
{
    const double raw = std::floor(confidence * kReliabilityBuckets);
    return int(std::clamp(raw, 0.0, double(kReliabilityBuckets - 1)));
}

double expectedCalibrationError(const Reliability &buckets)
{
    qint64 total = 0;
    for (const ReliabilityBucket &b : buckets)
        total += b.count;
    if (total == 0)
        return kNaN;
    double ece = 0.0;
    for (const ReliabilityBucket &b : buckets) {
        if (b.count > 0)
            ece += double(b.count) / double(total) * std::abs(b.meanConfidence - b.accuracy);
    }
    return ece;
}

void ConfusionMatrix::add(int trueBin, int predictedBin)
{
    if (trueBin >= 1 && trueBin <= bins::kBinCount && predictedBin >= 1 && predictedBin <= bins::kBinCount)
        ++counts[trueBin - 1][predictedBin - 1];
}

qint64 ConfusionMatrix::total() const
{
    qint64 sum = 0;
    for (const auto &row : counts) {
        for (qint64 c : row)
            sum += c;
    }
    return sum;
}

qint64 ConfusionMatrix::rowTotal(int trueBin) const
{
    qint64 sum = 0;
    for (qint64 c : counts[trueBin - 1])
        sum += c;
    return sum;
}

qint64 ConfusionMatrix::columnTotal(int predictedBin) const
{
    qint64 sum = 0;
    for (const auto &row : counts)
        sum += row[predictedBin - 1];
    return sum;
}

NormalisedConfusion normalised(const ConfusionMatrix &matrix, ConfusionNormalisation how)
{
    NormalisedConfusion out {};
    const qint64 total = matrix.total();
    for (int t = 1; t <= bins::kBinCount; ++t) {
        for (int p = 1; p <= bins::kBinCount; ++p) {
            qint64 divisor = 1;
            switch (how) {
            case ConfusionNormalisation::None:
                break;
            case ConfusionNormalisation::ByTrueBin:
                divisor = matrix.rowTotal(t);
                break;
            case ConfusionNormalisation::ByPredictedBin:
                divisor = matrix.columnTotal(p);
                break;
            case ConfusionNormalisation::ByTotal:
                divisor = total;
                break;
            }
            out[t - 1][p - 1] = divisor > 0 ? double(matrix.counts[t - 1][p - 1]) / double(divisor) : kNaN;
        }
    }
    return out;
}

} // namespace gpuf::metrics
