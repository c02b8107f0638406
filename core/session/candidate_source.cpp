// CandidateSource; see candidate_source.h.
#include "core/session/candidate_source.h"

#include "core/common/thread_priority.h"
#include "core/session/store_session.h"
#include "core/store/store.h"

#include <algorithm>

namespace gpuf {

CandidateSource::CandidateSource(StoreSession *session, QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<gpuf::CandidateTablePtr>();
    if (!session)
        return;
    connect(session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) { load(snapshot.path); });
    connect(session, &StoreSession::changed, this, &CandidateSource::applyChange);
    connect(session, &StoreSession::closed, this, &CandidateSource::clear);
}

// The jobs hold only values; the members cancel them and wait for them to end.
CandidateSource::~CandidateSource() = default;

void CandidateSource::load(const QString &path)
{
    m_path = path;
    m_patchIds.clear(); // the load reads every row
    m_patchSearches.clear();
    m_patchJob.cancel();
    m_linesJob.cancel();
    m_tableJob.start(
        [path](const CancelToken &cancel) -> Result<CandidateTablePtr> {
            // The session opened and checked the file; this connection only reads.
            lowerCurrentThreadPriority(); // the table's reads yield the core to the GUI thread
            auto store = openReadConnection(path);
            if (!store)
                return store.failure();
            auto table = loadCandidateTable(**store, cancel);
            if (!table)
                return table.failure();
            return std::make_shared<const CandidateTable>(std::move(*table));
        },
        [this](Result<CandidateTablePtr> table) {
            if (!table) {
                Q_EMIT loadFailed(table.error());
                return;
            }
            applyTable(*table);
        });
    Q_EMIT loadingStarted(path);
}

void CandidateSource::clear()
{
    m_tableJob.cancel();
    m_linesJob.cancel();
    m_patchJob.cancel();
    m_patchIds.clear();
    m_patchSearches.clear();
    m_path.clear();
    m_table.reset();
    Q_EMIT cleared();
}

void CandidateSource::applyChange(const StoreChange &change)
{
    if (m_path.isEmpty())
        return;
    bool all = false;
    const QList<RowId> ids = change.affectedKernels(&all);
    // A new forecaster is a new slot in every row: the table is read whole. New kernels are appended as rows, search
    // events change which kernels belong to a search, measurements and forecasts touch only their kernels' rows.
    if (all || change.kind == StoreChange::Kind::Forecasters || !m_table || isLoading()) {
        load(m_path); // a load still running may have read the store before this write
        return;
    }
    for (RowId id : ids) {
        if (!m_patchIds.contains(id))
            m_patchIds.append(id);
    }
    if (change.kind == StoreChange::Kind::Searches && !change.kernelIds.isEmpty()) { // events naming no kernel: none
        for (RowId id : change.ids) {
            if (!m_patchSearches.contains(id))
                m_patchSearches.append(id);
        }
    }
    if (m_patchIds.isEmpty() && m_patchSearches.isEmpty())
        return;
    startPatch();
}

void CandidateSource::applyTable(const CandidateTablePtr &table)
{
    m_table = table;
    Q_EMIT tableLoaded(m_table);
    startChangedLines();
}

void CandidateSource::startChangedLines()
{
    m_linesJob.start(
        [path = m_path, table = m_table, known = m_lineCache](const CancelToken &cancel) -> Result<Lines> {
            lowerCurrentThreadPriority(); // the table's reads yield the core to the GUI thread
            auto store = openReadConnection(path);
            if (!store)
                return store.failure();
            auto lines = computeChangedLines(**store, *table, known, cancel);
            if (!lines)
                return lines.failure();
            // The copy is made here, not on the GUI thread: only the rows are copied, the cells stay shared.
            auto updated = std::make_shared<CandidateTable>(*table);
            for (qsizetype i = 0; i < updated->rows.size(); ++i)
                updated->rows[i].changedLines = lines->perRow.value(i, -1);
            return Lines {std::move(updated), std::move(lines->computed)};
        },
        [this, base = m_table](Result<Lines> lines) { applyChangedLines(base, std::move(lines)); });
}

void CandidateSource::applyChangedLines(const CandidateTablePtr &base, Result<Lines> lines)
{
    if (!lines) {
        Q_EMIT loadFailed(tr("Lines changed could not be computed: %1").arg(lines.error()));
        return;
    }
    m_lineCache.insert(lines->computed);
    if (base != m_table) {
        startChangedLines(); // rows were patched meanwhile: count on the patched table (the cache has the counts)
        return;
    }
    m_table = lines->table;
    Q_EMIT tableUpdated(m_table);
}

void CandidateSource::startPatch()
{
    m_patchJob.start(
        [path = m_path, table = m_table, ids = m_patchIds, searches = m_patchSearches](
            const CancelToken &cancel) -> Result<Patched> {
            lowerCurrentThreadPriority(); // the table's reads yield the core to the GUI thread
            auto store = openReadConnection(path);
            if (!store)
                return store.failure();
            auto patch = growCandidateTable(**store, *table, ids, searches, cancel);
            if (!patch)
                return patch.failure();
            return Patched {std::move(*patch), ids, searches};
        },
        [this, base = m_table](Result<Patched> patched) { applyPatch(base, std::move(patched)); });
}

void CandidateSource::applyPatch(const CandidateTablePtr &base, Result<Patched> patched)
{
    if (!patched) {
        Q_EMIT loadFailed(patched.error());
        return;
    }
    if (patched->patch.reloadAll) {
        load(m_path);
        return;
    }
    if (base != m_table) {
        startPatch(); // the changed-line counts arrived meanwhile: patch the table that has them
        return;
    }
    m_patchIds.removeIf([&patched](RowId id) { return patched->ids.contains(id); });
    m_patchSearches.removeIf([&patched](RowId id) { return patched->searches.contains(id); });
    auto table = std::make_shared<const CandidateTable>(std::move(patched->patch.table));
    m_table = table;
    const bool baselineChanged = std::any_of(patched->patch.rows.cbegin(), patched->patch.rows.cend(),
        [&table](int row) { return table->rows[row].changedLines < 0 && table->rows[row].baselineId != 0; });
    Q_EMIT rowsPatched(m_table, patched->patch.rows);
    if (baselineChanged && !m_linesJob.isRunning())
        startChangedLines(); // only the new pairs are diffed: the others are in the cache
}

void CandidateSource::setPendingIds(const QSet<RowId> &ids)
{
    if (ids == m_pending)
        return;
    m_pending = ids;
    Q_EMIT pendingIdsChanged(m_pending);
}

} // namespace gpuf
