// growCandidateTable; see candidate_rows.h.
#include "core/store/candidate_rows.h"

#include "core/store/sql.h"
#include "core/store/store.h"

#include <QSet>

#include <algorithm>

namespace gpuf {
namespace {

// More new kernels than this read the whole table instead.
constexpr qsizetype kMaxAddedRows = 2000;

// `statement` with "(?, …)" for `ids` in place of "(%1)", its ids bound and run.
Result<QSqlQuery> runIn(QSqlDatabase &db, const QString &statement, const QList<RowId> &ids)
{
    auto q = sql::prepare(db, statement.arg(QStringLiteral("?") + QStringLiteral(",?").repeated(ids.size() - 1)));
    if (!q)
        return q.failure();
    for (RowId id : ids)
        q->addBindValue(id);
    if (Status s = sql::exec(*q); !s)
        return s.failure();
    return q;
}

// The rows of the kernels `ids` (ascending, above the table's last id), appended to `table` with empty values.
Status appendKernels(QSqlDatabase &db, CandidateTable &table, const QList<RowId> &ids, bool *unknownProblem)
{
    auto q = runIn(db,
        QStringLiteral("SELECT id, COALESCE(problem_id, 0), COALESCE(parent_id, 0), COALESCE(name, ''), language,"
                       " content_hash, origin, CAST((julianday(created_at) - 2440587.5) * 86400000.0 AS INTEGER)"
                       " FROM kernels WHERE id IN (%1) ORDER BY id"),
        ids);
    if (!q)
        return q.failure();
    while (q->next()) {
        CandidateRow row;
        row.id = q->value(0).toLongLong();
        row.problemId = q->value(1).toLongLong();
        row.parentId = q->value(2).toLongLong();
        row.name = q->value(3).toString();
        row.language = q->value(4).toString();
        row.contentHash = q->value(5).toString();
        row.origin = q->value(6).toString();
        row.createdAtMs = q->value(7).toLongLong();
        row.problemIndex = table.problemIndexOf(row.problemId);
        if (row.problemId != 0 && row.problemIndex < 0)
            *unknownProblem = true; // a problem added since the table was read
        if (row.problemIndex >= 0) {
            row.baselineId = table.problems[row.problemIndex].referenceKernelId;
            row.isReference = row.baselineId == row.id;
        }
        table.rows.append(std::move(row));
    }
    table.measured.resize(table.rows.size() * table.hardware.size());
    table.forecasts.resize(table.rows.size() * table.forecasters.size());
    return {};
}

// The searches `ids` as the table knows them, with the kernels their events name added (a search it does not know
// yet is added too). Labels' members come only with imports, which read the whole table.
Status readSearches(QSqlDatabase &db, CandidateTable &table, const QList<RowId> &ids)
{
    auto searches = runIn(
        db, QStringLiteral("SELECT id, name, COALESCE(problem_id, 0) FROM searches WHERE id IN (%1) ORDER BY id"), ids);
    if (!searches)
        return searches.failure();
    while (searches->next()) {
        const RowId id = searches->value(0).toLongLong();
        if (table.searchIndexOf(id) >= 0)
            continue;
        const CandidateSearch search {id, searches->value(1).toString(), searches->value(2).toLongLong(), {}};
        const auto at = std::lower_bound(table.searches.begin(), table.searches.end(), id,
            [](const CandidateSearch &s, RowId value) { return s.id < value; });
        table.searches.insert(at, search);
    }
    auto events = runIn(db,
        QStringLiteral("SELECT search_id, json_extract(payload_json, '$.kernel_id') FROM search_events"
                       " WHERE search_id IN (%1) AND instr(payload_json, '\"kernel_id\"') > 0"
                       " AND json_valid(payload_json)"),
        ids);
    if (!events)
        return events.failure();
    QHash<int, QList<RowId>> members;
    while (events->next()) {
        const int search = table.searchIndexOf(events->value(0).toLongLong());
        const RowId kernel = events->value(1).toLongLong();
        if (search >= 0 && kernel > 0 && table.rowOf(kernel) >= 0)
            members[search].append(kernel);
    }
    for (auto it = members.begin(); it != members.end(); ++it) {
        QList<RowId> &kernels = table.searches[it.key()].kernelIds;
        kernels.append(it.value());
        std::sort(kernels.begin(), kernels.end());
        kernels.erase(std::unique(kernels.begin(), kernels.end()), kernels.end());
    }
    return {};
}

} // namespace

Result<CandidatePatch> growCandidateTable(Store &store, const CandidateTable &table, const QList<RowId> &kernelIds,
    const QList<RowId> &searchIds, const CancelToken &cancel)
{
    QList<RowId> added;
    for (RowId id : kernelIds) {
        if (table.rowOf(id) < 0)
            added.append(id);
    }
    std::sort(added.begin(), added.end());
    added.erase(std::unique(added.begin(), added.end()), added.end());
    const RowId last = table.rows.isEmpty() ? 0 : table.rows.last().id;
    if (added.size() > kMaxAddedRows || (!added.isEmpty() && added.first() <= last)) {
        CandidatePatch patch;
        patch.reloadAll = true; // a restored kernel, or thousands: read it whole
        return patch;
    }
    if (added.isEmpty() && searchIds.isEmpty())
        return patchCandidateTable(store, table, kernelIds, cancel);

    QSqlDatabase &db = store.database();
    const bool inTransaction = db.transaction(); // the rows and the memberships of one snapshot
    CandidateTable grown = table;
    const qsizetype before = grown.rows.size();
    bool unknownProblem = false;
    Status status = added.isEmpty() ? Status {} : appendKernels(db, grown, added, &unknownProblem);
    if (status && !searchIds.isEmpty() && !cancel.isCancelled())
        status = readSearches(db, grown, searchIds);
    if (inTransaction)
        db.rollback(); // nothing was written
    if (!status)
        return status.failure();
    if (cancel.isCancelled())
        return Error::cancelled();
    if (unknownProblem) {
        CandidatePatch patch;
        patch.reloadAll = true;
        return patch;
    }
    if (grown.rows.size() != before)
        rankCandidateRows(grown); // the new names fall between the others
    if (kernelIds.isEmpty()) {
        CandidatePatch patch; // only memberships changed
        patch.table = std::move(grown);
        return patch;
    }
    // The new rows' values (and the changed ones') are read as a patch of the grown table.
    auto patch = patchCandidateTable(store, grown, kernelIds, cancel);
    if (!patch || patch->reloadAll)
        return patch;
    for (qsizetype row = before; row < patch->table.rows.size(); ++row)
        patch->added.append(int(row));
    return patch;
}

} // namespace gpuf
