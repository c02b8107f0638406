// SearchController: runs the open store's searches from the explorer. Each search runs in a SearchEngine on its own
// QThread (DESIGN §8); the controller starts, pauses, resumes, stops and single-steps them, relays the steering acts
// (each becomes an event in the search's log) and tells the views, by signals, what every running engine reports.
// A search whose log ends mid-search and that no engine of this controller runs is interrupted; run() resumes it.
// What the engines write reaches the store's other views as the session's typed changes.
#pragma once

#include "core/search/search_engine.h"
#include "core/search/search_setup.h"

#include <QHash>
#include <QObject>
#include <QPointer>

class QThread;

namespace gpuf {

class StoreSession;

class SearchController : public QObject
{
    Q_OBJECT

public:
    explicit SearchController(StoreSession *session, QObject *parent = nullptr);
    // Shuts every engine down and waits for its thread (requests in flight are re-dispatched by the next resume).
    ~SearchController() override;

    // Options every run gets (the cost model's file, the local GPU's measurement queue).
    void setSetupOptions(const search::SetupOptions &options) { m_options = options; }

    // Creates the search in the background — every check first, nothing written when one fails — then runs it.
    // searchCreated() or failed() follows.
    void create(const QString &name, const gpuf::search::SearchConfig &config);
    // Runs a stored search: its engine folds the log, re-dispatches what was in flight and goes on. An interrupted
    // search continues where its log ends; a paused one stays paused until resume().
    void run(const QString &name);

    bool isRunning(const QString &name) const { return m_live.contains(name); }
    QStringList runningSearches() const { return m_live.keys(); }
    // The last figures the search's engine reported; empty when none runs it.
    search::SearchSnapshot snapshot(const QString &name) const;

    // Control. resume() and step() start the engine first when none runs the search.
    void pause(const QString &name);
    void resume(const QString &name);
    void stop(const QString &name);
    void step(const QString &name);

    // Steering (refused acts come back as notice()).
    void pin(const QString &name, const QString &nodeId);
    void unpin(const QString &name, const QString &nodeId);
    void veto(const QString &name, const QString &nodeId, bool branch);
    void unveto(const QString &name, const QString &nodeId);
    void forceMeasure(const QString &name, const QString &nodeId);
    void inject(const QString &name, const gpuf::search::Proposal &proposal, const QString &parentId);
    void changeConfig(const QString &name, const QJsonObject &changes);

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
    struct Live
    {
        QThread *thread = nullptr;
        search::SearchEngine *engine = nullptr;
        search::SearchSnapshot last;
    };
    search::SearchEngine *engineFor(const QString &name, bool start);
    template<typename Slot, typename... Args>
    void send(const QString &name, Slot slot, Args... args);
    void release(const QString &name);
    // Tells the session what a running engine wrote (kernels, forecasts, measurements, search events).
    void announceWrites(const gpuf::search::SearchWrites &writes);

    StoreSession *m_session;
    search::SetupOptions m_options;
    QString m_storePath; // the store the engines run against
    QHash<QString, Live> m_live;
    QList<QPointer<QThread>> m_ending; // released engines' threads, still winding down
};

} // namespace gpuf
