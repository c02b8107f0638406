// Recalibration on a search's measured pairs; see recalibration.h.
#include "core/search/recalibration.h"

#include <algorithm>
#include <cmath>

namespace gpuf::search {

double temperatureOf(const std::vector<double> &z)
{
    double sum = 1.0;
    double n = 1.0;
    for (double v : z) {
        if (!std::isfinite(v))
            continue;
        sum += v * v;
        n += 1.0;
    }
    return std::clamp(std::sqrt(sum / n), kMinTemperature, kMaxTemperature);
}

double IsotonicMap::operator()(double raw) const
{
    if (confidence.empty())
        return raw;
    const auto it = std::lower_bound(confidence.begin(), confidence.end(), raw);
    const size_t i = it == confidence.end() ? confidence.size() - 1 : size_t(it - confidence.begin());
    return accuracy[i];
}

IsotonicMap fitIsotonic(const QList<ScoredPair> &pairsIn)
{
    QList<ScoredPair> pairs = pairsIn;
    std::stable_sort(pairs.begin(), pairs.end(),
        [](const ScoredPair &a, const ScoredPair &b) { return a.confidence < b.confidence; });
    struct Block
    {
        double upper;
        double right;
        double count;
    };
    std::vector<Block> blocks;
    for (const ScoredPair &p : std::as_const(pairs)) {
        if (!blocks.empty() && blocks.back().upper == p.confidence) { // equal confidences share a block
            blocks.back().right += p.correct ? 1.0 : 0.0;
            blocks.back().count += 1.0;
        } else {
            blocks.push_back({p.confidence, p.correct ? 1.0 : 0.0, 1.0});
        }
        while (blocks.size() > 1) {
            const Block &last = blocks.back();
            const Block &before = blocks[blocks.size() - 2];
            if (before.right / before.count <= last.right / last.count)
                break;
            const Block merged {last.upper, before.right + last.right, before.count + last.count};
            blocks.pop_back();
            blocks.back() = merged;
        }
    }
    IsotonicMap map;
    for (const Block &b : blocks) {
        map.confidence.push_back(b.upper);
        map.accuracy.push_back(b.right / b.count);
    }
    return map;
}

CertifiedTau conformalTau(const QList<ScoredPair> &pairsIn, double alpha)
{
    QList<ScoredPair> pairs = pairsIn;
    std::stable_sort(pairs.begin(), pairs.end(),
        [](const ScoredPair &a, const ScoredPair &b) { return a.confidence > b.confidence; });
    CertifiedTau out;
    out.pairs = int(pairs.size());
    int trusted = 0;
    int wrong = 0;
    for (qsizetype i = 0; i < pairs.size();) {
        const double level = pairs.at(i).confidence;
        while (i < pairs.size() && pairs.at(i).confidence == level) {
            ++trusted;
            wrong += pairs.at(i).correct ? 0 : 1;
            ++i;
        }
        const double bound = double(wrong + 1) / double(trusted + 1);
        if (bound > alpha)
            continue;
        out.tau = level;
        out.trusted = trusted;
        out.wrong = wrong;
        out.bound = bound;
    }
    return out;
}

bool driftExceeded(int trusted, int wrong, double alpha)
{
    if (trusted < kDriftMinTrusted)
        return false;
    const double n = trusted;
    return double(wrong) > alpha * n + 2.0 * std::sqrt(n * alpha * (1.0 - alpha));
}

} // namespace gpuf::search
