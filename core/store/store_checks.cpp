// Checks of a store file before it is trusted; see store_checks.h.
#include "core/store/store_checks.h"

#include "core/store/file_claim.h"
#include "core/store/schema.h"
#include "core/store/sql.h"

#include <QAtomicInteger>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QMutex>
#include <QSqlError>
#include <QStorageInfo>
#include <QUrl>

#include <cerrno>
#include <unistd.h>

namespace gpuf::store {
namespace {

using TableColumns = QMap<QString, QStringList>; // table → its columns, in order

const QString kTableColumns
    = QStringLiteral("SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p"
                     " WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid");

Result<TableColumns> tableColumns(QSqlDatabase &db)
{
    auto query = sql::run(db, kTableColumns);
    if (!query)
        return Error {query.error()};
    TableColumns out;
    while (query->next())
        out[query->value(0).toString()].append(query->value(1).toString());
    return out;
}

// The tables and columns a store at `version` has: the migrations up to it, run once on an in-memory database.
Result<TableColumns> expectedSchema(int version)
{
    static QMutex mutex;
    static QHash<int, TableColumns> cache;
    QMutexLocker lock(&mutex);
    if (auto it = cache.constFind(version); it != cache.cend())
        return *it;
    const QString name = QStringLiteral("gpuf-schema-%1").arg(version);
    Result<TableColumns> columns = Error {QStringLiteral("the expected schema could not be built")};
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(QStringLiteral(":memory:"));
        if (db.open()) {
            Status built;
            for (int v = 1; v <= version && built; ++v) {
                const QStringList statements = migrationStatements(v);
                for (const QString &statement : statements) {
                    if (auto done = sql::run(db, statement); !done) {
                        built = Error {done.error()};
                        break;
                    }
                }
            }
            columns = built ? tableColumns(db) : Result<TableColumns>(Error {built.error()});
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    if (columns)
        cache.insert(version, *columns);
    return columns;
}

bool isIoFailure(const QString &message)
{
    for (const char *words : {"disk I/O error", "database or disk is full", "unable to open database file"}) {
        if (message.contains(QLatin1StringView(words), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace

FileState inspectFile(const QString &path)
{
    QFileInfo info(path);
    if (!info.exists())
        return FileState::Missing;
    if (info.isDir())
        return FileState::NotSqlite;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return FileState::Unreadable;
    if (file.size() == 0)
        return FileState::Empty;
    static const QByteArray magic("SQLite format 3\0", 16);
    return file.read(16) == magic ? FileState::Sqlite : FileState::NotSqlite;
}

bool onReadOnlyLocation(const QString &path)
{
    const QFileInfo info(path);
    // access() asks the kernel, which knows read-only mounts (EROFS) even for root, whom permission bits do not stop.
    auto refused = [](const QString &target) {
        return ::access(QFile::encodeName(target).constData(), W_OK) != 0 && (errno == EROFS || errno == EACCES);
    };
    if (info.exists() && refused(info.absoluteFilePath()))
        return true;
    // A store in WAL mode writes its -wal and -shm files beside it.
    return QFileInfo(info.absolutePath()).exists() && refused(info.absolutePath());
}

QString readOnlyUri(const QString &path)
{
    QString uri = QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toString(QUrl::FullyEncoded);
    uri += QStringLiteral("?mode=ro");
    const QFileInfo wal(path + QStringLiteral("-wal"));
    if (!wal.exists() || wal.size() == 0)
        uri += QStringLiteral("&immutable=1");
    return uri;
}

bool diskFull(const QString &path)
{
    constexpr qint64 kNearlyFull = qint64(64) * 1024; // less than a few pages: no write can succeed
    const QStorageInfo storage(QFileInfo(path).absolutePath());
    return storage.isValid() && storage.bytesAvailable() < kNearlyFull;
}

QString diskFullSentence(const QString &path)
{
    return QStringLiteral("the disk holding %1 is full; free some space and try again (the store was not changed)")
        .arg(path);
}

Result<QString> missingSchemaParts(QSqlDatabase &db, int version)
{
    auto expected = expectedSchema(version);
    if (!expected)
        return Error {expected.error()};
    auto present = tableColumns(db);
    if (!present)
        return Error {present.error()};
    QStringList missing;
    for (auto it = expected->cbegin(); it != expected->cend(); ++it) {
        const auto found = present->constFind(it.key());
        if (found == present->cend()) {
            missing.append(QStringLiteral("the table '%1'").arg(it.key()));
            continue;
        }
        for (const QString &column : it.value()) {
            if (!found->contains(column))
                missing.append(QStringLiteral("the column '%1.%2'").arg(it.key(), column));
        }
    }
    if (missing.isEmpty())
        return QString();
    if (missing.size() == 1)
        return QString(missing.first() + QStringLiteral(" is missing"));
    return QStringLiteral("%1 and %2 more part(s) of its schema are missing")
        .arg(missing.first())
        .arg(missing.size() - 1);
}

Result<QStringList> structureProblems(QSqlDatabase &db)
{
    auto query = sql::run(db, QStringLiteral("PRAGMA quick_check"));
    if (!query)
        return Error {query.error()};
    QStringList problems;
    while (query->next()) {
        const QString row = query->value(0).toString();
        if (row != QLatin1StringView("ok"))
            problems.append(row);
    }
    return problems;
}

Status quickCheck(QSqlDatabase &db, const QString &path)
{
    auto problems = structureProblems(db);
    if (!problems)
        return describeOpenFailure(path, problems.error());
    if (problems->isEmpty())
        return {};
    return Error {QStringLiteral("%1: the store is damaged (SQLite's structure check found %2 problem(s)); the file"
                                 " was not changed")
                      .arg(path)
                      .arg(problems->size())};
}

QString damageReport(const QString &path)
{
    const FileClaim claim(path);
    if (claim.state() != FileState::Sqlite)
        return {};
    static QAtomicInteger<quint64> counter;
    const QString name = QStringLiteral("gpuf-damage-%1").arg(counter.fetchAndAddRelaxed(1));
    QString report;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
        // Beside another connection of this process, never as immutable: SQLite does not lock such a file, and closing
        // it would drop the other connection's locks (file_claim.h).
        db.setDatabaseName(
            claim.heldBefore() ? readOnlyUri(path).remove(QStringLiteral("&immutable=1")) : readOnlyUri(path));
        if (db.open()) {
            auto problems = structureProblems(db);
            report = problems ? problems->join(QLatin1Char('\n')) : problems.error();
        } else {
            report = db.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return report;
}

Error describeOpenFailure(const QString &path, const QString &sqliteMessage)
{
    Error error;
    if (isIoFailure(sqliteMessage) && diskFull(path))
        error.message = diskFullSentence(path);
    else if (sqliteMessage.contains(QLatin1StringView("malformed"))
        || sqliteMessage.contains(QLatin1StringView("corrupt")))
        error.message
            = QStringLiteral("%1: the store is damaged (SQLite cannot read some of its pages); the file was not"
                             " changed")
                  .arg(path);
    else
        error.message = QStringLiteral("%1: not a readable SQLite database (%2); the file was not changed")
                            .arg(path, sqliteMessage.section(QLatin1Char('\n'), 0, 0));
    return error;
}

} // namespace gpuf::store
