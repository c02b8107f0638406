// StoreSession: the open store that every view observes, and the one way views read it. Opening, checking, counting
// and every view's read run off the GUI thread ("latest request wins" per view and key); writers announce what they
// changed and views patch what changed instead of reloading.
#pragma once

#include "core/common/background_pool.h"
#include "core/common/thread_priority.h"
#include "core/session/latest_job.h"
#include "core/session/store_change.h"
#include "core/store/statistics.h"
#include "core/store/store.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <map>
#include <memory>
#include <utility>
#include <vector>

class QTimer;

namespace gpuf {

// A connection to the store at `path` that only reads, for the calling thread (a connection belongs to the thread
// that opened it). The session opened and checked the file; this checks only its header.
Result<std::unique_ptr<Store>> openReadConnection(const QString &path);
// A connection that may write, for the calling thread.
Result<std::unique_ptr<Store>> openWriteConnection(const QString &path);

struct StoreSnapshot
{
    QString path;
    StoreStatistics statistics;
};

class StoreSession : public QObject
{
    Q_OBJECT

public:
    // Changes of one kind arriving closer together than this are united into one changed() signal.
    static constexpr int kChangeIntervalMs = 250;

    explicit StoreSession(QObject *parent = nullptr);
    ~StoreSession() override;

    // Opens (creating when missing) the store at `path` in the background; emits opened() or openFailed(). An empty
    // file is refused (a failed copy leaves one); a store on a read-only location is opened for reading only.
    void open(const QString &path);
    // Opens the store at `path`, making a new one when the file is missing or empty (the user asked for a new store).
    void create(const QString &path);
    // Reads the whole store again (it may have been changed by another program): announces a Reload change.
    void refresh();
    void close();

    QString path() const { return m_snapshot.path; }
    bool isOpen() const { return !m_snapshot.path.isEmpty(); }
    const StoreSnapshot &snapshot() const { return m_snapshot; }
    bool isBusy() const { return m_busy > 0; }
    // True while any view's read is running.
    bool isReading() const { return m_reading; }

    // Tells every view what a write changed. Removals and restores go out at once; other kinds go out at once too,
    // but further changes of that kind within kChangeIntervalMs are held and then sent as one (ids united). The
    // store's counts are read again shortly after (snapshotChanged()).
    void announce(const gpuf::StoreChange &change);
    // The measurement queue stored measurements of these kernels.
    void announceMeasurements(const QList<gpuf::RowId> &measurementIds, const QList<gpuf::RowId> &kernelIds);
    // Sends the changes held back now (before a read that must see them, and in tests).
    void flushChanges();

    // Reads the open store off the GUI thread: runs `fn(Store &, const CancelToken &) -> Result<T>` on the global
    // pool with a connection opened for that thread, then `apply(Result<T>)` on `context`'s thread. Per `context`
    // and `key` the latest request wins: an earlier read still running is cancelled and its result dropped. Reads
    // are cancelled when `context` is destroyed and when another store is opened or the store closed (no apply).
    // With no store open nothing runs.
    template<typename T, typename Fn, typename Apply>
    void read(const QString &key, Fn fn, QObject *context, Apply apply);
    // Cancels `context`'s reads (all keys); their results are dropped.
    void cancelReads(QObject *context);

    // Writes to the open store off the GUI thread: runs `fn(Store &) -> Result<T>` on the global pool with a
    // connection that may write, then `apply(Result<T>)` on `context`'s thread when `context` still exists. Writes are
    // never replaced or cancelled (a write cut short would lose what the user asked for); the session waits for those
    // still running when it goes. With no store open, `apply` gets an error at once.
    template<typename T, typename Fn, typename Apply>
    void write(Fn fn, QObject *context, Apply apply);

    // Background work other parts start on the store (imports, exports) so the status bar can show it.
    void beginWork(const QString &what);
    void endWork();
    // Reports a store that could not be opened (or built, as the sample store) by someone other than open().
    void reportOpenFailure(const QString &path, const QString &message, const QString &details = {});

Q_SIGNALS:
    void opening(const QString &path);
    // A store was opened (not emitted again for writes to it: see changed()).
    void opened(const gpuf::StoreSnapshot &snapshot);
    // `message` is one sentence; `details` what SQLite reported at length (a damaged file's pages), or empty.
    void openFailed(const QString &path, const QString &message, const QString &details);
    void closed();
    void busyChanged(bool busy, const QString &what);
    void readingChanged(bool reading);
    // A write changed the open store.
    void changed(const gpuf::StoreChange &change);
    // The open store's counts after a change.
    void snapshotChanged(const gpuf::StoreSnapshot &snapshot);

private:
    struct ReadSlot
    {
        virtual ~ReadSlot() = default;
        virtual void cancel() = 0;
        virtual bool isRunning() const = 0;
        virtual bool hasUnfinishedWork() = 0;
    };
    template<typename T>
    struct TypedReadSlot : ReadSlot
    {
        explicit TypedReadSlot(QObject *owner)
            : job(owner)
        { }
        void cancel() override { job.cancel(); }
        bool isRunning() const override { return job.isRunning(); }
        bool hasUnfinishedWork() override { return job.hasUnfinishedWork(); }
        LatestJob<T> job;
    };
    using ReadKey = std::pair<const QObject *, QString>;

