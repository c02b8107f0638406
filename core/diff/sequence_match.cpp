// Longest common subsequence through dtl, with the cheap reductions every practical diff does first.
#include "core/diff/sequence_match.h"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <span>

namespace gpuf::diff {

namespace {

// dtl cannot be interrupted, but it asks its comparator about every element pair. Once cancelled, answering
// "equal" lets each remaining snake run straight to the end, so compose() finishes within its current round.
class CancellableCompare
{
public:
    CancellableCompare() = default;
    explicit CancellableCompare(const CancelToken &cancel)
        : m_cancel(cancel)
    { }
    bool impl(const int &a, const int &b) const { return a == b || m_cancel.isCancelled(); }

private:
    CancelToken m_cancel;
};

// Runs dtl on the elements of a and b that occur on both sides; the rest can never be part of a common subsequence,
// and leaving them out keeps dtl's O(ND) work proportional to the real, ambiguous differences.
std::optional<std::vector<std::pair<int, int>>> matchShared(
    std::span<const int> a, std::span<const int> b, const CancelToken &cancel)
{
    std::vector<std::pair<int, int>> matches;
    if (a.empty() || b.empty())
        return matches;

    const int idLimit = std::max(*std::ranges::max_element(a), *std::ranges::max_element(b)) + 1;
    std::vector<unsigned char> seen(static_cast<size_t>(idLimit), 0);
    for (const int id : a)
        seen[static_cast<size_t>(id)] |= 1;
    for (const int id : b)
        seen[static_cast<size_t>(id)] |= 2;

    std::vector<int> sharedA, sharedB, indexA, indexB;
    for (int i = 0; i < static_cast<int>(a.size()); ++i) {
        if (seen[static_cast<size_t>(a[static_cast<size_t>(i)])] == 3) {
            sharedA.push_back(a[static_cast<size_t>(i)]);
            indexA.push_back(i);
        }
    }
    for (int j = 0; j < static_cast<int>(b.size()); ++j) {
        if (seen[static_cast<size_t>(b[static_cast<size_t>(j)])] == 3) {
            sharedB.push_back(b[static_cast<size_t>(j)]);
            indexB.push_back(j);
        }
    }
    if (sharedA.empty() || cancel.isCancelled())
        return cancel.isCancelled() ? std::nullopt : std::optional(matches);

    dtl::Diff<int, std::vector<int>, CancellableCompare> differ(sharedA, sharedB, CancellableCompare(cancel));
    differ.compose();
    if (cancel.isCancelled())
        return std::nullopt;

    // dtl numbers elements from 1 and has already undone its internal swap of the shorter sequence.
    for (const auto &[id, info] : differ.getSes().getSequence()) {
        if (info.type == dtl::SES_COMMON)
            matches.emplace_back(
                indexA[static_cast<size_t>(info.beforeIdx - 1)], indexB[static_cast<size_t>(info.afterIdx - 1)]);
    }
    return matches;
}

} // namespace

std::optional<std::vector<std::pair<int, int>>> matchSequences(
    const std::vector<int> &a, const std::vector<int> &b, const CancelToken &cancel)
{
    if (cancel.isCancelled())
        return std::nullopt;

    const size_t limit = std::min(a.size(), b.size());
    size_t prefix = 0;
    while (prefix < limit && a[prefix] == b[prefix])
        ++prefix;
    size_t suffix = 0;
    while (suffix < limit - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;

    const std::span<const int> middleA(a.data() + prefix, a.size() - prefix - suffix);
    const std::span<const int> middleB(b.data() + prefix, b.size() - prefix - suffix);
    auto middle = matchShared(middleA, middleB, cancel);
    if (!middle)
        return std::nullopt;

    std::vector<std::pair<int, int>> matches;
    matches.reserve(prefix + middle->size() + suffix);
    for (size_t i = 0; i < prefix; ++i)
        matches.emplace_back(static_cast<int>(i), static_cast<int>(i));
    const int offset = static_cast<int>(prefix);
    for (const auto &[i, j] : *middle)
        matches.emplace_back(i + offset, j + offset);
    for (size_t k = suffix; k > 0; --k)
        matches.emplace_back(static_cast<int>(a.size() - k), static_cast<int>(b.size() - k));
    return matches;
}

} // namespace gpuf::diff
