// FeatureCache; see feature_cache.h.
#include "core/features/feature_cache.h"

#include <QCryptographicHash>
#include <QJsonDocument>

namespace gpuf::features {

QString FeatureCache::keyOf(const Kernel &kernel)
{
    const QString hash = kernel.contentHash.isEmpty() ? contentHashOf(kernel.source) : kernel.contentHash;
    const QJsonObject spec = kernel.parameters.value(QStringLiteral("spec")).toObject();
    if (spec.isEmpty())
        return hash + u':' + kernel.language;
    // Only what feature extraction reads from the spec.
    const QJsonObject launch {{QStringLiteral("launches"), spec.value(QStringLiteral("launches"))},
        {QStringLiteral("cases"), spec.value(QStringLiteral("cases"))},
        {QStringLiteral("options"), spec.value(QStringLiteral("options"))}};
    const QByteArray digest
        = QCryptographicHash::hash(QJsonDocument(launch).toJson(QJsonDocument::Compact), QCryptographicHash::Sha1);
    return hash + u':' + kernel.language + u':' + QString::fromLatin1(digest.toHex());
}

FeatureCache::Entry FeatureCache::features(const Kernel &kernel)
{
    const bool stored = kernel.id != 0 && !kernel.contentHash.isEmpty();
    if (stored) {
        QReadLocker lock(&m_lock);
        const auto it = m_byId.constFind(kernel.id);
        if (it != m_byId.cend() && it->contentHash == kernel.contentHash)
            return it->entry;
    }
    const QString key = keyOf(kernel);
    {
        QReadLocker lock(&m_lock);
        if (const auto it = m_entries.constFind(key); it != m_entries.cend()) {
            lock.unlock();
            if (stored) {
                QWriteLocker write(&m_lock);
                m_byId.insert(kernel.id, {kernel.contentHash, *it});
            }
            return *it;
        }
    }
    // Extract outside the lock: two threads may both extract a new kernel, and the results are equal.
    auto entry = std::make_shared<const KernelFeatures>(
        extractKernelFeatures(kernel.source, kernel.language, kernel.parameters));
    QWriteLocker lock(&m_lock);
    const auto it = m_entries.constFind(key);
    if (it != m_entries.cend())
        entry = *it;
    else
        m_entries.insert(key, entry);
    if (stored)
        m_byId.insert(kernel.id, {kernel.contentHash, entry});
    return entry;
}

void FeatureCache::insert(const Kernel &kernel, KernelFeatures features)
{
    auto entry = std::make_shared<const KernelFeatures>(std::move(features));
    const QString key = keyOf(kernel);
    QWriteLocker lock(&m_lock);
    m_entries.insert(key, entry);
    // Ids that led to the replaced entry must not keep it.
    for (auto it = m_byId.begin(); it != m_byId.end();) {
        if (it->contentHash == kernel.contentHash)
            it = m_byId.erase(it);
        else
            ++it;
    }
    if (kernel.id != 0 && !kernel.contentHash.isEmpty())
        m_byId.insert(kernel.id, {kernel.contentHash, std::move(entry)});
}

FeatureCache::Entry FeatureCache::find(const Kernel &kernel) const
{
    const QString key = keyOf(kernel);
    QReadLocker lock(&m_lock);
    return m_entries.value(key);
}

qsizetype FeatureCache::size() const
{
    QReadLocker lock(&m_lock);
    return m_entries.size();
}

void FeatureCache::clear()
{
    QWriteLocker lock(&m_lock);
    m_entries.clear();
    m_byId.clear();
}

} // namespace gpuf::features
