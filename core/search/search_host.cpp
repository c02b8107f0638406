// SearchHost, appendControlEvent; see search_host.h.
#include "core/search/search_host.h"

#include "core/common/thread_priority.h"
#include "core/search/event_sink.h"
#include "core/search/ulid.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QThread>

namespace gpuf::search {

SearchHost::SearchHost(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<gpuf::search::SearchSnapshot>();
    qRegisterMetaType<gpuf::search::SearchWrites>();
}

SearchHost::~SearchHost()
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
    waitForReleased();
}

void SearchHost::setStorePath(const QString &path)
{
    if (path == m_storePath)
        return;
    releaseAll();
    m_storePath = path;
}

SearchSnapshot SearchHost::snapshot(const QString &name) const { return m_live.value(name).last; }

bool SearchHost::run(const QString &name) { return engineFor(name, true) != nullptr; }

SearchEngine *SearchHost::engineFor(const QString &name, bool start)
{
    if (auto it = m_live.constFind(name); it != m_live.cend())
        return it->engine;
    if (!start || m_storePath.isEmpty())
        return nullptr;
    Live live;
    live.thread = new QThread;
    live.thread->setObjectName(QStringLiteral("gpuf-search"));
    // The engine may write thousands of events a second: it yields a shared core to the GUI thread.
    connect(
        live.thread, &QThread::started, live.thread, [] { lowerCurrentThreadPriority(); }, Qt::DirectConnection);
    live.engine = new SearchEngine(storeRunFactory(m_storePath, name, m_options));
    live.engine->moveToThread(live.thread);
    live.last.name = name;
    live.last.status = RunStatus::Running;
    connect(live.engine, &SearchEngine::snapshotReady, this, [this, name](const SearchSnapshot &s) {
        if (auto it = m_live.find(name); it != m_live.end())
            it->last = s;
        Q_EMIT snapshotChanged(s);
    });
    connect(live.engine, &SearchEngine::stepCompleted, this, &SearchHost::stepCompleted);
    connect(live.engine, &SearchEngine::rowsWritten, this, &SearchHost::rowsWritten);
    connect(live.engine, &SearchEngine::finished, this, [this, name](const SearchSnapshot &s) {
        if (auto it = m_live.find(name); it != m_live.end())
            it->last = s;
        Q_EMIT snapshotChanged(s);
        Q_EMIT halted(s);
        // A finished or stopped search has nothing left to do: its engine goes; a paused one waits for resume().
        if (s.status == RunStatus::Finished || s.status == RunStatus::Stopped)
            release(name);
    });
    connect(live.engine, &SearchEngine::failed, this, [this, name](const QString &message) {
        Q_EMIT failed(name, message);
        release(name);
    });
    connect(live.engine, &SearchEngine::notice, this, &SearchHost::notice);
    live.thread->start();
    m_live.insert(name, live);
    if (const double pace = m_paces.value(name, 0.0); pace > 0.0)
        QMetaObject::invokeMethod(
            live.engine, [engine = live.engine, pace] { engine->setPace(pace); }, Qt::QueuedConnection);
    QMetaObject::invokeMethod(live.engine, &SearchEngine::start, Qt::QueuedConnection);
    return live.engine;
}

template<typename Slot, typename... Args>
void SearchHost::send(const QString &name, Slot slot, Args... args)
{
    SearchEngine *engine = engineFor(name, false);
    if (!engine) {
        Q_EMIT notice(tr("Search %1 is not running here: resume it first.").arg(name));
        return;
    }
    QMetaObject::invokeMethod(
        engine, [engine, slot, args...] { (engine->*slot)(args...); }, Qt::QueuedConnection);
}

void SearchHost::pause(const QString &name) { send(name, &SearchEngine::pause); }

void SearchHost::resume(const QString &name)
{
    engineFor(name, true);
    send(name, &SearchEngine::resume);
}

void SearchHost::stop(const QString &name)
{
    // A paused or interrupted search stops through its engine too, so the event is written by one writer.
    engineFor(name, true);
    send(name, &SearchEngine::stop);
}

void SearchHost::step(const QString &name)
{
    engineFor(name, true);
    send(name, &SearchEngine::singleStep);
}

void SearchHost::pin(const QString &name, const QString &nodeId) { send(name, &SearchEngine::pin, nodeId); }

void SearchHost::unpin(const QString &name, const QString &nodeId) { send(name, &SearchEngine::unpin, nodeId); }

void SearchHost::veto(const QString &name, const QString &nodeId, bool branch)
{
    send(name, branch ? &SearchEngine::vetoBranch : &SearchEngine::veto, nodeId);
}

void SearchHost::unveto(const QString &name, const QString &nodeId) { send(name, &SearchEngine::unveto, nodeId); }

void SearchHost::forceMeasure(const QString &name, const QString &nodeId)
{
    send(name, &SearchEngine::forceMeasure, nodeId);
}

void SearchHost::inject(const QString &name, const Proposal &proposal, const QString &parentId)
{
    send(name, &SearchEngine::inject, proposal, parentId);
}

void SearchHost::changeConfig(const QString &name, const QJsonObject &changes)
{
    send(name, &SearchEngine::changeConfig, changes);
}

void SearchHost::setPace(const QString &name, double stepsPerSecond)
{
    const double pace = stepsPerSecond > 0.0 ? stepsPerSecond : 0.0;
    m_paces.insert(name, pace);
    if (SearchEngine *engine = engineFor(name, false))
        QMetaObject::invokeMethod(
            engine, [engine, pace] { engine->setPace(pace); }, Qt::QueuedConnection);
}

void SearchHost::release(const QString &name)
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

void SearchHost::releaseAll()
{
    const QStringList names = m_live.keys();
    for (const QString &name : names)
        release(name);
}

void SearchHost::waitForReleased()
{
    for (const QPointer<QThread> &thread : std::as_const(m_ending)) {
        if (thread)
            thread->wait();
    }
    m_ending.removeIf([](const QPointer<QThread> &t) { return t.isNull(); });
}

Status appendControlEvent(
    Store &store, RowId searchId, SearchEventKind kind, QJsonObject payload, const std::function<Status()> &extra)
{
    StoreSink sink(store, searchId);
    return sink.transact([&](QList<SearchEvent> &events) -> Status {
        if (extra) {
            if (Status s = extra(); !s)
                return s;
        }
        // Not the run's seeded ids: this process is not the run, and two of its events must not collide.
        const QDateTime now = QDateTime::currentDateTimeUtc();
        payload.insert(QStringLiteral("id"),
            makeUlid(now, QRandomGenerator::global()->generate(), QRandomGenerator::global()->generate64()));
        SearchEvent e;
        e.kind = eventKindName(kind);
        e.time = now;
        e.payload = payload;
        events.append(e);
        return {};
    });
}

} // namespace gpuf::search
