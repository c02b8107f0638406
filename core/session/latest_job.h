// LatestJob<T>: "latest request wins" background work. Each start() cancels the job before it, runs the new one on a
// thread pool and hands its Result<T> back on the owner's thread, unless a newer start() or cancel() came first.
#pragma once

#include "core/common/background_pool.h"
#include "core/common/cancel.h"
#include "core/common/result.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace gpuf {

// Reports how far a job is (done of total) from the job's thread. Cheap to call in a loop: at most one report is
// on its way to the receiver at a time and the receiver sees the newest value, so a job reporting a million steps
// costs the receiver a handful of updates (the throttle Heaptrack's parser uses).
class JobProgress
{
public:
    JobProgress() = default; // reports nowhere
    void operator()(qint64 done, qint64 total) const;

private:
    template<typename>
    friend class LatestJob;
    struct Channel;
    explicit JobProgress(std::shared_ptr<Channel> channel)
        : m_channel(std::move(channel))
    { }
    // Delivers a value the throttle held back (called when the job ends, before its result).
    void flush() const;

    std::shared_ptr<Channel> m_channel;
};

// What LatestJob shares with its running jobs: the newest generation and whether the owner still wants results.
struct LatestJobState
{
    std::atomic<quint64> generation {0};
    std::atomic_bool alive {true};
};

struct JobProgress::Channel : std::enable_shared_from_this<JobProgress::Channel>
{
    std::shared_ptr<LatestJobState> state;
    quint64 generation = 0;
    QPointer<QObject> context;
    std::function<void(qint64, qint64)> handler;
    int intervalMs = 0;

    QMutex mutex;
    qint64 done = 0;
    qint64 total = 0;
    bool pending = false; // a report is queued to the receiver
    bool undelivered = false; // a value arrived that no queued report will carry
    QElapsedTimer sincePost;

    void post(); // with mutex held
};

// The owner (`context`) holds its LatestJob as a member, so the job is cancelled and waited for before the owner
// goes; results and progress are handed to `context`'s thread.
template<typename T>
class LatestJob
{
public:
    explicit LatestJob(QObject *context, QThreadPool *pool = backgroundPool())
        : m_context(context)
        , m_pool(pool)
    { }
    // Cancels the job in flight and waits for it (jobs check their token, so this is short).
    ~LatestJob()
    {
        m_state->alive = false;
        m_token.cancel();
        for (QFuture<void> &future : m_futures)
            future.waitForFinished();
    }
    LatestJob(const LatestJob &) = delete;
    LatestJob &operator=(const LatestJob &) = delete;

    // Reports of later jobs go to `handler` (on the owner's thread), at most one every `intervalMs` milliseconds.
    void setProgressHandler(std::function<void(qint64 done, qint64 total)> handler, int intervalMs = 100)
    {
        m_progressHandler = std::move(handler);
        m_progressIntervalMs = intervalMs;
    }

    // Runs `job` on the pool; `job` is called as job(const CancelToken &) or job(const CancelToken &, const
    // JobProgress &) and returns Result<T> (or T). `apply(Result<T>)` runs on the owner's thread when this job is
    // still the latest one; a cancelled or replaced job's result is dropped. Returns the job's generation.
    template<typename Job, typename Apply>
    quint64 start(Job job, Apply apply)
    {
        m_token.cancel();
        m_token = CancelToken::create();
        const quint64 generation = ++m_state->generation;
        m_running = true;
        pruneFinished();

        JobProgress progress;
        if (m_progressHandler) {
            auto channel = std::make_shared<JobProgress::Channel>();
            channel->state = m_state;
            channel->generation = generation;
            channel->context = m_context;
            channel->handler = m_progressHandler;
            channel->intervalMs = m_progressIntervalMs;
            progress = JobProgress(std::move(channel));
        }
        auto deliver = [this, state = m_state, generation, apply = std::move(apply)](Result<T> result) mutable {
            if (!state->alive || state->generation != generation)
                return; // replaced, cancelled, or the owner is going
            m_running = false;
            apply(std::move(result));
        };
        m_futures.append(QtConcurrent::run(m_pool,
            [context = m_context, state = m_state, generation, token = m_token, progress, job = std::move(job),
                deliver = std::move(deliver)]() mutable {
                // Stopped or replaced before it started (or run by a waiting destructor): no work at all.
                Result<T> result = token.isCancelled() ? Result<T>(Error::cancelled()) : invoke(job, token, progress);
                if (!state->alive || state->generation != generation)
                    return; // replaced or cancelled: nothing to hand back
                progress.flush();
                QMetaObject::invokeMethod(
                    context,
                    [deliver = std::move(deliver), result = std::move(result)]() mutable {
                        deliver(std::move(result));
                    },
                    Qt::QueuedConnection);
            }));
        return generation;
    }

    // Asks the job in flight to stop; unlike cancel(), its result (usually Error::cancelled()) is still handed back.
    void stop() { m_token.cancel(); }

    // Cancels the job in flight; its result is dropped and isRunning() turns false.
    void cancel()
    {
        m_token.cancel();
        ++m_state->generation;
        m_running = false;
    }

    // True from start() until the latest job's result was applied (or cancel()).
    bool isRunning() const { return m_running; }
    quint64 generation() const { return m_state->generation; }
    // True while any started job (the latest or a replaced one) is still running on the pool.
    bool hasUnfinishedWork()
    {
        pruneFinished();
        return !m_futures.isEmpty();
    }

private:
    template<typename Job>
    static Result<T> invoke(Job &job, const CancelToken &token, const JobProgress &progress)
    {
        if constexpr (std::is_invocable_v<Job &, const CancelToken &, const JobProgress &>)
            return job(token, progress);
        else
            return job(token);
    }

    void pruneFinished()
    {
        m_futures.removeIf([](const QFuture<void> &future) { return future.isFinished(); });
    }

    QObject *m_context;
    QThreadPool *m_pool;
    std::shared_ptr<LatestJobState> m_state = std::make_shared<LatestJobState>();
    CancelToken m_token;
    QList<QFuture<void>> m_futures;
    bool m_running = false;
    std::function<void(qint64, qint64)> m_progressHandler;
    int m_progressIntervalMs = 100;
};

} // namespace gpuf
