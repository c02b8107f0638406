// One search being run: the state folded from its log, its mutator, evaluator and forecaster, and the loop that
// decides the next action, commits its events and only then dispatches the work they ask for (DESIGN §7). Single
// threaded: the owner (SearchEngine on its thread, or a test) calls pump() whenever answers may have arrived; the
// sources may answer from any thread, the answers wait in an inbox until the next pump().
#pragma once

#include "core/search/candidate_forecaster.h"
#include "core/search/evaluator.h"
#include "core/search/event_sink.h"
#include "core/search/search_state.h"

#include <QMutex>

#include <memory>
#include <variant>

namespace gpuf::search {

struct RunParts
{
    std::unique_ptr<Mutator> mutator;
    std::unique_ptr<Evaluator> evaluator;
    std::unique_ptr<CandidateForecaster> forecaster; // surrogate and selective modes
    Problem problem;
    Kernel reference;
};

// A seed of the archive: the problem's reference (reward 1 by definition) or a mutator's seed (measured first).
struct SeedSpec
{
    Proposal proposal;
    RowId kernelId = 0;
    std::optional<double> reward;
};

// What a run appended to the store between two looks (SearchRun::takeWrites): the rows its events name, so the
// store's other views patch or add those rows.
struct SearchWrites
{
    RowId searchId = 0;
    qint64 events = 0; // events appended
    QList<RowId> kernels; // kernels its events name (proposed, injected, seeds): new rows, or new search members
    QList<RowId> forecastKernels; // kernels a stored forecast was made for
    QList<RowId> measuredKernels; // kernels evaluated (measured, or replayed from stored runtimes)

    bool isEmpty() const { return events == 0; }
};

class SearchRun
{
public:
    SearchRun(std::unique_ptr<EventSink> sink, RunParts parts);
    ~SearchRun();

    // Writes a new search's first events (search_initialized and, for an unmeasured seed, its evaluation request) to
    // `sink`. The sink's search must have no events yet.
    static Status initialize(EventSink &sink, const QString &name, const SearchConfig &config,
        const QList<SeedSpec> &seeds, const QDateTime &now = QDateTime::currentDateTimeUtc());
    // The same events, for a caller that writes them inside its own transaction.
    static QList<SearchEvent> initialEvents(
        const QString &name, const SearchConfig &config, const QList<SeedSpec> &seeds, const QDateTime &now);

    // Folds the log written so far (a fresh search's first events, or an interrupted one's whole log), prepares the
    // mutator and re-dispatches every request still open. A corrupt event stops here with its message.
    Status open();
    // Processes the answers that arrived, then acts until the search must wait (or is paused, stopped, finished), or
    // until `maxActions` actions were taken (an owner with a queue of calls to serve takes a few at a time).
    Status pump(int maxActions = -1);
    // Whether pump() would do something now (an answer waits, or an action is due).
    bool canAct() const;

    // Steering and control: each becomes an event (committed, then folded) like everything else.
    Status pause();
    Status resume();
    Status stop();
    Status pin(const QString &nodeId);
    Status unpin(const QString &nodeId);
    // A veto keeps a node from being a parent or measured; `branch` extends it to every descendant. unveto() undoes
    // either.
    Status veto(const QString &nodeId, bool branch = false);
    Status unveto(const QString &nodeId);
    Status forceMeasure(const QString &nodeId);
    Status inject(const Proposal &proposal, const QString &parentId);
    Status changeConfig(const QJsonObject &changes);

    const SearchState &state() const { return m_state; }
    NextAction next() const { return nextAction(m_state); }
    bool hasInbox() const;
    // Called (from any thread) whenever an answer lands in the inbox: the owner schedules a pump().
    void setNotifier(std::function<void()> notify) { m_notify = std::move(notify); }
    EventSink &sink() { return *m_sink; }
    // What was appended since open() or the last call.
    SearchWrites takeWrites();
    int dispatchedRequests() const { return int(m_dispatched.size()); }

private:
    using Answer = std::variant<MutationResult, EvaluationResult, ForecastAnswer>;

    Status sync();
    void noteWrites(const SearchEvent &event);
    Status commit(const std::function<Status(QList<SearchEvent> &)> &build);
    Status processAnswer(const Answer &answer);
    Status processMutation(const MutationResult &m);
    Status processForecast(const ForecastAnswer &f);
    Status processEvaluation(const EvaluationResult &e);
    Status startStep();
    Status requestForecasts();
    Status select();
    Status completeStep();
    Status finish(const QString &reason);
    void dispatchOpen();
    void deliver(Answer answer);
    SearchEvent event(SearchEventKind kind, QJsonObject payload, int mint);
    QString mintId(int mint) const;
    MutationParent parentContext(const QString &nodeId);
    Kernel kernelOf(const Candidate &c) const;

    std::unique_ptr<EventSink> m_sink;
    RunParts m_parts;
    SearchState m_state;
    QSet<QString> m_dispatched;
    mutable QMutex m_inboxMutex;
    QList<Answer> m_inbox;
    std::function<void()> m_notify;
    SearchWrites m_writes;
    bool m_opened = false; // open() folded the log written before
    std::shared_ptr<bool> m_alive; // answers that arrive after the run is gone are dropped
};

} // namespace gpuf::search
