// What the roofline view draws for one selected kernel on one GPU: the GPU's peak rates, and the kernel, its parent
// and its problem's reference, each with one roofline point per measured case (or the reason a case has none). Read
// from a store by one named read function, off the GUI thread; a plain value afterwards.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/hardware.h"
#include "core/domain/roofline.h"

#include <QList>
#include <QString>

namespace gpuf {

class Store;

struct RooflineCase
{
    QString caseName;
    std::optional<RooflinePoint> point;
    QString problem; // why there is no point (no bytes, a failed run, …); empty with a point
    bool ran = false; // the case has a run on this GPU (ok or not)
    bool noWork = false; // the run has a time, but no bytes to judge it by
};

struct RooflineSeries
{
    enum class Role { Kernel, Parent, Reference };
    Role role = Role::Kernel;
    RowId kernelId = 0;
    QString name;
    QList<RooflineCase> cases; // the newest run of each case on the GPU, in the spec's case order
    bool measured() const; // at least one case has a point
};

struct RooflineData
{
    RowId kernelId = 0;
    QString kernelName;
    QString problemName;
    Hardware hardware; // id 0: no GPU to draw against
    PeakRates peaks;
    Precision precision = Precision::Fp32;
    QList<RooflineSeries> series; // the kernel first, then its parent and the reference where they differ from it
    // Non-empty when nothing can be drawn, saying why in words for the user (no bytes_moved, no measurement, an
    // unknown GPU). Lines for the points that exist are still given.
    QString emptyReason;
    QStringList otherHardware; // GPUs the kernel was measured on besides this one

    bool hasPoints() const;
    bool hasIntensity() const; // some point has an arithmetic intensity (the kernel states FLOPs)
};

// Reads the kernel `kernelId`, its parent, its problem's reference and their measurements on the GPU named
// `hardwareName` (empty: the GPU the kernel has most measurements on), and computes every point. Kernel rows that are
// missing give an error; everything else that is missing becomes emptyReason.
Result<RooflineData> readRooflineData(
    Store &store, RowId kernelId, const QString &hardwareName, const CancelToken &cancel = {});

// One line per point for people: "v1 · 8192x2048: 0.625 FLOP/B at its ideal bytes · 2890 GB/s · 0.42 TFLOP/s · 86% of
// the memory roof (memory-bound: …)", or the case's problem.
QString rooflineLine(const RooflineSeries &series, const RooflineCase &c);
// The share of the roof and what can truly be said of the bound (RooflinePoint::Verdict): "4% of the compute roof
// (bound not known: …)" for a point right of the ridge only at its ideal bytes and far below the compute roof.
QString rooflineVerdict(const RooflinePoint &p);

} // namespace gpuf
