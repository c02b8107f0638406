// Opening, checking and migrating a store; see store.h.
#include "core/store/store.h"

#include "core/store/file_claim.h"
#include "core/store/schema.h"
#include "core/store/sql.h"
#include "core/store/store_checks.h"

#include <QAtomicInteger>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>

namespace gpuf {
namespace {

QString nextConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("gpuf-store-%1").arg(counter.fetchAndAddRelaxed(1));
}

// Checks an existing SQLite file without writing to it. Returns its schema version (0: empty database).
Result<int> checkExisting(QSqlDatabase &db, const QString &path, Store::Check check)
{
    auto fail = [&path](const QString &why) {
        return Error {QStringLiteral("%1: %2; the file was not changed").arg(path, why)};
    };
    auto appId = sql::scalar(db, QStringLiteral("PRAGMA application_id"));
    if (!appId)
        return store::describeOpenFailure(path, appId.error());
    auto version = sql::scalar(db, QStringLiteral("PRAGMA user_version"));
    if (!version)
        return store::describeOpenFailure(path, version.error());
    auto tables = sql::scalar(db, QStringLiteral("SELECT COUNT(*) FROM sqlite_master"));
    if (!tables)
        return store::describeOpenFailure(path, tables.error());
    if (*appId != store::kApplicationId) {
        if (*appId == 0 && *tables == 0)
            return 0; // an empty database: safe to initialise
        return fail(QStringLiteral("not a gpuf store (an SQLite database of another program)"));
    }
    if (*version > store::kSchemaVersion)
        return fail(QStringLiteral("made by a newer gpuf (store schema %1; this program knows up to %2)")
                        .arg(*version)
                        .arg(store::kSchemaVersion));
    if (check == Store::Check::Full) {
        if (Status checked = store::quickCheck(db, path); !checked)
            return checked.failure();
    }
    // A store missing a table (or a column) would take some writes and fail others half-way: refused whole.
    auto missing = store::missingSchemaParts(db, int(*version));
    if (!missing)
        return store::describeOpenFailure(path, missing.error());
    if (!missing->isEmpty())
        return fail(QStringLiteral("a damaged gpuf store (%1)").arg(*missing));
    return int(*version);
}

Status migrate(QSqlDatabase &db, int fromVersion)
{
    for (int version = fromVersion + 1; version <= store::kSchemaVersion; ++version) {
        if (auto begun = sql::run(db, QStringLiteral("BEGIN IMMEDIATE")); !begun)
            return Error {QStringLiteral("cannot begin migration: %1").arg(begun.error())};
        // Another process may have migrated while this one waited for the lock.
        if (auto current = sql::scalar(db, QStringLiteral("PRAGMA user_version")); current && *current >= version) {
            (void)sql::run(db, QStringLiteral("COMMIT"));
            continue;
        }
        Status status;
        const QStringList statements = store::migrationStatements(version);
        for (const QString &statement : statements) {
            auto done = sql::run(db, statement);
            if (!done) {
                status = Error {done.error()};
                break;
            }
        }
        if (status)
            status = sql::run(db, QStringLiteral("PRAGMA user_version = %1").arg(version)).ok()
                ? Status()
                : Status(Error {QStringLiteral("cannot set user_version")});
        if (status && version == 1) {
            auto done = sql::run(db, QStringLiteral("PRAGMA application_id = %1").arg(store::kApplicationId));
            if (!done)
                status = Error {done.error()};
        }
        if (!status) {
            (void)sql::run(db, QStringLiteral("ROLLBACK"));
            return Error {QStringLiteral("migration to schema %1 failed: %2").arg(version).arg(status.error())};
        }
        if (auto committed = sql::run(db, QStringLiteral("COMMIT")); !committed)
            return Error {QStringLiteral("migration to schema %1 failed: %2").arg(version).arg(committed.error())};
    }
    return {};
}

// How a connection reaches the file: read-write, read-only, or (on a read-only location, where SQLite cannot create
// the files a WAL reader needs beside the store) through a read-only URI.
enum class Access { ReadWrite, ReadOnly, ReadOnlyLocation };

QSqlDatabase addConnection(const QString &name, const QString &path, Access access)
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    QString options = QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(sql::kBusyTimeoutMs);
    if (access != Access::ReadWrite)
        options += QStringLiteral(";QSQLITE_OPEN_READONLY");
    if (access == Access::ReadOnlyLocation) {
        options += QStringLiteral(";QSQLITE_OPEN_URI");
        db.setDatabaseName(store::readOnlyUri(path));
    } else {
        db.setDatabaseName(path);
    }
    db.setConnectOptions(options);
    return db;
}

