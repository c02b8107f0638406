// Tests for core/session/store_session.h against real SQLite files: read<T> hands a store read back to its view
// (latest request wins per view and key, cancelled on another store and when the view goes), opened() means only that
// a store was opened, and writes reach views as changed() signals, united per kind.
#include "core/session/store_session.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/support/session_open.h"

#include <QFile>
#include <QFileInfo>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace gpuf;

namespace {

// A store file holding `problems` problems.
QString makeStore(const QTemporaryDir &dir, const QString &name, int problems)
{
    QString path = dir.filePath(name);
    auto store = Store::open(path);
    if (!store)
        return {};
    for (int i = 0; i < problems; ++i) {
        Problem p;
        p.name = QStringLiteral("problem %1").arg(i);
        if (!ProblemRepo(**store).insert(p))
            return {};
    }
    return path;
}

Result<qint64> countProblems(Store &store, const CancelToken &)
{
    auto problems = ProblemRepo(store).list();
    if (!problems)
        return problems.failure();
    return qint64(problems->size());
}

} // namespace

class TestStoreSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readHandsTheValueBack()
    {
        QTemporaryDir dir;
        const QString path = makeStore(dir, QStringLiteral("a.gpuf"), 3);
        QVERIFY(!path.isEmpty());
        StoreSession session;
        QVERIFY(test::openSession(session, path));
        QCOMPARE(session.path(), path);
        QObject view;
        std::optional<qint64> count;
        session.read<qint64>(QStringLiteral("count"), countProblems, &view, [&](Result<qint64> r) {
            QVERIFY2(r.ok(), qPrintable(r.error()));
            count = *r;
        });
        QVERIFY(session.isReading());
        QTRY_COMPARE(count, std::optional<qint64>(3));
        QVERIFY(!session.isReading());
    }

    // A zero-byte file (what a failed copy or a full disk leaves) is not silently made a store when opened: only
    // create() (File → New Store…) makes one of it.
    void emptyFileBecomesAStoreOnlyWhenCreated()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("copy-failed.gpuf"));
        QFile empty(path);
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        StoreSession session;
        QSignalSpy failed(&session, &StoreSession::openFailed);
        QSignalSpy opened(&session, &StoreSession::opened);
        session.open(path);
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(1).toString(),
            QStringLiteral(
                "%1 is an empty file, not a gpuf store; run gpuf init to make one (the file was not changed)")
                .arg(path));
        QCOMPARE(opened.count(), 0);
        QVERIFY(!session.isOpen());
        QCOMPARE(QFileInfo(path).size(), qint64(0));
        session.create(path);
        QTRY_COMPARE(opened.count(), 1);
        QVERIFY(session.isOpen());
        QVERIFY(QFileInfo(path).size() > 0);
    }

    void aFailedReadReportsItsError()
    {
        QTemporaryDir dir;
        StoreSession session;
        QVERIFY(test::openSession(session, makeStore(dir, QStringLiteral("a.gpuf"), 0)));
        QObject view;
        QString error;
        session.read<int>(
            QStringLiteral("k"),
            [](Store &, const CancelToken &) { return Result<int>(Error {QStringLiteral("no such kernel")}); }, &view,
            [&](const Result<int> &r) { error = r.error(); });
        QTRY_COMPARE(error, QStringLiteral("no such kernel"));
    }

    void latestReadWinsPerViewAndKey()
    {
        QTemporaryDir dir;
        StoreSession session;
        QVERIFY(test::openSession(session, makeStore(dir, QStringLiteral("a.gpuf"), 2)));
        QObject view;
        QObject otherView;
        QSemaphore started;
        std::atomic_bool firstCancelled {false};
        QList<qint64> applied;
        QList<qint64> otherApplied;
        session.read<qint64>(
            QStringLiteral("count"),
            [&](Store &, const CancelToken &cancel) -> Result<qint64> {
                started.release();
                while (!cancel.isCancelled())
                    QThread::yieldCurrentThread();
                firstCancelled = true;
                return Error::cancelled();
            },
            &view, [&](Result<qint64> r) { applied.append(r.ok() ? *r : -1); });
        started.acquire();
        // Another view's read of the same key is not affected.
        session.read<qint64>(
            QStringLiteral("count"), countProblems, &otherView, [&](Result<qint64> r) { otherApplied.append(*r); });
        QTRY_COMPARE(otherApplied, QList<qint64> {2});
        QVERIFY(!firstCancelled);
        session.read<qint64>(
            QStringLiteral("count"), countProblems, &view, [&](Result<qint64> r) { applied.append(*r); });
        QTRY_COMPARE(applied, QList<qint64> {2});
        QTRY_VERIFY(firstCancelled); // its thread may still be on its way out of the loop
    }

    void aDestroyedViewGetsNothing()
    {
        QTemporaryDir dir;
        StoreSession session;
        QVERIFY(test::openSession(session, makeStore(dir, QStringLiteral("a.gpuf"), 1)));
        auto view = std::make_unique<QObject>();
        QSemaphore started;
        std::atomic_bool cancelled {false};
        bool applied = false;
        session.read<int>(
            QStringLiteral("k"),
            [&](Store &, const CancelToken &cancel) -> Result<int> {
                started.release();
                while (!cancel.isCancelled())
                    QThread::yieldCurrentThread();
                cancelled = true;
                return 1;
            },
            view.get(), [&](const Result<int> &) { applied = true; });
        started.acquire();
        view.reset();
        QTRY_VERIFY(cancelled);
        QTRY_VERIFY(!session.isReading());
        QCoreApplication::processEvents();
        QVERIFY(!applied);
    }

    void openingAnotherStoreCancelsReads()
    {
        QTemporaryDir dir;
        StoreSession session;
        QVERIFY(test::openSession(session, makeStore(dir, QStringLiteral("a.gpuf"), 1)));
        const QString second = makeStore(dir, QStringLiteral("b.gpuf"), 4);
        QObject view;
        QSemaphore started;
        std::atomic_bool cancelled {false};
        bool applied = false;
        session.read<int>(
            QStringLiteral("k"),
            [&](Store &, const CancelToken &cancel) -> Result<int> {
                started.release();
                while (!cancel.isCancelled())
                    QThread::yieldCurrentThread();
                cancelled = true;
                return 1;
            },
            &view, [&](const Result<int> &) { applied = true; });
        started.acquire();
        QVERIFY(test::openSession(session, second));
        QTRY_VERIFY(cancelled);
        std::optional<qint64> count;
        session.read<qint64>(QStringLiteral("count"), countProblems, &view, [&](Result<qint64> r) { count = *r; });
        QTRY_COMPARE(count, std::optional<qint64>(4)); // reads now go to the second store
        QVERIFY(!applied);
    }

    void nothingRunsWithoutAStore()
    {
        StoreSession session;
        QObject view;
        bool ran = false;
        session.read<int>(
            QStringLiteral("k"),
            [&](Store &, const CancelToken &) {
                ran = true;
                return Result<int>(1);
            },
            &view, [&](const Result<int> &) { ran = true; });
        QVERIFY(!session.isReading());
        QCoreApplication::processEvents();
        QVERIFY(!ran);
    }

    void writeStoresAndHandsBack()
    {
        QTemporaryDir dir;
        StoreSession session;
        QVERIFY(test::openSession(session, makeStore(dir, QStringLiteral("a.gpuf"), 1)));
        QObject view;
        std::optional<RowId> id;
        session.write<RowId>(
            [](Store &store) {
                Problem p;
                p.name = QStringLiteral("written");
                return ProblemRepo(store).insert(p);
            },
            &view, [&](Result<RowId> r) { id = r.ok() ? *r : -1; });
        QTRY_VERIFY(id.has_value());
        QVERIFY(*id > 0);
        std::optional<qint64> count;
        session.read<qint64>(QStringLiteral("count"), countProblems, &view, [&](Result<qint64> r) { count = *r; });
        QTRY_COMPARE(count, std::optional<qint64>(2));
    }

    void writeWithoutAStoreFailsAtOnce()
    {
        StoreSession session;
        QObject view;
        QString error;
        session.write<int>(
            [](Store &) { return Result<int>(1); }, &view, [&](const Result<int> &r) { error = r.error(); });
        QVERIFY(!error.isEmpty());
    }

    void writesAnnounceChangesNotOpened()
    {
        QTemporaryDir dir;
        const QString path = makeStore(dir, QStringLiteral("a.gpuf"), 1);
        StoreSession session;
        QVERIFY(test::openSession(session, path));
        QSignalSpy opened(&session, &StoreSession::opened);
        QSignalSpy changed(&session, &StoreSession::changed);
        QSignalSpy counts(&session, &StoreSession::snapshotChanged);
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
            QVERIFY(store.ok());
            Problem p;
            p.name = QStringLiteral("added");
            QVERIFY(ProblemRepo(**store).insert(p).ok());
        }
        session.announce(StoreChange::of(StoreChange::Kind::Kernels, {7}));
        QCOMPARE(changed.count(), 1); // the first change of a kind goes out at once
        const auto change = changed.takeFirst().at(0).value<StoreChange>();
        QCOMPARE(change.kind, StoreChange::Kind::Kernels);
        QCOMPARE(change.ids, QList<RowId> {7});
        QVERIFY(counts.wait());
        QCOMPARE(counts.takeFirst().at(0).value<StoreSnapshot>().statistics.totals.problems, 2);
        session.refresh();
        QTRY_COMPARE(changed.count(), 1);
        QCOMPARE(changed.takeFirst().at(0).value<StoreChange>().kind, StoreChange::Kind::Reload);
        QCoreApplication::processEvents();
        QCOMPARE(opened.count(), 0);
    }

    void changesOfOneKindAreUnited()
    {
        QTemporaryDir dir;
        StoreSession session;
        QVERIFY(test::openSession(session, makeStore(dir, QStringLiteral("a.gpuf"), 0)));
        QSignalSpy changed(&session, &StoreSession::changed);
        session.announceMeasurements({100}, {3});
        session.announceMeasurements({101}, {5, 4});
        session.announce(StoreChange::of(StoreChange::Kind::Forecasts, {9}));
        session.announceMeasurements({102}, {3, 6});
        // At once: the first measurement and the first forecast; the rest within the interval, as one.
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.at(0).at(0).value<StoreChange>().ids, QList<RowId> {3});
        QCOMPARE(changed.at(1).at(0).value<StoreChange>().kind, StoreChange::Kind::Forecasts);
        QTRY_COMPARE(changed.count(), 3);
        const auto united = changed.at(2).at(0).value<StoreChange>();
        QCOMPARE(united.kind, StoreChange::Kind::Measurements);
        QCOMPARE(united.ids, (QList<RowId> {3, 4, 5, 6}));
    }

    void removalsGoOutAtOnceAndInOrder()
    {
        QTemporaryDir dir;
        StoreSession session;
        QVERIFY(test::openSession(session, makeStore(dir, QStringLiteral("a.gpuf"), 0)));
        QSignalSpy changed(&session, &StoreSession::changed);
        StoreChange removed;
        removed.kind = StoreChange::Kind::Removed;
        removed.rows[RowKind::Kernel] = {4};
        StoreChange restored = removed;
        restored.kind = StoreChange::Kind::Restored;
        session.announce(removed);
        session.announce(restored);
        session.announce(removed);
        QCOMPARE(changed.count(), 3);
        QCOMPARE(changed.at(1).at(0).value<StoreChange>().kind, StoreChange::Kind::Restored);
        QCOMPARE(changed.at(2).at(0).value<StoreChange>().kind, StoreChange::Kind::Removed);
    }

    void flushSendsHeldChangesNow()
    {
        QTemporaryDir dir;
        StoreSession session;
        QVERIFY(test::openSession(session, makeStore(dir, QStringLiteral("a.gpuf"), 0)));
        QSignalSpy changed(&session, &StoreSession::changed);
        session.announceMeasurements({}, {1});
        session.announceMeasurements({}, {2});
        QCOMPARE(changed.count(), 1);
        session.flushChanges();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.at(1).at(0).value<StoreChange>().ids, QList<RowId> {2});
    }

    void affectedKernels_data()
    {
        QTest::addColumn<StoreChange>("change");
        QTest::addColumn<bool>("all");
        QTest::addColumn<QList<RowId>>("kernels");
        QTest::newRow("measurements") << StoreChange::of(StoreChange::Kind::Measurements, {2, 1, 2}) << false
                                      << QList<RowId> {1, 2};
        QTest::newRow("forecasts") << StoreChange::of(StoreChange::Kind::Forecasts, {5}) << false << QList<RowId> {5};
        QTest::newRow("searches") << StoreChange::of(StoreChange::Kind::Searches, {1}, {8, 9}) << false
                                  << QList<RowId> {8, 9};
        QTest::newRow("forecasters") << StoreChange::of(StoreChange::Kind::Forecasters, {3}) << false
                                     << QList<RowId> {};
        QTest::newRow("lessons") << StoreChange::of(StoreChange::Kind::Lessons, {4}) << false << QList<RowId> {};
        QTest::newRow("import") << StoreChange::of(StoreChange::Kind::Import) << true << QList<RowId> {};
        QTest::newRow("reload") << StoreChange::of(StoreChange::Kind::Reload) << true << QList<RowId> {};
    }
    void mayAffectKernel()
    {
        const auto measured = StoreChange::of(StoreChange::Kind::Measurements, {4, 2});
        QVERIFY(measured.mayAffectKernel(2));
        QVERIFY(measured.mayAffectKernel(4));
        QVERIFY(!measured.mayAffectKernel(3));
        QVERIFY(StoreChange::of(StoreChange::Kind::Import).mayAffectKernel(3));
        QVERIFY(!StoreChange::of(StoreChange::Kind::Forecasters, {3}).mayAffectKernel(3));
    }

    void affectedKernels()
    {
        QFETCH(StoreChange, change);
        QFETCH(bool, all);
        QFETCH(QList<RowId>, kernels);
        bool gotAll = false;
        QCOMPARE(change.affectedKernels(&gotAll), kernels);
        QCOMPARE(gotAll, all);
    }
};

QTEST_GUILESS_MAIN(TestStoreSession)
#include "tst_store_session.moc"
