// CandidateSource; see candidate_source.h.
#include "widgets/candidates/candidate_source.h"

#include "core/session/store_session.h"
#include "core/store/store.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {

CandidateSource::CandidateSource(StoreSession *session, QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<gpuf::CandidateTablePtr>();
    if (!session)
        return;
    connect(session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) { load(snapshot.path); });
    connect(session, &StoreSession::changed, this, [this, session] { load(session->path()); });
    connect(session, &StoreSession::closed, this, &CandidateSource::clear);
}

CandidateSource::~CandidateSource()
{
    cancelRunning(); // the jobs hold only values; they end early and their results are dropped
}

void CandidateSource::cancelRunning()
{
    m_cancel.cancel();
    m_cancel = CancelToken::create();
}

void CandidateSource::load(const QString &path)
{
    cancelRunning();
    const quint64 generation = ++m_generation;
    m_path = path;
    m_loading = true;
    m_changedLinesPending = false;
    Q_EMIT loadingStarted(path);
    auto *watcher = new QFutureWatcher<TableResult>(this);
    connect(watcher, &QFutureWatcher<TableResult>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        applyTable(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([path, generation, cancel = m_cancel]() {
        TableResult result;
        result.generation = generation;
        // The session opened and checked the file; this connection only reads.
        auto store = Store::open(path, Store::Mode::ReadOnly, Store::Check::Header);
        if (!store) {
            result.error = store.error();
            return result;
        }
        auto table = loadCandidateTable(**store, cancel);
        if (!table)
            result.error = table.error();
        else
            result.table = std::make_shared<const CandidateTable>(std::move(*table));
        return result;
    }));
}

void CandidateSource::clear()
{
    cancelRunning();
    ++m_generation;
    m_path.clear();
    m_table.reset();
    m_loading = false;
    m_changedLinesPending = false;
    Q_EMIT cleared();
}

void CandidateSource::applyTable(const TableResult &result)
{
    if (result.generation != m_generation)
        return; // a newer request replaced this one
    m_loading = false;
    if (!result.error.isEmpty()) {
        Q_EMIT loadFailed(result.error);
        return;
    }
    m_table = result.table;
    Q_EMIT tableLoaded(m_table);
    startChangedLines(result.generation);
}

void CandidateSource::startChangedLines(quint64 generation)
{
    m_changedLinesPending = true;
    auto *watcher = new QFutureWatcher<LinesResult>(this);
    connect(watcher, &QFutureWatcher<LinesResult>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        applyChangedLines(watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run([path = m_path, table = m_table, known = m_lineCache, generation, cancel = m_cancel]() {
            LinesResult result;
            result.generation = generation;
            auto store = Store::open(path, Store::Mode::ReadOnly, Store::Check::Header);
            if (!store) {
                result.error = store.error();
                return result;
            }
            auto lines = computeChangedLines(**store, *table, known, cancel);
            if (!lines) {
                result.error = lines.error();
                return result;
            }
            // The copy is made here, not on the GUI thread: only the rows are copied, the cells stay shared.
            auto updated = std::make_shared<CandidateTable>(*table);
            for (qsizetype i = 0; i < updated->rows.size(); ++i)
                updated->rows[i].changedLines = lines->perRow.value(i, -1);
            result.table = std::move(updated);
            result.computed = std::move(lines->computed);
            return result;
        }));
}

void CandidateSource::applyChangedLines(const LinesResult &result)
{
    if (result.generation != m_generation || !m_table)
        return;
    m_changedLinesPending = false;
    if (!result.error.isEmpty()) {
        Q_EMIT loadFailed(tr("Lines changed could not be computed: %1").arg(result.error));
        return;
    }
    m_lineCache.insert(result.computed);
    m_table = result.table;
    Q_EMIT tableUpdated(m_table);
}

void CandidateSource::setPendingIds(const QSet<RowId> &ids)
{
    if (ids == m_pending)
        return;
    m_pending = ids;
    Q_EMIT pendingIdsChanged(m_pending);
}

} // namespace gpuf
