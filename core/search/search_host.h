// SearchHost: the search engines of one store and their threads, owned in one place — beside MeasureQueue and the
// forecast queue — for the explorer and the command line alike. Each search runs in a SearchEngine on its own QThread
// (DESIGN §8) at a lowered priority; the host starts, pauses, resumes, stops and single-steps them, relays the steering
// acts (each becomes an event in the search's log, written by its engine) and tells its users, by signals, what every
// engine reports. A finished, stopped or failed search's engine goes; a paused one stays until resume() or release().
// A process that does not run a search appends its control events with appendControlEvent(), never by hand.
#pragma once

#include "core/search/search_engine.h"
#include "core/search/search_setup.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>

class QThread;

namespace gpuf {
class Store;
}

namespace gpuf::search {

class SearchHost : public QObject
{
    Q_OBJECT

public:
    explicit SearchHost(QObject *parent = nullptr);
    // Shuts every engine down and waits for its thread (requests in flight are re-dispatched by the next resume).
    ~SearchHost() override;

    // The store the engines run against; another path releases the engines of the old one.
    void setStorePath(const QString &path);
    QString storePath() const { return m_storePath; }
    // Options every run gets (the cost model's file, the local GPU's measurement queue).
    void setSetupOptions(const SetupOptions &options) { m_options = options; }

    // Runs a stored search: its engine folds the log, re-dispatches what was in flight and goes on. An interrupted
    // search continues where its log ends; a paused one stays paused until resume(). False without a store path.
    bool run(const QString &name);
    bool isRunning(const QString &name) const { return m_live.contains(name); }
    QStringList runningSearches() const { return m_live.keys(); }
    // The last figures the search's engine reported; empty when none runs it.
    SearchSnapshot snapshot(const QString &name) const;

    // Control. resume(), stop() and step() start the engine first when none runs the search (so that its events are
    // written by one writer).
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
    void inject(const QString &name, const Proposal &proposal, const QString &parentId);
    void changeConfig(const QString &name, const QJsonObject &changes);
    // At most `stepsPerSecond` steps a second for the search (0: as fast as it runs): sent to its engine when one runs
    // it, kept for one started later (a resume) while this host lives.
    void setPace(const QString &name, double stepsPerSecond);
    double pace(const QString &name) const { return m_paces.value(name, 0.0); }

    // Ends the search's engine without waiting (engineGone() follows at once); its thread winds down on its own.
    void release(const QString &name);
    void releaseAll();
    // Blocks until every released engine's thread has ended (a process about to exit).
    void waitForReleased();

Q_SIGNALS:
    void snapshotChanged(const gpuf::search::SearchSnapshot &snapshot);
    void stepCompleted(const gpuf::search::SearchSnapshot &snapshot);
    // The engine halted with nothing in flight (finished, stopped or paused).
    void halted(const gpuf::search::SearchSnapshot &snapshot);
    void rowsWritten(const gpuf::search::SearchWrites &writes);
    void engineGone(const QString &name); // no engine runs the search any more
    void failed(const QString &name, const QString &message);
    void notice(const QString &message);

private:
    struct Live
    {
        QThread *thread = nullptr;
        SearchEngine *engine = nullptr;
        SearchSnapshot last;
    };
    SearchEngine *engineFor(const QString &name, bool start);
    template<typename Slot, typename... Args>
    void send(const QString &name, Slot slot, Args... args);

    SetupOptions m_options;
    QString m_storePath;
    QHash<QString, Live> m_live;
    QHash<QString, double> m_paces;
    QList<QPointer<QThread>> m_ending; // released engines' threads, still winding down
};

// Appends one control event (a pause, stop or resume, a configuration change) to the stored search `searchId`'s log,
// in one transaction with `extra` (rows that must change with it), made as a run makes its own events: a process that
// does not run the search (the command line beside a running explorer) tells it so; the running engine folds it in.
Status appendControlEvent(
    Store &store, RowId searchId, SearchEventKind kind, QJsonObject payload, const std::function<Status()> &extra = {});

} // namespace gpuf::search
