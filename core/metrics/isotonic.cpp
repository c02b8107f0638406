// Pool-adjacent-violators; see isotonic.h.
#include "core/metrics/isotonic.h"

#include <algorithm>

namespace gpuf::metrics {
namespace {

struct Block
{
    double low = 0.0;
    double high = 0.0;
    double sum = 0.0; // of outcomes
    qint64 count = 0;
    double mean() const { return sum / double(count); }
};

} // namespace

std::vector<IsotonicBlock> isotonicFit(std::span<const BinaryOutcome> observations)
{
    std::vector<BinaryOutcome> sorted(observations.begin(), observations.end());
    std::stable_sort(sorted.begin(), sorted.end(),
        [](const BinaryOutcome &a, const BinaryOutcome &b) { return a.forecast < b.forecast; });
    std::vector<Block> stack;
    for (std::size_t i = 0; i < sorted.size();) {
        Block block {sorted[i].forecast, sorted[i].forecast, 0.0, 0};
        for (; i < sorted.size() && sorted[i].forecast == block.low; ++i) {
            block.sum += sorted[i].outcome;
            ++block.count;
        }
        // Merge backwards while the new block's mean is below its predecessor's (a violation of monotonicity).
        while (!stack.empty() && stack.back().mean() >= block.mean()) {
            const Block previous = stack.back();
            stack.pop_back();
            block = {previous.low, block.high, previous.sum + block.sum, previous.count + block.count};
        }
        stack.push_back(block);
    }
    std::vector<IsotonicBlock> out;
    out.reserve(stack.size());
    for (const Block &b : stack)
        out.push_back({b.low, b.high, b.mean(), b.count});
    return out;
}

} // namespace gpuf::metrics
