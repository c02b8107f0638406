// Deleting and restoring rows; see deletion.h. The rows to delete are gathered in a temporary table of (table, rowid)
// so a deletion of a whole problem costs a few set-based statements, not one per row.
#include "core/store/deletion.h"

#include "core/store/sql.h"
#include "core/store/store.h"

#include <QHash>
#include <QSqlRecord>

#include <algorithm>

namespace gpuf {
namespace {

const QString kDoomed = QStringLiteral("temp.gpuf_doomed");

struct ForeignKey
{
    enum class Action { Cascade, SetNull, Keep }; // Keep: RESTRICT / NO ACTION, a row that must not be left dangling
    QString child;
    QString column;
    QString parent;
    QString parentColumn; // empty: the parent's rowid
    Action action = Action::Keep;
};

struct UniqueKey
{
    QString table;
    QStringList columns;
};

struct Schema
{
    QStringList tables;
    QList<ForeignKey> keys;
    QList<UniqueKey> uniques;
};

QString quoted(const QString &identifier)
{
    QString text = identifier;
    text.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + text + QLatin1Char('"');
}

// A person's word for a row of `table`, for error messages.
QString rowWord(const QString &table)
{
    static const QHash<QString, QString> words {
        {QStringLiteral("problems"), QStringLiteral("problem")},
        {QStringLiteral("kernels"), QStringLiteral("kernel")},
        {QStringLiteral("measurements"), QStringLiteral("measurement")},
        {QStringLiteral("pair_labels"), QStringLiteral("pair label")},
        {QStringLiteral("forecasters"), QStringLiteral("forecaster")},
        {QStringLiteral("forecasts"), QStringLiteral("forecast")},
        {QStringLiteral("searches"), QStringLiteral("search")},
        {QStringLiteral("search_events"), QStringLiteral("search event")},
        {QStringLiteral("hardware"), QStringLiteral("hardware")},
        {QStringLiteral("lessons"), QStringLiteral("lesson")},
        {QStringLiteral("lesson_steps"), QStringLiteral("lesson step")},
    };
    return words.value(table, QStringLiteral("row of %1").arg(table));
}

ForeignKey::Action actionOf(const QString &onDelete)
{
    const QString action = onDelete.toUpper();
    if (action == QLatin1StringView("CASCADE"))
        return ForeignKey::Action::Cascade;
    if (action == QLatin1StringView("SET NULL") || action == QLatin1StringView("SET DEFAULT"))
        return ForeignKey::Action::SetNull;
    return ForeignKey::Action::Keep;
}

Status readKeys(QSqlDatabase &db, const QString &table, Schema &schema)
{
    auto keys = sql::run(db, QStringLiteral("PRAGMA foreign_key_list(%1)").arg(quoted(table)));
    if (!keys)
        return Error {keys.error()};
    QHash<int, int> columnsPerKey;
    QList<std::pair<int, ForeignKey>> found;
    while (keys->next()) {
        const int id = keys->value(QStringLiteral("id")).toInt();
        ++columnsPerKey[id];
        ForeignKey key;
        key.child = table;
        key.column = keys->value(QStringLiteral("from")).toString();
        key.parent = keys->value(QStringLiteral("table")).toString();
        key.parentColumn = keys->value(QStringLiteral("to")).toString();
        key.action = actionOf(keys->value(QStringLiteral("on_delete")).toString());
        found.append({id, key});
    }
    for (const auto &[id, key] : std::as_const(found)) {
        if (columnsPerKey.value(id) != 1)
            return Error {QStringLiteral("table %1 has a foreign key over several columns, which deletion does not "
                                         "follow")
                              .arg(table)};
        schema.keys.append(key);
    }
    return {};
}

Status readUniques(QSqlDatabase &db, const QString &table, Schema &schema)
{
    auto indexes = sql::run(db, QStringLiteral("PRAGMA index_list(%1)").arg(quoted(table)));
    if (!indexes)
        return Error {indexes.error()};
    QStringList names;
    while (indexes->next()) {
        // The primary key is checked as the rowid; other unique indexes may refuse a restored row.
        if (indexes->value(QStringLiteral("unique")).toInt() == 1
            && indexes->value(QStringLiteral("origin")).toString() != QLatin1StringView("pk"))
            names.append(indexes->value(QStringLiteral("name")).toString());
    }
    for (const QString &name : std::as_const(names)) {
        auto info = sql::run(db, QStringLiteral("PRAGMA index_info(%1)").arg(quoted(name)));
        if (!info)
            return Error {info.error()};
        UniqueKey unique {table, {}};
        while (info->next())
            unique.columns.append(info->value(QStringLiteral("name")).toString());
        if (!unique.columns.isEmpty() && !unique.columns.contains(QString()))
            schema.uniques.append(unique);
    }
    return {};
}

Result<Schema> readSchema(QSqlDatabase &db)
{
    Schema schema;
    auto tables = sql::run(db,
        QStringLiteral("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                       " ORDER BY name"));
    if (!tables)
        return Error {tables.error()};
    while (tables->next())
        schema.tables.append(tables->value(0).toString());
    for (const QString &table : std::as_const(schema.tables)) {
        if (Status s = readKeys(db, table, schema); !s)
            return Error {s.error()};
        if (Status s = readUniques(db, table, schema); !s)
            return Error {s.error()};
    }
    return schema;
}

QString doomedRowsOf(const QString &table)
{
    QString literal = table;
    literal.replace(QLatin1Char('\''), QStringLiteral("''"));
    return QStringLiteral("SELECT id FROM %1 WHERE tbl = '%2'").arg(kDoomed, literal);
}

// SQL naming the values the child column holds when it refers to a doomed parent row.
QString doomedParentValues(const ForeignKey &key)
{
    const QString column = key.parentColumn.isEmpty() ? QStringLiteral("rowid") : quoted(key.parentColumn);
    return QStringLiteral("SELECT p.%1 FROM %2 p WHERE p.rowid IN (%3)")
        .arg(column, quoted(key.parent), doomedRowsOf(key.parent));
}

// An explicit transaction that takes the write lock at once, so nothing changes between reading the rows and deleting
// them; rolled back unless committed.
class WriteTransaction
{
public:
    explicit WriteTransaction(QSqlDatabase &db)
        : m_db(db)
    { }
    ~WriteTransaction()
    {
        if (m_open)
            (void)sql::run(m_db, QStringLiteral("ROLLBACK"));
    }
    Status begin(bool immediate)
    {
        auto done = sql::run(m_db, immediate ? QStringLiteral("BEGIN IMMEDIATE") : QStringLiteral("BEGIN"));
        if (!done)
            return Error {done.error()};
        m_open = true;
        return {};
    }
    Status commit()
    {
        auto done = sql::run(m_db, QStringLiteral("COMMIT"));
        if (!done)
            return Error {done.error()};
        m_open = false;
        return {};
    }

private:
    QSqlDatabase &m_db;
    bool m_open = false;
};

// Foreign-key enforcement off for one write, and on again afterwards. With it on, deleting or inserting a parent row
// makes SQLite look for its children, and a child column without an index (forecasts.reference_kernel_id) is scanned
// whole for every row: minutes for a problem of 20 000 kernels. The rows a deletion removes are the complete cascade
// already, and checkKeys() proves the result consistent before the commit. Must run outside a transaction.
class ForeignKeysOff
{
public:
    explicit ForeignKeysOff(QSqlDatabase &db)
        : m_db(db)
    {
        auto on = sql::scalar(m_db, QStringLiteral("PRAGMA foreign_keys"));
        m_wasOn = on && *on != 0;
        if (m_wasOn)
            (void)sql::run(m_db, QStringLiteral("PRAGMA foreign_keys = OFF"));
    }
    ~ForeignKeysOff()
    {
        if (m_wasOn)
            (void)sql::run(m_db, QStringLiteral("PRAGMA foreign_keys = ON"));
    }
    ForeignKeysOff(const ForeignKeysOff &) = delete;
    ForeignKeysOff &operator=(const ForeignKeysOff &) = delete;

private:
    QSqlDatabase &m_db;
    bool m_wasOn = false;
};

// Every row's references resolve (what foreign-key enforcement would have guaranteed).
Status checkKeys(QSqlDatabase &db)
{
    auto query = sql::run(db, QStringLiteral("PRAGMA foreign_key_check"));
    if (!query)
        return Error {query.error()};
    if (query->next())
        return Error {QStringLiteral("a %1 would refer to a %2 that is not in the store")
                          .arg(rowWord(query->value(0).toString()), rowWord(query->value(2).toString()))};
    return {};
}

// The doomed set: the chosen rows, then every row that cascades from them, until nothing more follows.
class Closure
{
public:
    Closure(QSqlDatabase &db, const Schema &schema)
        : m_db(db)
        , m_schema(schema)
    { }

    Status build(const DeletionRequest &request)
    {
        for (const QString &statement :
            {QStringLiteral("CREATE TEMP TABLE IF NOT EXISTS gpuf_doomed (tbl TEXT NOT NULL,"
                            " id INTEGER NOT NULL, PRIMARY KEY (tbl, id)) WITHOUT ROWID"),
                QStringLiteral("DELETE FROM temp.gpuf_doomed")}) {
            if (auto done = sql::run(m_db, statement); !done)
                return Error {done.error()};
        }
        if (Status s = seed(request); !s)
            return s;
        return cascade();
    }

    // Rows of tables not doomed whose SET NULL link points at a doomed row.
    Result<QList<ClearedLink>> links() const
    {
        QList<ClearedLink> out;
        for (const ForeignKey &key : m_schema.keys) {
            if (key.action == ForeignKey::Action::Cascade)
                continue;
            auto query = sql::run(m_db,
                QStringLiteral("SELECT c.rowid, c.%1 FROM %2 c WHERE c.%1 IN (%3) AND c.rowid NOT IN (%4)"
                               " ORDER BY c.rowid")
                    .arg(quoted(key.column), quoted(key.child), doomedParentValues(key), doomedRowsOf(key.child)));
            if (!query)
                return Error {query.error()};
            qint64 kept = 0;
            while (query->next()) {
                if (key.action == ForeignKey::Action::Keep) {
                    ++kept;
                    continue;
                }
                out.append(ClearedLink {key.child, key.column, query->value(0).toLongLong(), query->value(1)});
            }
            if (kept > 0)
                return Error {QStringLiteral("%1 %2(s) still refer to them and would be left dangling")
                                  .arg(kept)
                                  .arg(rowWord(key.child))};
        }
        return out;
    }

    Result<QMap<QString, qint64>> counts() const
    {
        QMap<QString, qint64> out;
        auto query = sql::run(m_db, QStringLiteral("SELECT tbl, COUNT(*) FROM temp.gpuf_doomed GROUP BY tbl"));
        if (!query)
            return Error {query.error()};
        while (query->next())
            out.insert(query->value(0).toString(), query->value(1).toLongLong());
        return out;
    }

private:
    Status add(const QString &table, const QList<RowId> &ids)
    {
        if (ids.isEmpty())
            return {};
        // Only rows that exist: a stale id is ignored rather than counted.
        auto insert = sql::prepare(m_db,
            QStringLiteral("INSERT OR IGNORE INTO temp.gpuf_doomed (tbl, id) SELECT ?, rowid FROM %1 WHERE rowid = ?")
                .arg(quoted(table)));
        if (!insert)
            return Error {insert.error()};
        for (RowId id : ids) {
            insert->bindValue(0, table);
            insert->bindValue(1, id);
            if (Status s = sql::exec(*insert); !s)
                return s;
        }
        return {};
    }

    Status seed(const DeletionRequest &request)
    {
        for (auto it = request.rows.cbegin(); it != request.rows.cend(); ++it) {
            if (Status s = add(tableName(it.key()), it.value()); !s)
                return s;
        }
        if (request.forecastsOfCandidates.isEmpty())
            return {};
        auto insert = sql::prepare(m_db,
            QStringLiteral("INSERT OR IGNORE INTO temp.gpuf_doomed (tbl, id) SELECT 'forecasts', id FROM forecasts"
                           " WHERE candidate_kernel_id = ? AND (? = 0 OR forecaster_id = ?)"));
        if (!insert)
            return Error {insert.error()};
        for (RowId candidate : request.forecastsOfCandidates) {
            insert->bindValue(0, candidate);
            insert->bindValue(1, request.forecastsBy);
            insert->bindValue(2, request.forecastsBy);
            if (Status s = sql::exec(*insert); !s)
                return s;
        }
        return {};
    }

    Status cascade()
    {
        for (int round = 0; round < 64; ++round) {
            int added = 0;
            for (const ForeignKey &key : m_schema.keys) {
                if (key.action != ForeignKey::Action::Cascade)
                    continue;
                QString literal = key.child;
                literal.replace(QLatin1Char('\''), QStringLiteral("''"));
                auto query = sql::run(m_db,
                    QStringLiteral("INSERT OR IGNORE INTO temp.gpuf_doomed (tbl, id) SELECT '%1', c.rowid FROM %2 c"
                                   " WHERE c.%3 IN (%4)")
                        .arg(literal, quoted(key.child), quoted(key.column), doomedParentValues(key)));
                if (!query)
                    return Error {query.error()};
                added += std::max(0, query->numRowsAffected());
            }
            if (added == 0)
                return {};
        }
        return Error {QStringLiteral("the store's cascades do not end")};
    }

    QSqlDatabase &m_db;
    const Schema &m_schema;
};

Result<CapturedTable> capture(QSqlDatabase &db, const QString &table)
{
    auto query = sql::run(db,
        QStringLiteral("SELECT * FROM %1 WHERE rowid IN (%2) ORDER BY rowid").arg(quoted(table), doomedRowsOf(table)));
    if (!query)
        return Error {query.error()};
    CapturedTable captured;
    captured.table = table;
    const QSqlRecord record = query->record();
    for (int i = 0; i < record.count(); ++i)
        captured.columns.append(record.fieldName(i));
    // Tables without an INTEGER PRIMARY KEY would lose their rowids: capture them as a column of their own.
    if (!captured.columns.contains(QStringLiteral("id")))
        return Error {QStringLiteral("table %1 has no id column; its rows cannot be restored exactly").arg(table)};
    while (query->next()) {
        QVariantList row;
        row.reserve(record.count());
        for (int i = 0; i < record.count(); ++i)
            row.append(query->value(i));
        captured.rows.append(std::move(row));
    }
    return captured;
}

// The tables that lose rows, by name: the order does not matter, the cascades are all in the doomed set.
QStringList doomedTables(const Schema &schema, const QMap<QString, qint64> &counts)
{
    QStringList tables;
    for (const QString &table : schema.tables) {
        if (counts.value(table) > 0)
            tables.append(table);
    }
    return tables;
}

DeletionPlan planOf(const QMap<QString, qint64> &counts, const QList<ClearedLink> &links)
{
    DeletionPlan plan;
    plan.deleted = counts;
    for (const ClearedLink &link : links)
        ++plan.unlinked[link.table];
    return plan;
}

int columnIndex(const CapturedTable &table, const QString &column) { return int(table.columns.indexOf(column)); }

// Refuses a restore that would collide with a row added since: the same id, or the same unique key (a problem's name,
// a kernel's source within its problem…).
Status checkConflicts(QSqlDatabase &db, const Schema &schema, const CapturedTable &table)
{
    const int idColumn = columnIndex(table, QStringLiteral("id"));
    auto byId = sql::prepare(db, QStringLiteral("SELECT 1 FROM %1 WHERE rowid = ?").arg(quoted(table.table)));
    if (!byId)
        return Error {byId.error()};
    for (const QVariantList &row : table.rows) {
        byId->bindValue(0, row[idColumn]);
        if (Status s = sql::exec(*byId); !s)
            return s;
        if (byId->next())
            return Error {QStringLiteral("the deleted %1 %2 cannot come back: a %1 added since holds its id")
                              .arg(rowWord(table.table), row[idColumn].toString())};
    }
    for (const UniqueKey &unique : schema.uniques) {
        if (unique.table != table.table)
            continue;
        QStringList conditions;
        QList<int> columns;
        for (const QString &column : unique.columns) {
            conditions.append(QStringLiteral("%1 IS ?").arg(quoted(column)));
            columns.append(columnIndex(table, column));
        }
        if (columns.contains(-1))
            continue;
        auto query = sql::prepare(
            db, QStringLiteral("SELECT rowid FROM %1 WHERE %2").arg(quoted(table.table), conditions.join(u" AND ")));
        if (!query)
            return Error {query.error()};
        for (const QVariantList &row : table.rows) {
            for (int i = 0; i < columns.size(); ++i)
                query->bindValue(i, row[columns[i]]);
            if (Status s = sql::exec(*query); !s)
                return s;
            if (query->next())
                return Error {QStringLiteral("the deleted %1 %2 cannot come back: %1 %3, added since, has the same %4")
                                  .arg(rowWord(table.table), row[idColumn].toString(), query->value(0).toString(),
                                      unique.columns.join(QStringLiteral(" and ")))};
        }
    }
    return {};
}

Status insertRows(QSqlDatabase &db, const CapturedTable &table)
{
    QStringList columns;
    QStringList marks;
    for (const QString &column : table.columns) {
        columns.append(quoted(column));
        marks.append(QStringLiteral("?"));
    }
    auto insert = sql::prepare(db,
        QStringLiteral("INSERT INTO %1 (%2) VALUES (%3)")
            .arg(quoted(table.table), columns.join(u", "), marks.join(u", ")));
    if (!insert)
        return Error {insert.error()};
    for (const QVariantList &row : table.rows) {
        for (int i = 0; i < row.size(); ++i)
            insert->bindValue(i, row[i]);
        if (Status s = sql::exec(*insert); !s)
            return Error {
                QStringLiteral("the deleted %1 %2 could not be written back (%3)")
                    .arg(rowWord(table.table), row[columnIndex(table, QStringLiteral("id"))].toString(), s.error())};
    }
    return {};
}

} // namespace

QString tableName(RowKind kind)
{
    switch (kind) {
    case RowKind::Problem:
        return QStringLiteral("problems");
    case RowKind::Kernel:
        return QStringLiteral("kernels");
    case RowKind::Measurement:
        return QStringLiteral("measurements");
    case RowKind::PairLabel:
        return QStringLiteral("pair_labels");
    case RowKind::Forecaster:
        return QStringLiteral("forecasters");
    case RowKind::Forecast:
        return QStringLiteral("forecasts");
    case RowKind::Search:
        return QStringLiteral("searches");
    case RowKind::SearchEvent:
        return QStringLiteral("search_events");
    }
    return {};
}

DeletionRequest DeletionRequest::of(RowKind kind, const QList<RowId> &ids)
{
    DeletionRequest request;
    request.rows.insert(kind, ids);
    return request;
}

bool DeletionRequest::isEmpty() const
{
    for (const QList<RowId> &ids : rows) {
        if (!ids.isEmpty())
            return false;
    }
    return forecastsOfCandidates.isEmpty();
}

qint64 DeletionPlan::count(RowKind kind) const { return deleted.value(tableName(kind)); }
qint64 DeletionPlan::unlinkedCount(RowKind kind) const { return unlinked.value(tableName(kind)); }

qint64 DeletionPlan::total() const
{
    qint64 sum = 0;
    for (qint64 n : deleted)
        sum += n;
    return sum;
}

QList<RowId> DeletedRows::ids(RowKind kind) const
{
    const QString name = tableName(kind);
    for (const CapturedTable &table : tables) {
        if (table.table != name)
            continue;
        const int idColumn = columnIndex(table, QStringLiteral("id"));
        QList<RowId> out;
        out.reserve(table.rows.size());
        for (const QVariantList &row : table.rows)
            out.append(row[idColumn].toLongLong());
        return out;
    }
    return {};
}

DeletionRequest DeletedRows::request() const
{
    DeletionRequest request;
    for (RowKind kind : {RowKind::Problem, RowKind::Kernel, RowKind::Measurement, RowKind::PairLabel,
             RowKind::Forecaster, RowKind::Forecast, RowKind::Search, RowKind::SearchEvent}) {
        const QList<RowId> rows = ids(kind);
        if (!rows.isEmpty())
            request.rows.insert(kind, rows);
    }
    return request;
}

Result<DeletionPlan> planDeletion(Store &store, const DeletionRequest &request)
{
    QSqlDatabase &db = store.database();
    auto schema = readSchema(db);
    if (!schema)
        return Error {schema.error()};
    WriteTransaction transaction(db); // only the temporary table is written; rolled back at the end
    if (Status s = transaction.begin(false); !s)
        return Error {s.error()};
    Closure closure(db, *schema);
    if (Status s = closure.build(request); !s)
        return Error {s.error()};
    auto links = closure.links();
    if (!links)
        return Error {links.error()};
    auto counts = closure.counts();
    if (!counts)
        return Error {counts.error()};
    return planOf(*counts, *links);
}

Result<DeletedRows> deleteRows(Store &store, const DeletionRequest &request)
{
    if (store.isReadOnly())
        return Error {QStringLiteral("the store is open read-only")};
    QSqlDatabase &db = store.database();
    auto schema = readSchema(db);
    if (!schema)
        return Error {schema.error()};
    const ForeignKeysOff keysOff(db);
    WriteTransaction transaction(db);
    if (Status s = transaction.begin(true); !s)
        return Error {s.error()};
    Closure closure(db, *schema);
    if (Status s = closure.build(request); !s)
        return Error {s.error()};
    auto links = closure.links();
    if (!links)
        return Error {links.error()};
    auto counts = closure.counts();
    if (!counts)
        return Error {counts.error()};

    DeletedRows deleted;
    deleted.plan = planOf(*counts, *links);
    deleted.links = *links;
    const QStringList tables = doomedTables(*schema, *counts);
    for (const QString &table : tables) {
        auto captured = capture(db, table);
        if (!captured)
            return Error {captured.error()};
        deleted.tables.append(std::move(*captured));
    }
    for (const ClearedLink &link : std::as_const(deleted.links)) {
        auto done = sql::run(db,
            QStringLiteral("UPDATE %1 SET %2 = NULL WHERE rowid = ?").arg(quoted(link.table), quoted(link.column)),
            {link.rowid});
        if (!done)
            return Error {done.error()};
    }
    for (const CapturedTable &table : std::as_const(deleted.tables)) {
        auto done = sql::run(db,
            QStringLiteral("DELETE FROM %1 WHERE rowid IN (%2)").arg(quoted(table.table), doomedRowsOf(table.table)));
        if (!done)
            return Error {done.error()};
    }
    if (auto done = sql::run(db, QStringLiteral("DELETE FROM temp.gpuf_doomed")); !done)
        return Error {done.error()};
    if (Status s = checkKeys(db); !s)
        return Error {s.error()};
    if (Status s = transaction.commit(); !s)
        return Error {s.error()};
    return deleted;
}

Status restoreRows(Store &store, const DeletedRows &rows)
{
    if (store.isReadOnly())
        return Error {QStringLiteral("the store is open read-only")};
    QSqlDatabase &db = store.database();
    auto schema = readSchema(db);
    if (!schema)
        return Error {schema.error()};
    // Rows refer to each other in both directions (a problem to its reference kernel, a kernel to its problem): the
    // keys are checked once everything is back.
    const ForeignKeysOff keysOff(db);
    WriteTransaction transaction(db);
    if (Status s = transaction.begin(true); !s)
        return s;
    for (const CapturedTable &table : rows.tables) {
        if (Status s = checkConflicts(db, *schema, table); !s)
            return s;
    }
    for (const CapturedTable &table : rows.tables) {
        if (Status s = insertRows(db, table); !s)
            return s;
    }
    for (const ClearedLink &link : rows.links) {
        auto done = sql::run(db,
            QStringLiteral("UPDATE %1 SET %2 = ? WHERE rowid = ?").arg(quoted(link.table), quoted(link.column)),
            {link.value, link.rowid});
        if (!done)
            return Error {done.error()};
    }
    if (Status s = checkKeys(db); !s)
        return Error {QStringLiteral("the deleted rows cannot come back: %1").arg(s.error())};
    if (Status s = transaction.commit(); !s)
        return Error {QStringLiteral("the deleted rows could not be written back (%1)").arg(s.error())};
    return {};
}

} // namespace gpuf
