// KernelFeatures: the feature values of one kernel and the source lines each came from, extracted from its source
// text, its launch spec (gpuf-kernel/1, when the kernel has one) and, optionally, a compile by gpuf-measure.
// Pure: no I/O, deterministic for the same input.
#pragma once

#include "core/features/feature_catalog.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <array>
#include <limits>

namespace gpuf::features {

// 1-based inclusive line range of the original source.
struct LineSpan
{
    int first = 0;
    int last = 0;
    bool operator==(const LineSpan &) const = default;
};

inline constexpr float kMissing = std::numeric_limits<float>::quiet_NaN();
// At most this many spans are kept per feature: enough to annotate a diff, bounded for huge sources.
inline constexpr int kMaxSpansPerFeature = 24;

struct KernelFeatures
{
    std::array<float, kKernelFeatureCount> values;
    std::array<QList<LineSpan>, kKernelFeatureCount> spans;

    KernelFeatures() { values.fill(kMissing); }

    float value(KernelFeature f) const { return values[std::size_t(f)]; }
    const QList<LineSpan> &spansOf(KernelFeature f) const { return spans[std::size_t(f)]; }
    void set(KernelFeature f, double v) { values[std::size_t(f)] = float(v); }
    // Adds `amount` (a missing value counts as 0) and records the line; neighbouring lines merge into one span.
    void add(KernelFeature f, double amount, int line);
    void addSpan(KernelFeature f, int line);
    void maxWith(KernelFeature f, double v, int line);
};

// Source features (CUDA C++ or Python/Triton/PyTorch by `language`; see sourceKindOf). Source-derived features are
// 0 when absent; launch and compile features stay missing.
KernelFeatures extractSourceFeatures(const QString &source, const QString &language);

// Fills the launch features (launches, threads per block, total threads and blocks over the cases, dynamic shared
// memory, --use_fast_math) from a gpuf-kernel/1 spec: its `launches`, `cases` and `options`. A spec without
// launches leaves them as the source gave them.
void applyLaunchSpec(KernelFeatures &features, const QJsonObject &spec);

// A kernel's features from everything its row holds: source, language and parameters.spec (corpus kernels).
KernelFeatures extractKernelFeatures(const QString &source, const QString &language, const QJsonObject &parameters);

} // namespace gpuf::features
