// The quiet NaN that stands for "no value" in figures (an empty bin, a pair without a known speedup).
#pragma once

#include <limits>

namespace gpuf {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace gpuf
