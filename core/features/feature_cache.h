// FeatureCache: kernel features kept in memory by content, so forecasting many pairs extracts each kernel once.
// The key is the source's content hash plus a digest of the launch spec (the same source launched differently is a
// different kernel for the model). Thread-safe; entries are immutable and shared.
#pragma once

#include "core/domain/kernel.h"
#include "core/features/kernel_features.h"

#include <QHash>
#include <QReadWriteLock>

#include <memory>

namespace gpuf::features {

class FeatureCache
{
public:
    using Entry = std::shared_ptr<const KernelFeatures>;

    // The kernel's features, extracted on first use.
    Entry features(const Kernel &kernel);
    // Replaces the entry of `kernel` (e.g. its source features with compile features added).
    void insert(const Kernel &kernel, KernelFeatures features);
    Entry find(const Kernel &kernel) const;
    qsizetype size() const;
    void clear();

    static QString keyOf(const Kernel &kernel);

private:
    mutable QReadWriteLock m_lock;
    QHash<QString, Entry> m_entries;
};

} // namespace gpuf::features
