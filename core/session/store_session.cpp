// StoreSession; see store_session.h.
#include "core/session/store_session.h"

#include "core/store/store.h"
#include "core/store/store_checks.h"

#include <QTimer>

namespace gpuf {
StoreSession::StoreSession(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<gpuf::StoreSnapshot>();
    qRegisterMetaType<gpuf::StoreChange>();
}

// The read jobs are cancelled and waited for (their tokens make that short) before the members go.
StoreSession::~StoreSession()
{
    for (QFuture<void> &write : m_writes)
        write.waitForFinished();
    cancelAllReads();
    m_reads.clear();
    m_retired.clear();
}

void StoreSession::open(const QString &path)
{
    Q_EMIT opening(path);
    load(path, false);
}

void StoreSession::create(const QString &path)
{
    Q_EMIT opening(path);
    load(path, true);
}

void StoreSession::refresh()
{
    if (isOpen())
        announce(StoreChange::of(StoreChange::Kind::Reload));
}

void StoreSession::close()
{
    m_openJob.cancel();
    m_statisticsJob.cancel();
    if (m_statisticsTimer)
        m_statisticsTimer->stop();
    cancelAllReads();
    m_heldChanges.clear(); // they were about the store that goes
    m_snapshot = {};
    Q_EMIT closed();
}

void StoreSession::load(const QString &path, bool create)
{
    beginWork(tr("Opening %1").arg(path));
    const bool wasRunning = m_openJob.isRunning();
    m_openJob.start(
        [path, create](const CancelToken &) -> Result<OpenResult> {
            const Store::Mode mode = create       ? Store::Mode::Create
                : store::onReadOnlyLocation(path) ? Store::Mode::ReadOnly
                                                  : Store::Mode::CreateIfMissing;
            auto store = Store::open(path, mode, Store::Check::Full);
            if (!store)
                return OpenResult {path, {}, store.error(), store::damageReport(path)};
            auto stats = storeStatistics(**store);
            if (!stats)
                return Error {stats.error()};
            return OpenResult {path, StoreSnapshot {path, *stats}, {}, {}};
        },
        [this, path](Result<OpenResult> result) {
            endWork();
            if (!result) {
                Q_EMIT openFailed(path, result.error(), QString());
                return;
            }
            if (!result->failure.isEmpty()) {
                Q_EMIT openFailed(path, result->failure, result->details);
                return;
            }
            // Reads of the store before, and changes held for it, do not belong to this one.
            m_statisticsJob.cancel();
            if (m_statisticsTimer)
                m_statisticsTimer->stop();
            cancelAllReads();
            m_heldChanges.clear();
            m_snapshot = result->snapshot;
            Q_EMIT opened(m_snapshot);
        });
    if (wasRunning)
        endWork(); // the replaced open reports nothing, so its work ends here
}

void StoreSession::announce(const StoreChange &change)
{
    if (!isOpen())
        return;
    const auto kind = change.kind;
    if (kind == StoreChange::Kind::Removed || kind == StoreChange::Kind::Restored) {
        emitChange(change); // a deletion and its undo go out in order, at once
        return;
    }
    const int key = static_cast<int>(kind);
    QTimer *&timer = m_changeTimers[key];
    if (!timer) {
        timer = new QTimer(this);
        timer->setSingleShot(true);
        timer->setInterval(kChangeIntervalMs);
        connect(timer, &QTimer::timeout, this, [this, key, timer]() {
            if (!m_heldChanges.contains(key))
                return; // nothing arrived during the interval
            const StoreChange change = m_heldChanges.take(key);
            timer->start(); // the next interval holds what comes after this one
            emitChange(change);
        });
    }
    if (timer->isActive()) {
        auto held = m_heldChanges.find(key);
        if (held == m_heldChanges.end())
            m_heldChanges.insert(key, change);
        else
            held->unite(change);
        return;
    }
    timer->start();
    emitChange(change);
}

void StoreSession::announceMeasurements(const QList<RowId> &measurementIds, const QList<RowId> &kernelIds)
{
    Q_UNUSED(measurementIds)
    announce(StoreChange::of(StoreChange::Kind::Measurements, kernelIds));
}

void StoreSession::flushChanges()
{
    const auto held = std::exchange(m_heldChanges, {});
    for (const StoreChange &change : held)
        emitChange(change);
}

void StoreSession::emitChange(const StoreChange &change)
{
    Q_EMIT changed(change);
    // The counts are read once the views' own reads of the change had their turn: on two cores a statistics query
    // over a large store would otherwise share the CPU with the patch of the row the user is waiting for.
    if (!m_statisticsTimer) {
        m_statisticsTimer = new QTimer(this);
        m_statisticsTimer->setSingleShot(true);
        m_statisticsTimer->setInterval(kChangeIntervalMs);
        connect(m_statisticsTimer, &QTimer::timeout, this, &StoreSession::readStatistics);
    }
    if (!m_statisticsTimer->isActive())
        m_statisticsTimer->start();
}

void StoreSession::readStatistics()
{
    m_statisticsJob.start(
        [path = m_snapshot.path](const CancelToken &) -> Result<StoreStatistics> {
            auto store = openReadConnection(path);
            if (!store)
                return store.failure();
            return storeStatistics(**store);
        },
        [this](Result<StoreStatistics> stats) {
            if (!stats)
                return; // the counts stay as they were; the next change reads them again
            m_snapshot.statistics = *stats;
            Q_EMIT snapshotChanged(m_snapshot);
        });
}

Result<std::unique_ptr<Store>> openReadConnection(const QString &path)
{
    return Store::open(path, Store::Mode::ReadOnly, Store::Check::Header);
}

Result<std::unique_ptr<Store>> openWriteConnection(const QString &path)
{
    return Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
}

void StoreSession::cancelReads(QObject *context)
{
    for (auto it = m_reads.begin(); it != m_reads.end();) {
        if (it->first.first == context) {
            retire(std::move(it->second));
            it = m_reads.erase(it);
        } else {
            ++it;
        }
    }
    updateReading();
}

void StoreSession::cancelAllReads()
{
    for (auto &[key, slot] : m_reads)
        retire(std::move(slot));
    m_reads.clear();
    updateReading();
}

void StoreSession::retire(std::unique_ptr<ReadSlot> slot)
{
    slot->cancel();
    std::erase_if(m_retired, [](const std::unique_ptr<ReadSlot> &s) { return !s->hasUnfinishedWork(); });
    if (slot->hasUnfinishedWork())
        m_retired.push_back(std::move(slot)); // destroying it now would wait for it on this thread
}

void StoreSession::updateReading()
{
    bool reading = false;
    for (const auto &[key, slot] : m_reads)
        reading = reading || slot->isRunning();
    if (reading == m_reading)
        return;
    m_reading = reading;
    Q_EMIT readingChanged(reading);
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

void StoreSession::reportOpenFailure(const QString &path, const QString &message, const QString &details)
{
    Q_EMIT openFailed(path, message, details);
}

} // namespace gpuf
