// What a forecast says about one proposal in the search's own terms (docs/search.md, "The probability policy"): a
// belief about its log2 speedup over the problem's reference, read either from the forecaster's 8-bin distribution
// (uniform in log2 within each bin) or from the learner's Gaussian, and from it the probability of beating a measured
// speedup (the parent's, the best so far) and the expected gain over it. Pure functions, no Qt GUI, no I/O.
#pragma once

#include "core/bins/bins.h"

namespace gpuf::search {

struct SpeedupBelief
{
    enum class Kind { None, Bins, Gaussian };
    Kind kind = Kind::None; // None: nothing is known (a failed forecast and no learner)
    bins::Distribution p {}; // Bins: renormalised probabilities, p[0] is bin 1
    double mean = 0.0; // Gaussian: log2 speedup
    double sd = 0.0;

    static SpeedupBelief fromBins(const bins::Distribution &probabilities); // Kind::None when they sum to ≤ 0
    static SpeedupBelief gaussian(double mean, double sd);

    bool known() const { return kind != Kind::None; }
    // E[log2 S] and its standard deviation (bins: between bins and within them).
    double meanLog2() const;
    double sdLog2() const;
    // P(log2 S > t): the probability of beating a kernel whose measured speedup is 2^t.
    double probabilityAbove(double t) const;
    // E[max(0, log2 S − t)]: the expected gain over 2^t in log2 (expected improvement).
    double expectedGain(double t) const;
};

// The bins' extent in log2 speedup: bin b covers [(b − 4)/2, (b − 3)/2) for b = 2..7; the open-ended bins are given
// the extent of their geometric midpoints (paper-facts §1): bin 1 [−2, −1) (0.25×–0.5×), bin 8 [2, 3) (4×–8×).
double binLowLog2(int bin);
double binHighLog2(int bin);

// The standard normal's distribution and density.
double normalCdf(double z);
double normalPdf(double z);

} // namespace gpuf::search
