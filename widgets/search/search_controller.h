// SearchController: runs the open store's searches from the explorer, through core's SearchHost (which owns the engines
// and their threads, as it does for `gpuf search`): it points the host at the session's store, creates searches
// through the session's writer, and turns what the engines write into the session's typed changes, so the store's
// other views follow. A search whose log ends mid-search and that no engine here runs is interrupted; run() resumes it.
#pragma once

#include "core/search/search_host.h"

#include <QObject>

namespace gpuf {

class StoreSession;

// How a new search starts: at most `pace` steps a second (0: as fast as it runs), or paused before its first step.
struct SearchStart
{
    double pace = 0.0;
    bool paused = false;
};

class SearchController : public QObject
{
    Q_OBJECT

public:
    explicit SearchController(StoreSession *session, QObject *parent = nullptr);
    // Shuts every engine down and waits for its thread (requests in flight are re-dispatched by the next resume).
    ~SearchController() override;

    // Options every run gets (the cost model's file, the local GPU's measurement queue).
    void setSetupOptions(const search::SetupOptions &options)
    {
        m_options = options;
        m_host.setSetupOptions(options);
    }

    // Creates the search in the background — every check first, nothing written when one fails — then runs it as
    // `start` says. searchCreated() or failed() follows.
    void create(const QString &name, const gpuf::search::SearchConfig &config, SearchStart start = {});
    // Runs a stored search: its engine folds the log, re-dispatches what was in flight and goes on. An interrupted
    // search continues where its log ends; a paused one stays paused until resume().
    void run(const QString &name);

    bool isRunning(const QString &name) const { return m_host.isRunning(name); }
    QStringList runningSearches() const { return m_host.runningSearches(); }
    // The last figures the search's engine reported; empty when none runs it.
    search::SearchSnapshot snapshot(const QString &name) const { return m_host.snapshot(name); }
    search::SearchHost *host() { return &m_host; }

    // Control. resume() and step() start the engine first when none runs the search.
    void pause(const QString &name);
    void resume(const QString &name);
    void stop(const QString &name);
    void step(const QString &name);

    // Steering (refused acts come back as notice()).
    void pin(const QString &name, const QString &nodeId) { m_host.pin(name, nodeId); }
    void unpin(const QString &name, const QString &nodeId) { m_host.unpin(name, nodeId); }
    void veto(const QString &name, const QString &nodeId, bool branch) { m_host.veto(name, nodeId, branch); }
    void unveto(const QString &name, const QString &nodeId) { m_host.unveto(name, nodeId); }
    void forceMeasure(const QString &name, const QString &nodeId) { m_host.forceMeasure(name, nodeId); }
    void inject(const QString &name, const gpuf::search::Proposal &proposal, const QString &parentId)
    {
        m_host.inject(name, proposal, parentId);
    }
    void changeConfig(const QString &name, const QJsonObject &changes) { m_host.changeConfig(name, changes); }
    // Steps a second at most for the search (0: as fast as it runs), now and when it resumes.
    void setPace(const QString &name, double stepsPerSecond) { m_host.setPace(name, stepsPerSecond); }
    double pace(const QString &name) const { return m_host.pace(name); }

    // Stops every engine without waiting (a store closing or another one opening).
    void shutdownAll();

Q_SIGNALS:
    void searchCreated(const QString &name);
    void snapshotChanged(const gpuf::search::SearchSnapshot &snapshot);
    void stepCompleted(const gpuf::search::SearchSnapshot &snapshot);
    // The engine halted with nothing in flight (finished, stopped or paused): the store's other views may read again.
    void searchHalted(const gpuf::search::SearchSnapshot &snapshot);
    void engineGone(const QString &name); // no engine runs the search any more
    void failed(const QString &name, const QString &message);
    void notice(const QString &message);

private:
    // Points the host at the session's store (another store releases the engines of the old one).
    bool attachStore();
    // Tells the session what a running engine wrote (kernels, forecasts, measurements, search events).
    void announceWrites(const gpuf::search::SearchWrites &writes);

    StoreSession *m_session;
    search::SetupOptions m_options;
    search::SearchHost m_host;
};

} // namespace gpuf
