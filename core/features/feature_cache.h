// FeatureCache: kernel features kept in memory by content, so forecasting many pairs extracts each kernel once.
// The key is the source's content hash plus a digest of the launch spec (the same source launched differently is a
// different kernel for the model). A stored kernel (id ≠ 0) is found again by its id and content hash without
// rebuilding that key: the hot path of forecasting. Thread-safe; entries are immutable and shared.
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
    struct ById
    {
        QString contentHash;
        Entry entry;
    };

    mutable QReadWriteLock m_lock;
    QHash<QString, Entry> m_entries;
    QHash<RowId, ById> m_byId; // store rows are immutable: an id with the same content hash is the same kernel
};

} // namespace gpuf::features
