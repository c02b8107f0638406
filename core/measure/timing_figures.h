// What a pair's stored Python timings say beyond the speedup (docs/python-problems.md): the figure the speedup was
// taken from (device or call time), the speedup by the other figure, the launch-bound cases with their host overhead
// and the noisy ones, and each case's means and medians. Read from the measurements' counters `timings`; pure.
#pragma once

#include "core/domain/measurement.h"

#include <QList>
#include <QString>

#include <optional>

namespace gpuf::measure {

struct CaseFigures
{
    QString caseName;
    double deviceMeanUs = 0.0;
    double deviceMedianUs = 0.0;
    double callMeanUs = 0.0; // 0: call time not measured
    double callMedianUs = 0.0;
    bool launchBound = false;
    double hostOverheadUs = 0.0;
    bool noisy = false;
};

struct TimingFigures
{
    QString speedupTime; // "device" | "call"; empty: the measurements carry one figure only (CUDA, older harness)
    std::optional<double> deviceSpeedup; // geometric mean over the cases both kernels have the figure of
    std::optional<double> callSpeedup;
    double launchBoundMargin = 0.0;
    QList<CaseFigures> candidate; // the candidate's newest ok measurement per case, in the order first seen
    QList<CaseFigures> baseline;

    bool known() const { return !speedupTime.isEmpty(); }
    QStringList launchBoundCases() const;
    double maxHostOverheadUs() const;
    QStringList noisyCases() const;
};

// The newest ok measurement per case of each kernel (on one hardware; the caller filters) with counters.timings.
TimingFigures timingFigures(const QList<Measurement> &candidate, const QList<Measurement> &baseline);

} // namespace gpuf::measure
