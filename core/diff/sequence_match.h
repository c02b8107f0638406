// The one place that runs dtl: common elements of two id sequences, shared by the line and the token diff.
#pragma once

#include "core/common/cancel.h"

#include <optional>
#include <utility>
#include <vector>

namespace gpuf::diff {

// Index pairs (into a and into b), strictly increasing on both sides, of a longest common subsequence of a and b;
// std::nullopt once `cancel` is cancelled. Elements are opaque ids: callers map equal lines or tokens to equal ids.
std::optional<std::vector<std::pair<int, int>>> matchSequences(
    const std::vector<int> &a, const std::vector<int> &b, const CancelToken &cancel = {});

} // namespace gpuf::diff
