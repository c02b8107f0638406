// The gpuf CLI on damaged stores and hostile places (issue 26): an empty file, a store missing a table, a damaged page,
// a store on a read-only mount and one on a full disk. Each is one sentence on stderr, and nothing is written.
// Read-only mounts and full disks are made in a user and mount namespace (unshare -rm), where permission bits that do
// not stop root are not needed; without unshare those two are skipped.
#include "gpuf_config.h"
#include "tests/support/cli_run.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = gpuf::test::CliRun;
using gpuf::test::runGpufBytes;

constexpr qint64 kPage = 4096; // SQLite's default page size

// Runs `script` (sh) as root of a new user and mount namespace, with $1.. = `args`.
Run inNamespace(const QString &script, const QStringList &args)
{
    return gpuf::test::runProgram(QStringLiteral("unshare"),
        QStringList {QStringLiteral("-rm"), QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("sh")}
            + args);
}

bool namespacesWork()
{
    if (QStandardPaths::findExecutable(QStringLiteral("unshare")).isEmpty())
        return false;
    QTemporaryDir dir;
    const Run r = inNamespace(QStringLiteral("mount -t tmpfs -o size=64k tmpfs \"$1\""), {dir.path()});
    return r.exitCode == 0;
}

QByteArray digest(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                                       : QByteArray();
}

QString bundle() { return QStringLiteral(GPUF_TEST_DATA_DIR "/interop/bundle_full.jsonl"); }

QString errText(const Run &r) { return QString::fromUtf8(r.err); }

// A store with the test bundle in it, its WAL checkpointed into the file (so the file alone is the store).
void makeStore(const QString &path)
{
    QCOMPARE(runGpufBytes({QStringLiteral("init"), path}).exitCode, 0);
    const Run imported = runGpufBytes({QStringLiteral("import"), path, bundle()});
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")) || QFileInfo(path + QStringLiteral("-wal")).size() == 0);
}

void dropTable(const QString &path, const QString &table)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QVERIFY(QSqlQuery(db).exec(QStringLiteral("DROP TABLE ") + table));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
}

} // namespace

class TestCliDamagedStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void emptyFileIsNotTurnedIntoAStore()
    {
        const QString path = m_dir.filePath(QStringLiteral("copy-failed.gpuf"));
        QFile(path).open(QIODevice::WriteOnly);
        const Run r = runGpufBytes({QStringLiteral("import"), path, bundle()});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(errText(r),
            QStringLiteral("gpuf: %1 is an empty file, not a gpuf store; run gpuf init to make one (the file was not"
                           " changed)\n")
                .arg(path));
        QCOMPARE(QFileInfo(path).size(), qint64(0));
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    }

    void initMakesAStoreOfAnEmptyFile()
    {
        const QString path = m_dir.filePath(QStringLiteral("fresh.gpuf"));
        QFile(path).open(QIODevice::WriteOnly);
        const Run r = runGpufBytes({QStringLiteral("init"), path});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("store ready: "));
        QVERIFY(QFileInfo(path).size() > 0);
    }

    void storeMissingATableIsRefused()
    {
        const QString path = m_dir.filePath(QStringLiteral("partial.gpuf"));
        makeStore(path);
        dropTable(path, QStringLiteral("forecasts"));
        const QByteArray before = digest(path);
        for (const QStringList &args : {QStringList {QStringLiteral("init"), path},
                 QStringList {QStringLiteral("import"), path, bundle()}, QStringList {QStringLiteral("stats"), path},
                 QStringList {QStringLiteral("lessons"), QStringLiteral("generate"), path},
                 QStringList {
                     QStringLiteral("search"), QStringLiteral("resume"), path, QStringLiteral("softmax-run-1")}}) {
            const Run r = runGpufBytes(args);
            QCOMPARE(r.exitCode, 1);
            QVERIFY(!r.out.contains("store ready"));
            QVERIFY2(errText(r).contains(QStringLiteral("a damaged gpuf store (the table 'forecasts' is missing); the"
                                                        " file was not changed")),
                r.err.constData());
            QCOMPARE(r.err.count('\n'), 1);
        }
        QCOMPARE(digest(path), before);
    }

    void damagedPageIsOneLine()
    {
        const QString path = m_dir.filePath(QStringLiteral("damaged.gpuf"));
        makeStore(path);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.size() >= 6 * kPage);
            f.seek(2 * kPage);
            f.write(QByteArray(3 * kPage, '\x5a'));
        }
        const QByteArray before = digest(path);
        const Run r = runGpufBytes({QStringLiteral("stats"), path});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(errText(r).contains(path + QStringLiteral(": the store is damaged")), r.err.constData());
        QCOMPARE(digest(path), before);
    }

    void readOnlyMountIsReadable()
    {
        if (!namespacesWork())
            QSKIP("unshare -rm cannot make a mount namespace here");
        QTemporaryDir shelf;
        const QString path = shelf.filePath(QStringLiteral("shelf.gpuf"));
        makeStore(path);
        const QString mountRo = QStringLiteral("mount --bind -o ro \"$1\" \"$1\" && exec \"$2\" \"$3\" \"$4\" \"$5\"");
        const Run stats = inNamespace(
            mountRo, {shelf.path(), gpuf::test::gpufPath(), QStringLiteral("stats"), path, QStringLiteral("--json")});
        QVERIFY2(stats.exitCode == 0, stats.err.constData());
        QVERIFY2(stats.out.contains("\"kernels\":3"), stats.out.constData());
        const Run import
            = inNamespace(mountRo, {shelf.path(), gpuf::test::gpufPath(), QStringLiteral("import"), path, bundle()});
        QCOMPARE(import.exitCode, 1);
        QVERIFY2(errText(import).contains(
                     QStringLiteral("%1: the store is on a read-only location (a read-only file system or no write"
                                    " permission); it can be read but not changed")
                         .arg(path)),
            import.err.constData());
    }

    void fullDiskIsNamed()
    {
        if (!namespacesWork())
            QSKIP("unshare -rm cannot make a mount namespace here");
        const QString store = m_dir.filePath(QStringLiteral("to-copy.gpuf"));
        makeStore(store);
        QTemporaryDir disk;
        // A small file system holding the store, then filled to the last byte.
        const QString fill = QStringLiteral("mount -t tmpfs -o size=%1 tmpfs \"$1\" && cp \"$2\" \"$1/s.gpuf\" && (cat "
                                            "/dev/zero > \"$1/fill\" 2>/dev/null;"
                                            " true) && exec \"$3\" \"$4\" \"$1/s.gpuf\" \"$5\"")
                                 .arg(QFileInfo(store).size() + qint64(64) * 1024);
        const QString full = disk.filePath(QStringLiteral("s.gpuf"));
        const Run import
            = inNamespace(fill, {disk.path(), store, gpuf::test::gpufPath(), QStringLiteral("import"), bundle()});
        QCOMPARE(import.exitCode, 1);
        QCOMPARE(errText(import),
            QStringLiteral("gpuf: the disk holding %1 is full; free some space and try again (the store was not"
                           " changed)\n")
                .arg(full));
        const Run stats = inNamespace(
            fill, {disk.path(), store, gpuf::test::gpufPath(), QStringLiteral("stats"), QStringLiteral("--json")});
        QVERIFY2(stats.exitCode == 0, stats.err.constData());
        QVERIFY2(stats.out.contains("\"kernels\":3"), stats.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliDamagedStore)
#include "tst_cli_damaged_store.moc"
