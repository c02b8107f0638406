// SearchController; see search_controller.h.
#include "widgets/search/search_controller.h"

#include "core/common/thread_priority.h"
#include "core/session/store_session.h"
#include "core/store/store.h"

#include <QThread>

namespace gpuf {

using search::SearchEngine;
using search::SearchSnapshot;

SearchController::SearchController(StoreSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    qRegisterMetaType<gpuf::search::SearchSnapshot>();
    // Engines run against one store: another store (or none) ends them; a refresh of the same one does not.
    connect(m_session, &StoreSession::opening, this, [this](const QString &path) {
        if (path != m_storePath)
            shutdownAll();
    });
    connect(m_session, &StoreSession::closed, this, &SearchController::shutdownAll);
}

SearchController::~SearchController()
{
    for (const Live &live : std::as_const(m_live)) {
        // The engine's thread finishes its current action (one at a time), then drops the run.
        QMetaObject::invokeMethod(live.engine, &SearchEngine::shutdown, Qt::BlockingQueuedConnection);
        // Deleted on its own thread as that thread ends (its timers belong there).
        live.engine->deleteLater();
        live.thread->quit();
        live.thread->wait();
        delete live.thread;
    }
    for (const QPointer<QThread> &thread : std::as_const(m_ending)) {
        if (thread)
            thread->wait();
    }
}

SearchSnapshot SearchController::snapshot(const QString &name) const { return m_live.value(name).last; }

void SearchController::create(const QString &name, const search::SearchConfig &config)
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
        [this, name, path](const Result<RowId> &id) {
            m_session->endWork();
            if (!id) {
                Q_EMIT failed(name, id.error());
                return;
            }
            if (path != m_session->path())
                return; // the store changed meanwhile: the search waits there, interrupted
            Q_EMIT searchCreated(name);
            run(name);
        });
}

void SearchController::run(const QString &name) { engineFor(name, true); }

SearchEngine *SearchController::engineFor(const QString &name, bool start)
{
    if (auto it = m_live.constFind(name); it != m_live.cend())
        return it->engine;
    if (!start || !m_session->isOpen())
        return nullptr;
    m_storePath = m_session->path();
    Live live;
    live.thread = new QThread;
    live.thread->setObjectName(QStringLiteral("gpuf-search"));
    // The engine may write thousands of events a second: it yields a shared core to the GUI thread.
    connect(
        live.thread, &QThread::started, live.thread, [] { lowerCurrentThreadPriority(); }, Qt::DirectConnection);
    live.engine = new SearchEngine(search::storeRunFactory(m_storePath, name, m_options));
    live.engine->moveToThread(live.thread);
    live.last.name = name;
    live.last.status = search::RunStatus::Running;
    connect(live.engine, &SearchEngine::snapshotReady, this, [this, name](const SearchSnapshot &s) {
        if (auto it = m_live.find(name); it != m_live.end())
            it->last = s;
        Q_EMIT snapshotChanged(s);
    });
    connect(live.engine, &SearchEngine::stepCompleted, this, &SearchController::stepCompleted);
    connect(live.engine, &SearchEngine::rowsWritten, this, &SearchController::announceWrites);
    connect(live.engine, &SearchEngine::finished, this, [this, name](const SearchSnapshot &s) {
        if (auto it = m_live.find(name); it != m_live.end())
            it->last = s;
        Q_EMIT snapshotChanged(s);
        Q_EMIT searchHalted(s);
        // A finished or stopped search has nothing left to do: its engine goes; a paused one waits for resume().
        if (s.status == search::RunStatus::Finished || s.status == search::RunStatus::Stopped)
            release(name);
    });
    connect(live.engine, &SearchEngine::failed, this, [this, name](const QString &message) {
        Q_EMIT failed(name, message);
        release(name);
    });
    connect(live.engine, &SearchEngine::notice, this, &SearchController::notice);
    live.thread->start();
    m_live.insert(name, live);
    QMetaObject::invokeMethod(live.engine, &SearchEngine::start, Qt::QueuedConnection);
    return live.engine;
}

