// Store: one connection to a gpuf SQLite store. Opening checks that the file is a gpuf store the program can
// use (refusing anything else untouched), then applies forward migrations. One Store per thread: a connection
// must only be used by the thread that opened it (DESIGN §3).
#pragma once

#include "core/common/result.h"

#include <QSqlDatabase>
#include <QString>

#include <memory>

namespace gpuf {
namespace store {
class FileClaim;
} // namespace store

struct StoreCounts
{
    qint64 problems = 0;
    qint64 kernels = 0;
    qint64 hardware = 0;
    qint64 measurements = 0;
    qint64 pairLabels = 0;
    qint64 forecasters = 0;
    qint64 forecasts = 0;
    qint64 searches = 0;
    qint64 events = 0;
};

class Store
{
public:
    enum class Mode {
        Create, // a missing or empty file becomes a new store (the user asked for one: gpuf init, New Store)
        CreateIfMissing, // a missing file becomes a new store; an empty one is refused (a failed copy leaves those)
        ExistingOnly, // the file must already be a gpuf store
        ReadOnly, // existing store, opened read-only (no migration; refused if it needs one); works on a read-only
                  // mount
    };
    enum class Check {
        Full, // structure check (PRAGMA quick_check): first open of a file in a process
        Header, // application id and schema version only: further connections to a file already checked
    };

    static Result<std::unique_ptr<Store>> open(
        const QString &path, Mode mode = Mode::CreateIfMissing, Check check = Check::Full);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    QString path() const { return m_path; }
    bool isReadOnly() const { return m_readOnly; }
    int schemaVersion() const;
    QSqlDatabase &database() { return m_db; }

    Result<StoreCounts> counts();

private:
    Store(QString path, QString connectionName, bool readOnly, store::FileClaim claim);

    QString m_path;
    QString m_connectionName;
    bool m_readOnly;
    std::unique_ptr<store::FileClaim> m_claim; // this process's hold on the file (file_claim.h)
    QSqlDatabase m_db;
};

// RAII transaction: rolls back unless commit() succeeded. Multi-row writes always go through one.
class Transaction
{
public:
    enum class Kind {
        Write, // BEGIN IMMEDIATE: takes the write lock at once, waiting up to the busy timeout for other writers
        Read, // BEGIN: a consistent snapshot for reading, never blocking writers
    };
    explicit Transaction(Store &store, Kind kind = Kind::Write);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    Status begin();
    Status commit();

private:
    QSqlDatabase &m_db;
    Kind m_kind = Kind::Write;
    bool m_open = false;
};

} // namespace gpuf