    template<typename T>
    LatestJob<T> &readJob(QObject *context, const QString &key);
    void retire(std::unique_ptr<ReadSlot> slot);
    void cancelAllReads();
    void updateReading();
    void emitChange(const StoreChange &change);
    void load(const QString &path, bool create);
    void readStatistics();

    struct OpenResult
    {
        QString path;
        StoreSnapshot snapshot;
        QString failure; // the store could not be opened: why, in one sentence
        QString details; // and SQLite's report on the file, for "Show Details"
    };
    LatestJob<OpenResult> m_openJob {this};
    LatestJob<StoreStatistics> m_statisticsJob {this};
    StoreSnapshot m_snapshot;
    int m_busy = 0;
    QString m_busyWhat;
    bool m_reading = false;
    std::map<ReadKey, std::unique_ptr<ReadSlot>> m_reads;
    std::vector<std::unique_ptr<ReadSlot>> m_retired; // cancelled, maybe still running: kept until they end
    QSet<const QObject *> m_watched; // contexts whose destruction cancels their reads
    QHash<int, StoreChange> m_heldChanges; // by kind, while that kind's interval runs
    QHash<int, QTimer *> m_changeTimers;
    QTimer *m_statisticsTimer = nullptr; // the counts are read again a moment after a change
    QList<QFuture<void>> m_writes; // running writes, waited for on destruction
};

template<typename T>
LatestJob<T> &StoreSession::readJob(QObject *context, const QString &key)
{
    const ReadKey readKey {context, key};
    auto it = m_reads.find(readKey);
    if (it != m_reads.end()) {
        if (auto *typed = dynamic_cast<TypedReadSlot<T> *>(it->second.get()))
            return typed->job;
        retire(std::move(it->second)); // the same key read another type: the earlier read is replaced
        m_reads.erase(it);
    }
    if (!m_watched.contains(context)) {
        m_watched.insert(context);
        connect(context, &QObject::destroyed, this, [this](QObject *gone) {
            m_watched.remove(gone);
            cancelReads(gone);
        });
    }
    auto slot = std::make_unique<TypedReadSlot<T>>(this);
    LatestJob<T> &job = slot->job;
    m_reads.emplace(readKey, std::move(slot));
    return job;
}

template<typename T, typename Fn, typename Apply>
void StoreSession::read(const QString &key, Fn fn, QObject *context, Apply apply)
{
    if (!isOpen())
        return;
    LatestJob<T> &job = readJob<T>(context, key);
    job.start(
        [path = m_snapshot.path, fn = std::move(fn)](const CancelToken &cancel) mutable -> Result<T> {
            lowerCurrentThreadPriority(); // a view's read yields the core to the GUI thread
            auto store = openReadConnection(path);
            if (!store)
                return store.failure();
            if (cancel.isCancelled())
                return Error::cancelled();
            return fn(**store, cancel);
        },
        [this, guard = QPointer<QObject>(context), apply = std::move(apply)](Result<T> result) mutable {
            updateReading();
            if (guard)
                apply(std::move(result));
        });
    updateReading();
}

template<typename T, typename Fn, typename Apply>
void StoreSession::write(Fn fn, QObject *context, Apply apply)
{
    if (!isOpen()) {
        apply(Result<T>(Error {tr("No store is open.")}));
        return;
    }
    m_writes.removeIf([](const QFuture<void> &future) { return future.isFinished(); });
    m_writes.append(QtConcurrent::run(backgroundPool(),
        [this, path = m_snapshot.path, fn = std::move(fn), guard = QPointer<QObject>(context),
            apply = std::move(apply)]() mutable {
            auto store = openWriteConnection(path);
            Result<T> result = store ? fn(**store) : Result<T>(store.failure());
            QMetaObject::invokeMethod(
                this,
                [guard, apply = std::move(apply), result = std::move(result)]() mutable {
                    if (guard)
                        apply(std::move(result));
                },
                Qt::QueuedConnection);
        }));
}

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::StoreSnapshot)
