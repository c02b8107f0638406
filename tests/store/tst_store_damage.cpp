// Tests for damaged stores (issue 26): a store missing a table or a column, an empty file and a damaged page are each
// refused with one sentence, and the file is never changed (tst_cli_damaged_store: read-only mounts and full disks).
#include "core/store/problem_repo.h"
#include "core/store/schema.h"
#include "core/store/store.h"
#include "core/store/store_checks.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;

namespace {

constexpr qint64 kPage = 4096; // SQLite's default page size

QByteArray fileDigest(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

// Runs `statements` on the file through a raw connection, as another program (or a careless hand) would.
void runRaw(const QString &path, const QStringList &statements)
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

void makeStore(const QString &path, int problems = 0)
{
    auto store = Store::open(path, Store::Mode::Create);
    QVERIFY2(store.ok(), qPrintable(store.error()));
    for (int i = 0; i < problems; ++i) {
        Problem p;
        p.name = QStringLiteral("problem number %1 with a long name to fill pages").arg(i);
        QVERIFY(ProblemRepo(**store).insert(p).ok());
    }
    QSqlQuery((*store)->database()).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
}

} // namespace

class TestStoreDamage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void missingPartIsRefused_data()
    {
        QTest::addColumn<QString>("statement");
        QTest::addColumn<QString>("expected");
        QTest::newRow("table") << QStringLiteral("DROP TABLE measurements")
                               << QStringLiteral("a damaged gpuf store (the table 'measurements' is missing)");
        QTest::newRow("column") << QStringLiteral("ALTER TABLE measurements DROP COLUMN counters_json")
                                << QStringLiteral("the column 'measurements.counters_json' is missing");
    }
    void missingPartIsRefused()
    {
        QFETCH(QString, statement);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("partial.gpuf"));
        makeStore(path);
        runRaw(path, {statement});
        const QByteArray before = fileDigest(path);
        for (Store::Mode mode :
            {Store::Mode::Create, Store::Mode::CreateIfMissing, Store::Mode::ExistingOnly, Store::Mode::ReadOnly}) {
            for (Store::Check check : {Store::Check::Full, Store::Check::Header}) {
                auto store = Store::open(path, mode, check);
                QVERIFY(!store.ok());
                QVERIFY2(store.error().contains(expected), qPrintable(store.error()));
                QVERIFY(!store.error().contains(QLatin1Char('\n')));
            }
        }
        QCOMPARE(fileDigest(path), before);
        QCOMPARE(QFileInfo(path + QStringLiteral("-wal")).size(), qint64(0)); // nothing waits to be written either
    }

    void emptyFileIsRefusedUnlessCreating()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("empty.gpuf"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        for (Store::Mode mode : {Store::Mode::CreateIfMissing, Store::Mode::ExistingOnly, Store::Mode::ReadOnly}) {
            auto refused = Store::open(path, mode);
            QVERIFY(!refused.ok());
            QVERIFY2(refused.error().contains(
                         path + QStringLiteral(" is an empty file, not a gpuf store; run gpuf init to make one")),
                qPrintable(refused.error()));
            QCOMPARE(QFileInfo(path).size(), qint64(0));
        }
        auto store = Store::open(path, Store::Mode::Create);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        QCOMPARE((*store)->schemaVersion(), store::kSchemaVersion);
    }

    void damagedPageIsOneSentence()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.gpuf"));
        makeStore(path, 400);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.size() > 8 * kPage);
            f.seek(3 * kPage); // pages of the problems table
            f.write(QByteArray(4 * kPage, '\x5a'));
        }
        const QByteArray before = fileDigest(path);
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(!store.ok());
        QVERIFY2(store.error().startsWith(path + QStringLiteral(": the store is damaged")), qPrintable(store.error()));
        QVERIFY2(!store.error().contains(QLatin1Char('\n')), qPrintable(store.error()));
        QVERIFY(store.error().size() < 200);
        // SQLite's own report, for those who ask: several lines.
        const QString report = store::damageReport(path);
        QVERIFY2(report.count(QLatin1Char('\n')) >= 1, qPrintable(report));
        QCOMPARE(fileDigest(path), before);
    }

    void healthyStoreHasNoDamageReport()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fine.gpuf"));
        makeStore(path, 3);
        QCOMPARE(store::damageReport(path), QString());
    }

    // A read-only mount cannot be made here as root without namespaces (tst_cli's readOnlyMount makes one): this opens
    // through the same read-only URI a store on a read-only location is opened with, and checks nothing is written
    // beside the file (no -wal or -shm, which a read-only mount could not hold).
    void readOnlyUriWritesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shelf.gpuf"));
        makeStore(path, 2);
        const QByteArray before = fileDigest(path);
        QVERIFY(!QFile::exists(path + QStringLiteral("-shm")));
        QVERIFY(store::readOnlyUri(path).endsWith(QStringLiteral("?mode=ro&immutable=1")));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("uri"));
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
            db.setDatabaseName(store::readOnlyUri(path));
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM problems")) && q.next());
            QCOMPARE(q.value(0).toInt(), 2);
            QVERIFY(!q.exec(QStringLiteral("DELETE FROM problems")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("uri"));
        QVERIFY(!QFile::exists(path + QStringLiteral("-shm")));
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
        QCOMPARE(fileDigest(path), before);
    }
};

QTEST_GUILESS_MAIN(TestStoreDamage)
#include "tst_store_damage.moc"