// What the file is, refused when it cannot become or be a store in `mode`.
Result<store::FileState> admitFile(const QString &path, Store::Mode mode, const store::FileClaim &claim)
{
    using store::FileState;
    const FileState state = claim.state();
    switch (state) {
    case FileState::Missing:
        if (mode == Store::Mode::ExistingOnly || mode == Store::Mode::ReadOnly)
            return Error {QStringLiteral("%1: no gpuf store there (no such file)").arg(path)};
        break;
    case FileState::Empty:
        // What a failed copy or a full disk leaves: only a request to create a store may fill it.
        if (mode != Store::Mode::Create)
            return Error {
                QStringLiteral("%1 is an empty file, not a gpuf store; run gpuf init to make one (the file was not"
                               " changed)")
                    .arg(path)};
        break;
    case FileState::NotSqlite:
        return Error {
            QStringLiteral("%1: not a gpuf store (not an SQLite database); the file was not changed").arg(path)};
    case FileState::Unreadable:
        return Error {QStringLiteral("%1: cannot read the file (permission denied?)").arg(path)};
    case FileState::Sqlite:
        break;
    }
    if (mode != Store::Mode::ReadOnly && !claim.heldBefore() && store::onReadOnlyLocation(path))
        return Error {QStringLiteral("%1: the store is on a read-only location (a read-only file system or no write"
                                     " permission); it can be read but not changed")
                          .arg(path)};
    return state;
}

// Checks an existing file through a read-only connection, so that a refused file is never written to.
Result<int> checkedVersion(const QString &path, Access access, Store::Check check)
{
    const QString checkName = nextConnectionName();
    Result<int> checked = 0;
    {
        QSqlDatabase db = addConnection(checkName, path, access == Access::ReadWrite ? Access::ReadOnly : access);
        checked = db.open() ? checkExisting(db, path, check)
                            : Result<int>(store::describeOpenFailure(path, db.lastError().text()));
        db.close();
    }
    QSqlDatabase::removeDatabase(checkName);
    return checked;
}

} // namespace

Store::Store(QString path, QString connectionName, bool readOnly, store::FileClaim claim)
    : m_path(std::move(path))
    , m_connectionName(std::move(connectionName))
    , m_readOnly(readOnly)
    , m_claim(std::make_unique<store::FileClaim>(std::move(claim)))
    , m_db(QSqlDatabase::database(m_connectionName, false))
{ }

Store::~Store()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
    // m_claim is released after this: the connection is closed by then.
}

