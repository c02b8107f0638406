// Deleting rows together with everything that depends on them, and putting them back exactly. A deletion follows the
// store's own foreign keys (read from the schema, so a table added later is followed too): ON DELETE CASCADE rows are
// deleted with their parents, ON DELETE SET NULL links are recorded before they are cleared, and every affected row
// is captured as stored before one transaction deletes them all. Restoring re-inserts the captured rows with their
// ids and storage classes and sets the cleared links again, in one transaction.
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QStringList>
#include <QVariant>

namespace gpuf {

class Store;

// The kinds of rows the explorer deletes, and those deleted with them.
enum class RowKind { Problem, Kernel, Measurement, PairLabel, Forecaster, Forecast, Search, SearchEvent };

// What the user chose to delete; what depends on it follows.
struct DeletionRequest
{
    QMap<RowKind, QList<RowId>> rows; // the chosen rows by kind
    // Forecasts of these candidate kernels made by `forecastsBy` (0: by any forecaster).
    QList<RowId> forecastsOfCandidates;
    RowId forecastsBy = 0;

    static DeletionRequest of(RowKind kind, const QList<RowId> &ids);
    bool isEmpty() const;
};

// How many rows a deletion removes, and how many rows it leaves with a link set to NULL (a child kernel whose parent
// goes, a problem whose reference kernel goes), by table.
struct DeletionPlan
{
    QMap<QString, qint64> deleted;
    QMap<QString, qint64> unlinked;

    qint64 count(RowKind kind) const;
    qint64 unlinkedCount(RowKind kind) const;
    qint64 total() const; // rows deleted
};

// The rows of one table as they were stored: every column, SQLite storage classes kept (integer, real, text, blob,
// NULL), ordered by rowid.
struct CapturedTable
{
    QString table;
    QStringList columns;
    QList<QVariantList> rows;
};

// A reference a deletion set to NULL (ON DELETE SET NULL), with the value it had.
struct ClearedLink
{
    QString table;
    QString column;
    qint64 rowid = 0;
    QVariant value;
};

// Everything one deletion removed: enough to put it back.
struct DeletedRows
{
    DeletionPlan plan;
    QList<CapturedTable> tables;
    QList<ClearedLink> links;

    QList<RowId> ids(RowKind kind) const; // ascending
    // The request that deletes these very rows again (redo after an undo).
    DeletionRequest request() const;
};

// The SQLite table that holds a kind of row.
QString tableName(RowKind kind);

// Counts what deleteRows() would remove, changing nothing.
Result<DeletionPlan> planDeletion(Store &store, const DeletionRequest &request);
// Deletes the chosen rows and everything that depends on them in one transaction, and returns them. Ids that are not
// in the store are ignored; a request that matches nothing deletes nothing.
Result<DeletedRows> deleteRows(Store &store, const DeletionRequest &request);
// Puts deleted rows back with their ids, in one transaction; nothing changes when any row cannot be restored (a row
// added since took one of their ids or their unique name, say), and the error says which.
Status restoreRows(Store &store, const DeletedRows &rows);

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::DeletionPlan)
Q_DECLARE_METATYPE(gpuf::DeletedRows)
