// The words the forecast panel adds to a measured truth from Python timings (docs/python-problems.md): which figure
// the speedup is from, the speedup by the other one, the launch-bound cases with their host overhead, noisy cases; and
// each case's means beside its medians, for the tooltip.
#pragma once

#include "core/measure/timing_figures.h"

#include <QString>

namespace gpuf {

// One line; empty when the measurements carry one figure only.
QString timingNote(const measure::TimingFigures &timings);

// One line per case of the candidate (and of the baseline): device and call time, mean and median.
QString timingDetails(const measure::TimingFigures &timings);

} // namespace gpuf
