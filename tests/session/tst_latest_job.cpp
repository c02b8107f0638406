// Tests for core/session/latest_job.h: the latest request wins, replaced and cancelled jobs hand nothing back and see
// their token cancelled, destruction cancels and waits, progress is throttled to the newest value.
#include "core/session/latest_job.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace gpuf;

namespace {

// Spins until `token` is cancelled; what a job checking its token in a loop does.
void waitForCancel(const CancelToken &token)
{
    while (!token.isCancelled())
        QThread::yieldCurrentThread();
}

} // namespace

class TestLatestJob : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cancelToken()
    {
        const CancelToken never;
        never.cancel();
        QVERIFY(!never.isCancelled());
        QVERIFY(!never.canBeCancelled());

        const CancelToken token = CancelToken::create();
        const CancelToken copy = token;
        QVERIFY(!copy.isCancelled());
        token.cancel();
        QVERIFY(copy.isCancelled()); // copies share the flag
        QVERIFY(!CancelToken::create().isCancelled()); // a fresh one does not
    }

    void errorCodes()
    {
        const Result<int> failed = Error {QStringLiteral("disk full")};
        QVERIFY(!failed.isCancelled());
        QCOMPARE(failed.failure().code, Error::Code::Failed);
        const Result<int> cancelled = Error::cancelled();
        QVERIFY(cancelled.isCancelled());
        QVERIFY(!cancelled.error().isEmpty());
        const Status status = cancelled.failure(); // passed on with its code
        QVERIFY(status.isCancelled());
        QVERIFY(!Result<int>(3).isCancelled());
    }

    void resultIsHandedBackOnTheOwnersThread()
    {
        QObject owner;
        QThreadPool pool;
        LatestJob<int> job(&owner, &pool);
        Qt::HANDLE appliedOn = nullptr;
        std::optional<int> applied;
        job.start([](const CancelToken &) { return Result<int>(42); },
            [&](Result<int> r) {
                appliedOn = QThread::currentThreadId();
                applied = *r;
            });
        QVERIFY(job.isRunning());
        QTRY_COMPARE(applied, std::optional<int>(42));
        QCOMPARE(appliedOn, QThread::currentThreadId());
        QVERIFY(!job.isRunning());
    }

    void latestWinsAndThePreviousTokenIsCancelled()
    {
        QObject owner;
        QThreadPool pool;
        LatestJob<int> job(&owner, &pool);
        QSemaphore started;
        std::atomic_bool firstSawCancel {false};
        QList<int> applied;
        job.start(
            [&](const CancelToken &token) {
                started.release();
                waitForCancel(token);
                firstSawCancel = true;
                return Result<int>(1);
            },
            [&](Result<int> r) { applied.append(*r); });
        started.acquire(); // the first job is running
        job.start([](const CancelToken &) { return Result<int>(2); }, [&](Result<int> r) { applied.append(*r); });
        pool.waitForDone();
        QVERIFY(firstSawCancel);
        QTRY_COMPARE(applied, QList<int> {2});
        QCoreApplication::processEvents();
        QCOMPARE(applied, QList<int> {2}); // the first one's result never arrives
    }

    void aFinishedButReplacedResultIsDropped()
    {
        QObject owner;
        QThreadPool pool;
        LatestJob<QString> job(&owner, &pool);
        QStringList applied;
        job.start([](const CancelToken &) { return Result<QString>(QStringLiteral("old")); },
            [&](Result<QString> r) { applied.append(*r); });
        pool.waitForDone(); // finished, its hand-back queued but not yet delivered
        job.start([](const CancelToken &) { return Result<QString>(QStringLiteral("new")); },
            [&](Result<QString> r) { applied.append(*r); });
        pool.waitForDone();
        QTRY_COMPARE(applied, QStringList {QStringLiteral("new")});
    }

    void cancelDropsTheResult()
    {
        QObject owner;
        QThreadPool pool;
        LatestJob<int> job(&owner, &pool);
        bool applied = false;
        job.start([](const CancelToken &) { return Result<int>(1); }, [&](Result<int>) { applied = true; });
        pool.waitForDone();
        job.cancel();
        QVERIFY(!job.isRunning());
        QCoreApplication::processEvents();
        QVERIFY(!applied);
    }

    void stopHandsBackTheCancelledResult()
    {
        QObject owner;
        QThreadPool pool;
        LatestJob<int> job(&owner, &pool);
        QSemaphore started;
        std::optional<Result<int>> got;
        job.start(
            [&](const CancelToken &token) -> Result<int> {
                started.release();
                waitForCancel(token);
                return Error::cancelled();
            },
            [&](Result<int> r) { got = std::move(r); });
        started.acquire();
        job.stop();
        QTRY_VERIFY(got.has_value());
        QVERIFY(got->isCancelled());
        QVERIFY(!job.isRunning());
    }

    void errorsAndPlainValuesArrive()
    {
        QObject owner;
        LatestJob<int> job(&owner);
        std::optional<Result<int>> got;
        job.start([](const CancelToken &) { return Result<int>(Error {QStringLiteral("no such kernel")}); },
            [&](Result<int> r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->error(), QStringLiteral("no such kernel"));
        got.reset();
        job.start([](const CancelToken &) { return 7; }, [&](Result<int> r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(**got, 7);
    }

    void destructionCancelsAndWaits()
    {
        QObject owner;
        QThreadPool pool;
        QSemaphore started;
        std::atomic_bool ended {false};
        bool applied = false;
        {
            LatestJob<int> job(&owner, &pool);
            job.start(
                [&](const CancelToken &token) {
                    started.release();
                    waitForCancel(token);
                    ended = true;
                    return Result<int>(1);
                },
                [&](Result<int>) { applied = true; });
            started.acquire();
        } // the destructor cancels the job and returns only once it ended
        QVERIFY(ended);
        QCoreApplication::processEvents();
        QVERIFY(!applied);
    }

    void aJobReplacedBeforeItStartsNeverRuns()
    {
        QObject owner;
        QThreadPool pool;
        pool.setMaxThreadCount(1);
        LatestJob<int> job(&owner, &pool);
        QSemaphore started;
        QSemaphore release;
        std::atomic_int runs {0};
        // Keep the pool's one thread busy so the next two jobs wait in its queue.
        pool.start([&] {
            started.release();
            release.acquire();
        });
        started.acquire();
        job.start(
            [&](const CancelToken &) {
                ++runs;
                return Result<int>(1);
            },
            [](Result<int>) { });
        QList<int> applied;
        job.start(
            [&](const CancelToken &) {
                ++runs;
                return Result<int>(2);
            },
            [&](Result<int> r) { applied.append(*r); });
        release.release();
        pool.waitForDone();
        QCOMPARE(runs.load(), 1);
        QTRY_COMPARE(applied, QList<int> {2});
    }

    void progressIsThrottledToTheNewestValue()
    {
        QObject owner;
        QThreadPool pool;
        LatestJob<int> job(&owner, &pool);
        QList<std::pair<qint64, qint64>> reports;
        QList<QString> order;
        job.setProgressHandler([&](qint64 done, qint64 total) {
            reports.append({done, total});
            order.append(QStringLiteral("progress"));
        });
        job.start(
            [](const CancelToken &, const JobProgress &progress) {
                for (int i = 1; i <= 100000; ++i)
                    progress(i, 100000);
                return Result<int>(1);
            },
            [&](Result<int>) { order.append(QStringLiteral("result")); });
        pool.waitForDone(); // this thread handled nothing meanwhile: one report is queued, carrying the newest value
        QTRY_COMPARE(order.size(), 2);
        QCOMPARE(reports, (QList<std::pair<qint64, qint64>> {{100000, 100000}}));
        QCOMPARE(order, (QStringList {QStringLiteral("progress"), QStringLiteral("result")}));
    }

    void heldBackProgressArrivesBeforeTheResult()
    {
        QObject owner;
        QThreadPool pool;
        LatestJob<int> job(&owner, &pool);
        QList<qint64> reports;
        // An interval no test run reaches: every report after the first is held back by the throttle.
        job.setProgressHandler([&](qint64 done, qint64) { reports.append(done); }, 24 * 3600 * 1000);
        QSemaphore goOn;
        bool applied = false;
        job.start(
            [&](const CancelToken &, const JobProgress &progress) {
                progress(1, 3);
                goOn.acquire();
                progress(2, 3);
                progress(3, 3);
                return Result<int>(1);
            },
            [&](Result<int>) {
                QCOMPARE(reports, (QList<qint64> {1, 3}));
                applied = true;
            });
        QTRY_COMPARE(reports, QList<qint64> {1});
        goOn.release();
        QTRY_VERIFY(applied);
    }

    void progressOfAReplacedJobIsDropped()
    {
        QObject owner;
        QThreadPool pool;
        LatestJob<int> job(&owner, &pool);
        QList<qint64> reports;
        job.setProgressHandler([&](qint64 done, qint64) { reports.append(done); });
        job.start(
            [](const CancelToken &, const JobProgress &progress) {
                progress(5, 10);
                return Result<int>(1);
            },
            [](Result<int>) { });
        pool.waitForDone(); // its report is queued
        bool applied = false;
        job.start([](const CancelToken &) { return Result<int>(2); }, [&](Result<int>) { applied = true; });
        QTRY_VERIFY(applied);
        QVERIFY(reports.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLatestJob)
#include "tst_latest_job.moc"