Result<std::unique_ptr<Store>> Store::open(const QString &path, Mode mode, Check check)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return Error {QStringLiteral("the Qt SQLite driver (QSQLITE) is not installed")};
    // Claimed before any connection opens, the check connection's included, and held by the Store from then on.
    store::FileClaim claim(path);
    auto state = admitFile(path, mode, claim);
    if (!state)
        return state.failure();
    const bool readOnly = mode == Mode::ReadOnly;
    // Where SQLite could not create the -shm file a WAL reader needs (a read-only mount, a full disk), a reader opens
    // the file as immutable: nothing can be changing it there.
    const bool cannotWriteBeside = !claim.heldBefore() && (store::onReadOnlyLocation(path) || store::diskFull(path));
    const Access access = !readOnly ? Access::ReadWrite
        : cannotWriteBeside         ? Access::ReadOnlyLocation
                                    : Access::ReadOnly;
    int version = 0;
    if (*state == store::FileState::Sqlite) {
        auto checked = checkedVersion(path, access, check);
        if (!checked)
            return checked.failure();
        version = *checked;
    }
    if (readOnly && version < store::kSchemaVersion)
        return Error {QStringLiteral("%1: the store needs an upgrade to schema %2; open it for writing first")
                          .arg(path)
                          .arg(store::kSchemaVersion)};
    const QString name = nextConnectionName();
    addConnection(name, path, access);
    std::unique_ptr<Store> store(new Store(path, name, readOnly, std::move(claim)));
    if (!store->m_db.open())
        return store::describeOpenFailure(path, store->m_db.lastError().text());

    QStringList pragmas {QStringLiteral("PRAGMA foreign_keys = ON")};
    if (!readOnly)
        pragmas << QStringLiteral("PRAGMA journal_mode = WAL") << QStringLiteral("PRAGMA synchronous = NORMAL");
    for (const QString &pragma : pragmas) {
        if (auto done = sql::run(store->m_db, pragma); !done)
            return store::describeOpenFailure(path, done.error());
    }
    if (!readOnly && version < store::kSchemaVersion) {
        if (Status migrated = migrate(store->m_db, version); !migrated)
            return Error {QStringLiteral("%1: %2").arg(path, migrated.error())};
    }
    return store;
}

int Store::schemaVersion() const
{
    QSqlDatabase db = m_db;
    auto version = sql::scalar(db, QStringLiteral("PRAGMA user_version"));
    return version ? int(*version) : -1;
}

Result<StoreCounts> Store::counts()
{
    auto query = sql::run(m_db,
        QStringLiteral(
            "SELECT (SELECT COUNT(*) FROM problems), (SELECT COUNT(*) FROM kernels), (SELECT COUNT(*) FROM hardware),"
            " (SELECT COUNT(*) FROM measurements), (SELECT COUNT(*) FROM pair_labels),"
            " (SELECT COUNT(*) FROM forecasters), (SELECT COUNT(*) FROM forecasts),"
            " (SELECT COUNT(*) FROM searches), (SELECT COUNT(*) FROM search_events)"));
    if (!query)
        return Error {query.error()};
    if (!query->next())
        return Error {QStringLiteral("counting rows returned nothing")};
    StoreCounts c;
    c.problems = query->value(0).toLongLong();
    c.kernels = query->value(1).toLongLong();
    c.hardware = query->value(2).toLongLong();
    c.measurements = query->value(3).toLongLong();
    c.pairLabels = query->value(4).toLongLong();
    c.forecasters = query->value(5).toLongLong();
    c.forecasts = query->value(6).toLongLong();
    c.searches = query->value(7).toLongLong();
    c.events = query->value(8).toLongLong();
    return c;
}

Transaction::Transaction(Store &store, Kind kind)
    : m_db(store.database())
    , m_kind(kind)
{ }

Transaction::~Transaction()
{
    if (m_open) {
        QSqlQuery rollback(m_db);
        rollback.exec(QStringLiteral("ROLLBACK"));
    }
}

Status Transaction::begin()
{
    // IMMEDIATE takes the write lock now, waiting up to the busy timeout for other writers (threads or processes):
    // a deferred transaction that reads first and writes later would fail at once when another writer came between.
    QSqlQuery begin(m_db);
    if (!begin.exec(m_kind == Kind::Write ? QStringLiteral("BEGIN IMMEDIATE") : QStringLiteral("BEGIN")))
        return Error {QStringLiteral("cannot start writing: %1").arg(sql::describeError(begin.lastError()))};
    m_open = true;
    return {};
}

Status Transaction::commit()
{
    if (!m_open)
        return Error {QStringLiteral("commit without an open transaction")};
    QSqlQuery commit(m_db);
    if (!commit.exec(QStringLiteral("COMMIT")))
        return Error {QStringLiteral("cannot save the changes: %1").arg(sql::describeError(commit.lastError()))};
    m_open = false;
    return {};
}

} // namespace gpuf
