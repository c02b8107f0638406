// StoreSession; see store_session.h.
#include "widgets/session/store_session.h"

#include "core/store/store.h"

#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {

StoreSession::StoreSession(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<gpuf::StoreSnapshot>();
    qRegisterMetaType<gpuf::StoreChange>();
}

StoreSession::~StoreSession() = default;

void StoreSession::open(const QString &path)
{
    Q_EMIT opening(path);
    load(path, true);
}

void StoreSession::refresh()
{
    if (isOpen())
        load(m_snapshot.path, false);
}

void StoreSession::announce(const StoreChange &change)
{
    Q_EMIT changed(change);
    refresh();
}

void StoreSession::close()
{
    ++m_generation; // drop any load still running
    m_snapshot = {};
    Q_EMIT closed();
}

void StoreSession::load(const QString &path, bool create)
{
    const quint64 generation = ++m_generation;
    beginWork(tr("Opening %1").arg(path));
    // One watcher per load, so every load reports exactly once even when a newer one replaces it.
    auto *watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        applyResult(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([path, create, generation]() {
        LoadResult result;
        result.generation = generation;
        result.path = path;
        auto store = Store::open(path, create ? Store::Mode::CreateIfMissing : Store::Mode::ExistingOnly,
            create ? Store::Check::Full : Store::Check::Header);
        if (!store) {
            result.error = store.error();
            return result;
        }
        auto stats = storeStatistics(**store);
        if (!stats) {
            result.error = stats.error();
            return result;
        }
        result.snapshot = StoreSnapshot {path, *stats};
        return result;
    }));
}

void StoreSession::applyResult(const LoadResult &result)
{
    endWork();
    if (result.generation != m_generation)
        return; // a newer request replaced this one
    if (!result.error.isEmpty()) {
        Q_EMIT openFailed(result.path, result.error);
        return;
    }
    m_snapshot = result.snapshot;
    Q_EMIT opened(m_snapshot);
}

void StoreSession::beginWork(const QString &what)
{
    ++m_busy;
    m_busyWhat = what;
    Q_EMIT busyChanged(true, what);
}

void StoreSession::endWork()
{
    if (m_busy > 0)
        --m_busy;
    Q_EMIT busyChanged(m_busy > 0, m_busy > 0 ? m_busyWhat : QString());
}

} // namespace gpuf
