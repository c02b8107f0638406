// Tests for opening a store: creation, migrations, refusal of files that are not usable gpuf stores (left
// untouched), read-only mode, two threads writing through their own connections, and another program closing the
// store while this process holds it.
#include "core/store/problem_repo.h"
#include "core/store/schema.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"
#include "core/store/store_checks.h"
#include "tests/support/cli_run.h"

#include <QCryptographicHash>
#include <QFile>
#include <QMutex>
#include <QSemaphore>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>
#include <vector>

using namespace gpuf;

namespace {

QByteArray fileDigest(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

// Makes a plain SQLite file through a raw connection (another program's database).
void makeRawSqlite(const QString &path, const QStringList &statements)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const QString &s : statements)
            QVERIFY2(q.exec(s), qPrintable(s));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
}

RowId addProblem(Store &store, const QString &name)
{
    Problem p;
    p.name = name;
    auto id = ProblemRepo(store).insert(p);
    return id ? *id : 0;
}

} // namespace

class TestStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void createsNewStore()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("new.gpuf"));
        auto store = Store::open(path);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        QCOMPARE((*store)->schemaVersion(), store::kSchemaVersion);
        QSqlQuery q((*store)->database());
        QVERIFY(q.exec(QStringLiteral("PRAGMA application_id")) && q.next());
        QCOMPARE(q.value(0).toInt(), store::kApplicationId);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
        QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys")) && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        auto counts = (*store)->counts();
        QVERIFY(counts.ok());
        QCOMPARE(counts->kernels, 0);
    }

    void reopensExistingStore()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.gpuf"));
        {
            auto store = Store::open(path);
            QVERIFY(store.ok());
            QVERIFY(addProblem(**store, QStringLiteral("softmax")) > 0);
        }
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        QCOMPARE((*store)->counts()->problems, 1);
    }

    void emptyFileBecomesStoreOnlyWhenCreating()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("empty.gpuf"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        auto refused = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().contains(QStringLiteral("empty")));
        QVERIFY(!Store::open(path).ok()); // CreateIfMissing: a missing file, not an empty one
        auto store = Store::open(path, Store::Mode::Create);
        QVERIFY2(store.ok(), qPrintable(store.error()));
    }

    void missingFileWithExistingOnly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("nope.gpuf"));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(!store.ok());
        QVERIFY(store.error().contains(QStringLiteral("no such file")));
        QVERIFY(!QFile::exists(path));
    }

    void refusesBadFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text file") << QStringLiteral("text") << QStringLiteral("not an SQLite database");
        QTest::newRow("other program's database") << QStringLiteral("foreign") << QStringLiteral("another program");
        QTest::newRow("newer schema") << QStringLiteral("newer") << QStringLiteral("newer gpuf");
        QTest::newRow("corrupt") << QStringLiteral("corrupt") << QStringLiteral("the store is damaged");
        QTest::newRow("directory") << QStringLiteral("dir") << QStringLiteral("not an SQLite database");
    }
    void refusesBadFiles()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString path = dir.filePath(QStringLiteral("bad.gpuf"));
        if (kind == QLatin1StringView("text")) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("problem,kernel\nsoftmax,v1\n");
        } else if (kind == QLatin1StringView("foreign")) {
            makeRawSqlite(path,
                {QStringLiteral("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"),
                    QStringLiteral("INSERT INTO notes (body) VALUES ('keep me')")});
        } else if (kind == QLatin1StringView("newer")) {
            {
                auto store = Store::open(path);
                QVERIFY(store.ok());
            }
            makeRawSqlite(path, {QStringLiteral("PRAGMA user_version = 99")});
        } else if (kind == QLatin1StringView("corrupt")) {
            {
                auto store = Store::open(path);
                QVERIFY(store.ok());
                for (int i = 0; i < 200; ++i)
                    addProblem(**store, QStringLiteral("problem number %1 with a long name to fill pages").arg(i));
                QSqlQuery((*store)->database()).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
            }
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.size() > qint64(3) * 4096);
            f.seek(4096); // the b-tree page headers after the first page
            f.write(QByteArray(qsizetype(2) * 4096, '\x5a'));
        } else if (kind == QLatin1StringView("dir")) {
            QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("adir")));
            path = dir.filePath(QStringLiteral("adir"));
        }
        const QByteArray before = fileDigest(path);
        auto store = Store::open(path);
        QVERIFY(!store.ok());
        QVERIFY2(store.error().contains(expected), qPrintable(store.error()));
        QCOMPARE(fileDigest(path), before); // never modified
    }

    void readOnlyRefusesWrites()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ro.gpuf"));
        {
            auto store = Store::open(path);
            QVERIFY(store.ok());
        }
        auto store = Store::open(path, Store::Mode::ReadOnly);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        QVERIFY((*store)->isReadOnly());
        Problem p;
        p.name = QStringLiteral("x");
        auto id = ProblemRepo(**store).insert(p);
        QVERIFY(!id.ok());
        QVERIFY2(id.error().contains(QStringLiteral("readonly")) || id.error().contains(QStringLiteral("read-only")),
            qPrintable(id.error()));
    }

    void twoThreadsWriteConcurrently()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("threads.gpuf"));
        RowId searchA = 0;
        RowId searchB = 0;
        {
            auto store = Store::open(path);
            QVERIFY(store.ok());
            Search a;
            a.name = QStringLiteral("a");
            a.mode = QStringLiteral("standard");
            Search b = a;
            b.name = QStringLiteral("b");
            searchA = *SearchRepo(**store).ensure(a);
            searchB = *SearchRepo(**store).ensure(b);
        }
        constexpr int kEvents = 300;
        auto writer = [&path](RowId searchId, QString *error) {
            auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
            if (!store) {
                *error = store.error();
                return;
            }
            SearchRepo repo(**store);
            for (int i = 0; i < kEvents; ++i) {
                SearchEvent e;
                e.searchId = searchId;
                e.kind = QStringLiteral("step_started");
                e.payload = QJsonObject {{QStringLiteral("step"), i}};
                auto id = repo.append(e);
                if (!id) {
                    *error = id.error();
                    return;
                }
                if (e.sequence != i) {
                    *error = QStringLiteral("sequence %1 for event %2").arg(e.sequence).arg(i);
                    return;
                }
            }
        };
        QString errorA;
        QString errorB;
        QThread *ta = QThread::create(writer, searchA, &errorA);
        QThread *tb = QThread::create(writer, searchB, &errorB);
        ta->start();
        tb->start();
        QVERIFY(ta->wait(60000));
        QVERIFY(tb->wait(60000));
        delete ta;
        delete tb;
        QVERIFY2(errorA.isEmpty(), qPrintable(errorA));
        QVERIFY2(errorB.isEmpty(), qPrintable(errorB));
        auto store = Store::open(path);
        QVERIFY(store.ok());
        QCOMPARE((*store)->counts()->events, 2 * kEvents);
        auto events = SearchRepo(**store).events(searchB);
        QVERIFY(events.ok());
        QCOMPARE(events->size(), kEvents);
        QCOMPARE(events->last().payload.value(QStringLiteral("step")).toInt(), kEvents - 1);
    }
    // The explorer holds the store while a gpuf search in a terminal writes to it. When that program closes, SQLite
    // deletes the write-ahead log and its shared-memory index only if no other process holds the file; if this
    // process's locks had been dropped (by closing a descriptor of the file outside SQLite), they would go from
    // under its connections, whose next reads then say "the store is damaged".
    void anotherProgramKeepsTheLogOfAHeldStore()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("held.gpuf"));
        {
            auto made = Store::open(path, Store::Mode::Create);
            QVERIFY(made.ok());
            QVERIFY(addProblem(**made, QStringLiteral("softmax")) > 0);
        }
        auto held = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY2(held.ok(), qPrintable(held.error()));
        QCOMPARE((*held)->counts()->problems, 1); // a read: the connection now holds its shared lock
        // What the explorer's Reload does when an open fails: reads the file's header and structure apart.
        QVERIFY(store::damageReport(path).isEmpty());
        // Further connections of this process come and go (the views' reads).
        for (int i = 0; i < 3; ++i) {
            auto reader = Store::open(path, Store::Mode::ReadOnly, Store::Check::Header);
            QVERIFY2(reader.ok(), qPrintable(reader.error()));
        }
        const auto other = test::runGpuf({QStringLiteral("init"), path});
        QCOMPARE(other.exitCode, 0);
        QVERIFY2(QFile::exists(path + QStringLiteral("-wal")), "another program deleted the log of a held store");
        QVERIFY(QFile::exists(path + QStringLiteral("-shm")));
        QCOMPARE((*held)->counts()->problems, 1);
        QVERIFY(addProblem(**held, QStringLiteral("transpose")) > 0);
    }

    // The same when several threads open the store at the same moment (the explorer's views and its follower at
    // start): none reads the header while another's connection is already open.
    void storesOpenedAtOnceKeepTheirLocks()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("many.gpuf"));
        {
            auto made = Store::open(path, Store::Mode::Create);
            QVERIFY(made.ok());
            QVERIFY(addProblem(**made, QStringLiteral("softmax")) > 0);
        }
        constexpr int kThreads = 6;
        constexpr int kRounds = 8;
        for (int round = 0; round < kRounds; ++round) {
            QSemaphore opened;
            QSemaphore release;
            QStringList errors;
            QMutex errorsMutex;
            std::vector<std::unique_ptr<QThread>> threads;
            for (int t = 0; t < kThreads; ++t) {
                threads.emplace_back(QThread::create([&] {
                    auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
                    const auto counts = store ? (*store)->counts() : Result<StoreCounts>(Error {store.error()});
                    if (!counts) {
                        const QMutexLocker lock(&errorsMutex);
                        errors << counts.error();
                    }
                    opened.release();
                    release.acquire(); // held (on its own thread, as Qt's connections must be) until the check
                }));
                threads.back()->start();
            }
            QVERIFY(opened.tryAcquire(kThreads, 60000));
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
            const auto other = test::runGpuf({QStringLiteral("init"), path});
            const bool kept = QFile::exists(path + QStringLiteral("-wal"));
            release.release(kThreads);
            for (auto &thread : threads)
                QVERIFY(thread->wait(60000));
            QCOMPARE(other.exitCode, 0);
            QVERIFY2(kept, qPrintable(QStringLiteral("round %1: another program deleted the log").arg(round)));
        }
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
