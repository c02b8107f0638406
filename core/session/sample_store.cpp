// Sample store creation; see sample_store.h.
#include "core/session/sample_store.h"

#include "core/common/resources.h"
#include "core/interop/interop.h"
#include "core/mutators/shipped_sweeps.h"
#include "core/session/store_session.h"
#include "core/store/store.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace gpuf {
namespace {

// The digest of the sample data this program was built with (cmake/GpufSampleData.cmake): the embedded bundle and the
// shipped sweeps. Empty when the build had no sample bundle.
QString sampleDigest() { return QStringLiteral(GPUF_SAMPLE_DIGEST); }

QString digestFile() { return sampleStorePath() + QStringLiteral(".source"); }

bool isCurrent(const QString &digest)
{
    QFile marker(digestFile());
    return QFile::exists(sampleStorePath()) && marker.open(QIODevice::ReadOnly)
        && QString::fromLatin1(marker.readAll()).trimmed() == digest;
}

// The sample store an installation ships (share/gpuf/sample/sample.gpuf, made from the same bundle at build time),
// when the digest recorded beside it says it holds this program's sample data; empty otherwise.
QString installedSampleStore(const QString &digest)
{
    const QString store = resourcePath(QStringLiteral("sample/sample.gpuf"));
    QFile marker(store + QStringLiteral(".source"));
    if (store.isEmpty() || !marker.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(marker.readAll()).trimmed() == digest ? store : QString();
}

// Copies the installed sample store, or else imports the bundle and the shipped sweeps, into a fresh file next to the
// target and renames it into place.
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
        if (auto sweeps = families::importShippedSweeps(**store); !sweeps)
            return sweeps.error();
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

// Builds the sample store for one session in the background; a request while a build runs waits for that build (two
// builds would write the same file).
class SampleBuilder : public QObject
{
public:
    static constexpr const char *kName = "gpuf-sample-builder";

    explicit SampleBuilder(StoreSession *session)
        : QObject(session)
        , m_session(session)
    {
        setObjectName(QLatin1StringView(kName));
    }

    void build(const QString &digest)
    {
        if (m_job.isRunning())
            return;
        m_session->beginWork(QObject::tr("Building the sample store"));
        m_job.start(
            [digest](const CancelToken &) -> Result<bool> {
                const QString error = buildSampleStore(digest);
                if (!error.isEmpty())
                    return Error {error};
                return true;
            },
            [this](const Result<bool> &built) {
                m_session->endWork();
                if (built)
                    m_session->open(sampleStorePath());
                else
                    m_session->reportOpenFailure(sampleStorePath(), built.error());
            });
    }

private:
    StoreSession *m_session;
    LatestJob<bool> m_job {this};
};

} // namespace

QString sampleBundleResource() { return QStringLiteral(":/gpuf/sample/sample-bundle.jsonl"); }

QString sampleStorePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sample.gpuf");
}

void openSampleStore(StoreSession *session)
{
    const QString digest = sampleDigest();
    if (digest.isEmpty()) {
        session->reportOpenFailure(sampleStorePath(), QObject::tr("this build has no sample data"));
        return;
    }
    if (isCurrent(digest)) {
        session->open(sampleStorePath());
        return;
    }
    auto *builder = session->findChild<QObject *>(QLatin1StringView(SampleBuilder::kName), Qt::FindDirectChildrenOnly);
    static_cast<SampleBuilder *>(builder ? builder : new SampleBuilder(session))->build(digest);
}

} // namespace gpuf
