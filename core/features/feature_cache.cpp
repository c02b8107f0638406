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
    const QString key = keyOf(kernel);
    {
        QReadLocker lock(&m_lock);
        if (const auto it = m_entries.constFind(key); it != m_entries.cend())
            return *it;
    }
    // Extract outside the lock: two threads may both extract a new kernel, and the results are equal.
    auto entry = std::make_shared<const KernelFeatures>(
        extractKernelFeatures(kernel.source, kernel.language, kernel.parameters));
    QWriteLocker lock(&m_lock);
    const auto it = m_entries.constFind(key);
    if (it != m_entries.cend())
        return *it;
    m_entries.insert(key, entry);
    return entry;
}

void FeatureCache::insert(const Kernel &kernel, KernelFeatures features)
{
    auto entry = std::make_shared<const KernelFeatures>(std::move(features));
    QWriteLocker lock(&m_lock);
    m_entries.insert(keyOf(kernel), std::move(entry));
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
}

} // namespace gpuf::features
