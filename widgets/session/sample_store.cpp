// Sample store creation; see sample_store.h.
#include "widgets/session/sample_store.h"

#include "core/common/resources.h"
#include "core/interop/interop.h"
#include "core/session/store_session.h"
#include "core/store/store.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFutureWatcher>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {
namespace {

QString bundleDigest()
{
    QFile file(sampleBundleResource());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex());
}

QString digestFile() { return sampleStorePath() + QStringLiteral(".source"); }

bool isCurrent(const QString &digest)
{
    QFile marker(digestFile());
    return QFile::exists(sampleStorePath()) && marker.open(QIODevice::ReadOnly)
        && QString::fromLatin1(marker.readAll()).trimmed() == digest;
}

// The sample store an installation ships (share/gpuf/sample/sample.gpuf, made from the same bundle at build time),
// when the digest recorded beside it says it holds this program's bundle; empty otherwise.
QString installedSampleStore(const QString &digest)
{
    const QString store = resourcePath(QStringLiteral("sample/sample.gpuf"));
    QFile marker(store + QStringLiteral(".source"));
    if (store.isEmpty() || !marker.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(marker.readAll()).trimmed() == digest ? store : QString();
}

// Copies the installed sample store, or else imports the bundle, into a fresh file next to the target and renames
// it into place.
QString buildSampleStore(const QString &digest)
{
    const QString target = sampleStorePath();
    QDir().mkpath(QFileInfo(target).absolutePath());
    const QString temporary = target + QStringLiteral(".building");
    QFile::remove(temporary);
    if (const QString installed = installedSampleStore(digest); !installed.isEmpty()) {
        if (!QFile::copy(installed, temporary))
            return QObject::tr("cannot copy the sample store from %1").arg(installed);
        // The copy keeps the installed file's read-only permissions; the user's sample store is theirs to change.
        QFile::setPermissions(temporary, QFile::permissions(temporary) | QFile::WriteOwner | QFile::ReadOwner);
    } else {
        auto store = Store::open(temporary, Store::Mode::CreateIfMissing);
        if (!store)
            return store.error();
        auto report = interop::importFiles(**store, {sampleBundleResource()});
        if (!report)
            return report.error();
    }
    for (const QString &suffix : {QStringLiteral(""), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(target + suffix);
    if (!QFile::rename(temporary, target))
        return QObject::tr("cannot move the sample store into place at %1").arg(target);
    QFile marker(digestFile());
    if (marker.open(QIODevice::WriteOnly | QIODevice::Truncate))
        marker.write(digest.toLatin1());
    return {};
}

} // namespace

QString sampleBundleResource() { return QStringLiteral(":/gpuf/sample/sample-bundle.jsonl"); }

QString sampleStorePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sample.gpuf");
}

void openSampleStore(StoreSession *session)
{
    const QString digest = bundleDigest();
    if (digest.isEmpty()) {
        session->reportOpenFailure(sampleStorePath(), QObject::tr("this build has no sample data"));
        return;
    }
    if (isCurrent(digest)) {
        session->open(sampleStorePath());
        return;
    }
    session->beginWork(QObject::tr("Building the sample store"));
    auto *watcher = new QFutureWatcher<QString>(session);
    QObject::connect(watcher, &QFutureWatcher<QString>::finished, session, [session, watcher]() {
        watcher->deleteLater();
        session->endWork();
        const QString error = watcher->result();
        if (error.isEmpty())
            session->open(sampleStorePath());
        else
            session->reportOpenFailure(sampleStorePath(), error);
    });
    watcher->setFuture(QtConcurrent::run(buildSampleStore, digest));
}

} // namespace gpuf
