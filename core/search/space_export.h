// A recorded space of the store (a kernel family's imported sweep, or a space imported from another auto-tuner) as
// tuning results, ready for interop::writeT4: so Kernel Tuner's own tooling (its autotuning-methodology package) can
// read our spaces (docs/interop.md, "Tuning spaces").
#pragma once

#include "core/interop/tuning_results.h"

namespace gpuf {
class Store;
}

namespace gpuf::search {

// The configurations of `family` (a family name or an imported space) recorded for `problem` on `hardware` (empty:
// the GPU with most runs). Each configuration's time is the geometric mean over the problem's cases of its median, so
// its ranking is the speedup's; failures keep their status ("compile", "runtime", "correctness").
Result<interop::TuningResults> recordedTuningResults(
    Store &store, const QString &problem, const QString &family, const QString &hardware = {});

} // namespace gpuf::search
