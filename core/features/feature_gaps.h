// Which of a kernel's launch features are unknown — the ones a kernel spec's launches and cases give and the source
// alone cannot (threads per block, blocks and threads launched, dynamic shared memory) — so that a forecast resting
// on them can say so instead of guessing silently. Pure: no I/O.
#pragma once

#include "core/domain/kernel.h"
#include "core/features/kernel_features.h"

#include <QList>
#include <QMetaType>
#include <QStringList>

namespace gpuf::features {

// The launch features of `features` that are missing for a kernel of `language` (CUDA only: Python and Triton
// kernels launch from their own code, which the source analysis reads).
QList<KernelFeature> unknownLaunchFeatures(const KernelFeatures &features, const QString &language);

struct KernelGaps
{
    RowId kernelId = 0;
    QString kernelName;
    bool hasSpec = false; // the kernel has a launch spec (parameters.spec with launches)
    QList<KernelFeature> unknown;
};

// The gaps of the two kernels of a pair (reference first); kernels without a gap are left out.
struct PairGaps
{
    QList<KernelGaps> kernels;
    bool isEmpty() const { return kernels.isEmpty(); }
};

KernelGaps kernelGaps(const Kernel &kernel, const QString &name);
PairGaps pairGaps(
    const Kernel &reference, const QString &referenceName, const Kernel &candidate, const QString &candidateName);

// "threads per block, blocks launched, …" in the catalogue's words.
QString unknownFeatureNames(const QList<KernelFeature> &unknown);

// The warning a person reads, e.g. "Forecast from unknown features: kernel 'v1' has no launch spec, so its threads
// per block, threads launched, blocks launched are unknown to the cost model. Give it launch fields (Add Kernel) to
// forecast from what it really launches." Empty when there is no gap.
QString pairGapsWarning(const PairGaps &gaps);

} // namespace gpuf::features

Q_DECLARE_METATYPE(gpuf::features::PairGaps)