template<typename Slot, typename... Args>
void SearchController::send(const QString &name, Slot slot, Args... args)
{
    SearchEngine *engine = engineFor(name, false);
    if (!engine) {
        Q_EMIT notice(tr("Search %1 is not running here: resume it first.").arg(name));
        return;
    }
    QMetaObject::invokeMethod(
        engine, [engine, slot, args...] { (engine->*slot)(args...); }, Qt::QueuedConnection);
}

void SearchController::pause(const QString &name) { send(name, &SearchEngine::pause); }

void SearchController::resume(const QString &name)
{
    engineFor(name, true);
    send(name, &SearchEngine::resume);
}

void SearchController::stop(const QString &name)
{
    if (!isRunning(name)) {
        // A paused or interrupted search stops through its engine too, so the event is written by one writer.
        engineFor(name, true);
    }
    send(name, &SearchEngine::stop);
}

void SearchController::step(const QString &name)
{
    engineFor(name, true);
    send(name, &SearchEngine::singleStep);
}

void SearchController::pin(const QString &name, const QString &nodeId) { send(name, &SearchEngine::pin, nodeId); }

void SearchController::unpin(const QString &name, const QString &nodeId) { send(name, &SearchEngine::unpin, nodeId); }

void SearchController::veto(const QString &name, const QString &nodeId, bool branch)
{
    send(name, branch ? &SearchEngine::vetoBranch : &SearchEngine::veto, nodeId);
}

void SearchController::unveto(const QString &name, const QString &nodeId) { send(name, &SearchEngine::unveto, nodeId); }

void SearchController::forceMeasure(const QString &name, const QString &nodeId)
{
    send(name, &SearchEngine::forceMeasure, nodeId);
}

void SearchController::inject(const QString &name, const search::Proposal &proposal, const QString &parentId)
{
    send(name, &SearchEngine::inject, proposal, parentId);
}

void SearchController::changeConfig(const QString &name, const QJsonObject &changes)
{
    send(name, &SearchEngine::changeConfig, changes);
}

void SearchController::announceWrites(const search::SearchWrites &writes)
{
    using Kind = StoreChange::Kind;
    if (!m_session->isOpen() || m_session->path() != m_storePath)
        return;
    // The session unites what arrives within its interval: the other docks patch or add rows at most that often.
    m_session->announce(StoreChange::of(Kind::Searches, {writes.searchId}, writes.kernels));
    if (!writes.forecastKernels.isEmpty())
        m_session->announce(StoreChange::of(Kind::Forecasts, writes.forecastKernels));
    if (!writes.measuredKernels.isEmpty())
        m_session->announce(StoreChange::of(Kind::Measurements, writes.measuredKernels));
}

void SearchController::release(const QString &name)
{
    auto it = m_live.find(name);
    if (it == m_live.end())
        return;
    const Live live = *it;
    m_live.erase(it);
    // Asynchronous: the engine's thread drops the run, then ends; both objects go once it has.
    connect(live.engine, &SearchEngine::shutDown, live.thread, &QThread::quit, Qt::DirectConnection); // thread-safe
    connect(live.thread, &QThread::finished, live.engine, &QObject::deleteLater);
    connect(live.thread, &QThread::finished, live.thread, &QObject::deleteLater);
    m_ending.removeIf([](const QPointer<QThread> &t) { return t.isNull(); });
    m_ending.append(live.thread);
    QMetaObject::invokeMethod(live.engine, &SearchEngine::shutdown, Qt::QueuedConnection);
    Q_EMIT engineGone(name);
}

void SearchController::shutdownAll()
{
    const QStringList names = m_live.keys();
    for (const QString &name : names)
        release(name);
}

} // namespace gpuf
