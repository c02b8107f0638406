// FileClaim; see file_claim.h.
#include "core/store/file_claim.h"

#include <QFileInfo>
#include <QHash>
#include <QMutex>

#include <utility>

namespace gpuf::store {
namespace {

struct Claims
{
    QMutex mutex;
    QHash<QString, int> counts; // canonical path → Stores being opened or open
};

Claims &claims()
{
    static Claims all;
    return all;
}

QString claimKey(const QString &path)
{
    const QFileInfo info(path);
    if (QString canonical = info.canonicalFilePath(); !canonical.isEmpty())
        return canonical;
    // Not there yet: named as the file made there will be, so that later claims of it find this one.
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    return folder.isEmpty() ? info.absoluteFilePath() : folder + QLatin1Char('/') + info.fileName();
}

} // namespace

FileClaim::FileClaim(const QString &path)
    : m_key(claimKey(path))
{
    QMutexLocker lock(&claims().mutex);
    int &count = claims().counts[m_key];
    m_heldBefore = count > 0;
    m_state = m_heldBefore ? FileState::Sqlite : inspectFile(path);
    ++count;
}

FileClaim::FileClaim(FileClaim &&other) noexcept
    : m_key(std::exchange(other.m_key, QString()))
    , m_state(other.m_state)
    , m_heldBefore(other.m_heldBefore)
{ }

FileClaim::~FileClaim()
{
    if (m_key.isEmpty())
        return;
    QMutexLocker lock(&claims().mutex);
    auto it = claims().counts.find(m_key);
    if (it != claims().counts.end() && --it.value() <= 0)
        claims().counts.erase(it);
}

} // namespace gpuf::store
