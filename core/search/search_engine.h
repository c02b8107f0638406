// The search engine: a QObject living on its own QThread (DESIGN §8), driven by queued calls (start, pause, resume,
// stop, single step, steering acts) and reporting immutable snapshots, at most ~10 per second. It owns one SearchRun,
// built on the engine's thread by a factory (a store connection belongs to the thread that opened it).
#pragma once

#include "core/search/run_status.h"
#include "core/search/search_run.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace gpuf::search {

// What a view or the command line shows of a search at one moment.
struct SearchSnapshot
{
    QString name;
    QString mode;
    RunStatus status = RunStatus::Running;
    QString error;
    int step = 0; // completed steps
    int steps = 0; // the budget
    int gpuEvaluations = 0; // evaluations that ran (any feedback); the three below as SearchState counts them
    int unsuccessfulEvaluations = 0;
    int evaluationFailures = 0;
    int replayedEvaluations = 0;
    int reusedEvaluations = 0; // answered by the same binary's measurement on this GPU: not GPU evaluations
    int forecasts = 0;
    int forecastFailures = 0;
    int deferred = 0;
    int queued = 0;
    int archiveSize = 0;
    qint64 events = 0;
    std::optional<double> bestSpeedup;
    QString bestNode;
    RowId bestKernelId = 0;
    QString bestContentHash;
    QString finishReason; // when finished: "the step budget is spent", or why the proposals ran out
    bool exhausted = false; // it finished because its source of proposals ran out
};

SearchSnapshot snapshotOf(const SearchState &state, const QString &error = {});

class SearchEngine : public QObject
{
    Q_OBJECT

public:
    using Factory = std::function<Result<std::unique_ptr<SearchRun>>()>;
    explicit SearchEngine(Factory factory, QObject *parent = nullptr);
    ~SearchEngine() override;

    // For callers on the engine's own thread (tests); others use snapshotReady().
    SearchSnapshot snapshot() const;

public Q_SLOTS:
    void start(); // builds the run, folds its log, re-dispatches open requests, runs
    void pause();
    void resume();
    void stop();
    void singleStep(); // resumes until the current (or next) step completes, then pauses
    void pin(const QString &nodeId);
    void unpin(const QString &nodeId);
    void veto(const QString &nodeId);
    void vetoBranch(const QString &nodeId); // the node and every descendant
    void unveto(const QString &nodeId);
    void forceMeasure(const QString &nodeId);
    void inject(const gpuf::search::Proposal &proposal, const QString &parentId);
    void changeConfig(const QJsonObject &changes);
    // At most this many steps a second (a replay answers in microseconds: paced, a person can watch it); 0 or less: as
    // fast as the run goes. Applied by a timer between steps — no thread waits — and changeable while it runs.
    void setPace(double stepsPerSecond);
    void shutdown(); // drops the run (in-flight requests are re-dispatched by the next resume); shutDown() follows

Q_SIGNALS:
    void snapshotReady(const gpuf::search::SearchSnapshot &snapshot);
    // The rows the run wrote since the last report (sent with the snapshots, so at most ~10 a second).
    void rowsWritten(const gpuf::search::SearchWrites &writes);
    void stepCompleted(const gpuf::search::SearchSnapshot &snapshot); // once per completed step, never throttled
    void failed(const QString &message);
    void notice(const QString &message); // a steering act that was refused, with why
    void finished(const gpuf::search::SearchSnapshot &snapshot); // finished, stopped or paused with nothing in flight
    void shutDown();

private:
    void schedulePump();
    void runPump();
    void act(const std::function<Status(SearchRun &)> &action);
    void fail(const QString &message);
    void report();
    void reportWrites();
    // Whether the pace holds the next step back now (a pause, stop or the end is never held).
    bool paceHolds() const;
    void holdForPace();

    Factory m_factory;
    std::unique_ptr<SearchRun> m_run;
    QString m_error;
    bool m_pumpQueued = false;
    int m_pauseAfterStep = -1; // single step: pause once this many steps are complete
    QTimer m_snapshotTimer;
    QTimer m_pollTimer; // while answers are awaited: looks for events other processes appended (pause, stop)
    QElapsedTimer m_sinceSnapshot;
    double m_pace = 0.0; // steps per second at most; 0: unpaced
    QTimer m_paceTimer; // single shot: runs while the next step waits for the pace
    QElapsedTimer m_sinceStep; // since the last step completed
    bool m_dirty = false;
    bool m_reportedEnd = false;
};

} // namespace gpuf::search

Q_DECLARE_METATYPE(gpuf::search::SearchSnapshot)
Q_DECLARE_METATYPE(gpuf::search::SearchWrites)
Q_DECLARE_METATYPE(gpuf::search::Proposal)
