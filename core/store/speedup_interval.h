// A 95 % interval of a measured speedup from both kernels' runtime statistics, and whether it straddles a bin edge
// (issue 28). gpuf keeps each run's summary (median, relative standard error, samples), not its samples, so the
// interval is the delta method on log times: Var(ln T) ≈ RSE², the cases independent, and the speedup — the geometric
// mean over the cases both kernels measured ok, as in measured_speedup.h — has
//   ln S = (1/k) Σ (ln Tbase_i − ln Tcand_i),   Var(ln S) = (1/k²) Σ (RSEbase_i² + RSEcand_i²),
// and the interval exp(ln S ± z·√Var(ln S)), z = 1.96. Pure functions: nothing here reads a store.
#pragma once

#include <optional>
#include <span>

namespace gpuf {

// One ok case of one kernel: its median and its relative standard error (negative: not recorded).
struct CaseSpread
{
    int caseId = 0;
    double medianNs = 0.0;
    double relStdErr = -1.0;
};

struct SpeedupInterval
{
    double speedup = 0.0; // the geometric mean of the per-case speedups
    double low = 0.0;
    double high = 0.0;
    int cases = 0;
    double logStdErr = 0.0; // √Var(ln S)
    std::optional<double> straddledEdge; // the bin edge strictly inside (low, high) nearest the speedup
    bool straddles() const { return straddledEdge.has_value(); }
};

inline constexpr double kInterval95Z = 1.959963984540054;

// The interval over the cases both spans hold (each in ascending caseId); nullopt when no case is shared or a shared
// case has no recorded RSE.
std::optional<SpeedupInterval> speedupInterval(
    std::span<const CaseSpread> candidate, std::span<const CaseSpread> baseline, double z = kInterval95Z);

// The bin edge (0.5, √½, 1, √2, 2, 2√2, 4) strictly between `low` and `high` nearest to `speedup`, if any.
std::optional<double> straddledBinEdge(double low, double high, double speedup);

} // namespace gpuf
