// Student answers; see student_answer.h.
#include "core/lessons/student_answer.h"

#include "core/metrics/calibration.h"

#include <QCoreApplication>

#include <cmath>

namespace gpuf::lessons {

Result<bins::Distribution> normalisedDistribution(const std::array<double, bins::kBinCount> &weights)
{
    double sum = 0.0;
    for (int b = 0; b < bins::kBinCount; ++b) {
        const double w = weights[std::size_t(b)];
        if (!std::isfinite(w) || w < 0.0)
            return Error {QCoreApplication::translate("gpuf::Lessons",
                "bin %1 has a weight of %2; weights are zero or "
                "more")
                              .arg(b + 1)
                              .arg(w)};
        sum += w;
    }
    if (sum <= 0.0)
        return Error {QCoreApplication::translate(
            "gpuf::Lessons", "every bin has zero weight: give at least one bin some probability")};
    bins::Distribution p {};
    for (std::size_t b = 0; b < p.size(); ++b)
        p[b] = weights[b] / sum;
    return p;
}

bins::Distribution pointDistribution(int bin)
{
    bins::Distribution p {};
    p[std::size_t(std::clamp(bin, 1, bins::kBinCount) - 1)] = 1.0;
    return p;
}

bins::Distribution withShare(const bins::Distribution &p, int bin, double share)
{
    const std::size_t chosen = std::size_t(std::clamp(bin, 1, bins::kBinCount) - 1);
    share = std::isfinite(share) ? std::clamp(share, 0.0, 1.0) : 0.0;
    double others = 0.0;
    for (std::size_t b = 0; b < p.size(); ++b) {
        if (b != chosen && std::isfinite(p[b]) && p[b] > 0.0)
            others += p[b];
    }
    bins::Distribution out {};
    out[chosen] = share;
    const double rest = 1.0 - share;
    for (std::size_t b = 0; b < p.size(); ++b) {
        if (b == chosen)
            continue;
        const double w = std::isfinite(p[b]) && p[b] > 0.0 ? p[b] : 0.0;
        out[b] = others > 0.0 ? rest * w / others : rest / double(bins::kBinCount - 1);
    }
    return out;
}

int answerBin(const bins::Distribution &p) { return bins::argmaxBin(p); }

StepScore scoreAnswer(const bins::Distribution &p, int predictedBin, int trueBin)
{
    StepScore s;
    s.predictedBin = predictedBin;
    s.trueBin = trueBin;
    s.offBy = std::abs(predictedBin - trueBin);
    s.brier = metrics::brierHalf(p, trueBin);
    s.logScore = -metrics::nll(p, trueBin);
    return s;
}

} // namespace gpuf::lessons
