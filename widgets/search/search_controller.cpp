// SearchController; see search_controller.h.
#include "widgets/search/search_controller.h"

#include "core/session/store_session.h"
#include "core/store/store.h"

namespace gpuf {

using search::SearchHost;

SearchController::SearchController(StoreSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    // Engines run against one store: another store (or none) ends them; a refresh of the same one does not.
    connect(m_session, &StoreSession::opening, this, [this](const QString &path) {
        if (path != m_host.storePath())
            shutdownAll();
    });
    connect(m_session, &StoreSession::closed, this, &SearchController::shutdownAll);
    connect(&m_host, &SearchHost::snapshotChanged, this, &SearchController::snapshotChanged);
    connect(&m_host, &SearchHost::stepCompleted, this, &SearchController::stepCompleted);
    connect(&m_host, &SearchHost::halted, this, &SearchController::searchHalted);
    connect(&m_host, &SearchHost::engineGone, this, &SearchController::engineGone);
    connect(&m_host, &SearchHost::failed, this, &SearchController::failed);
    connect(&m_host, &SearchHost::notice, this, &SearchController::notice);
    connect(&m_host, &SearchHost::rowsWritten, this, &SearchController::announceWrites);
}

SearchController::~SearchController() = default;

void SearchController::create(const QString &name, const search::SearchConfig &config, SearchStart start)
{
    if (!m_session->isOpen()) {
        Q_EMIT failed(name, tr("Open a store first: a search is stored in it."));
        return;
    }
    const QString path = m_session->path();
    m_session->beginWork(tr("Preparing search %1…").arg(name));
    m_session->write<RowId>(
        [name, config, options = m_options](
            Store &store) -> Result<RowId> { return search::createSearch(store, name, config, options); },
        this,
        [this, name, path, start](const Result<RowId> &id) {
            m_session->endWork();
            if (!id) {
                Q_EMIT failed(name, id.error());
                return;
            }
            if (path != m_session->path())
                return; // the store changed meanwhile: the search waits there, interrupted
            Q_EMIT searchCreated(name);
            m_host.setPace(name, start.pace);
            run(name);
            // Queued behind the engine's start: the pause is written before the first step begins.
            if (start.paused)
                m_host.pause(name);
        });
}

bool SearchController::attachStore()
{
    if (!m_session->isOpen())
        return false;
    m_host.setStorePath(m_session->path());
    return true;
}

void SearchController::run(const QString &name)
{
    if (attachStore())
        m_host.run(name);
}

void SearchController::pause(const QString &name) { m_host.pause(name); }

void SearchController::resume(const QString &name)
{
    if (attachStore())
        m_host.resume(name);
}

void SearchController::stop(const QString &name)
{
    if (attachStore())
        m_host.stop(name);
}

void SearchController::step(const QString &name)
{
    if (attachStore())
        m_host.step(name);
}

void SearchController::announceWrites(const search::SearchWrites &writes)
{
    using Kind = StoreChange::Kind;
    if (!m_session->isOpen() || m_session->path() != m_host.storePath())
        return;
    // The session unites what arrives within its interval: the other docks patch or add rows at most that often.
    m_session->announce(StoreChange::of(Kind::Searches, {writes.searchId}, writes.kernels));
    if (!writes.forecastKernels.isEmpty())
        m_session->announce(StoreChange::of(Kind::Forecasts, writes.forecastKernels));
    if (!writes.measuredKernels.isEmpty())
        m_session->announce(StoreChange::of(Kind::Measurements, writes.measuredKernels));
}

void SearchController::shutdownAll() { m_host.releaseAll(); }

} // namespace gpuf
