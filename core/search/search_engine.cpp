// SearchEngine; see search_engine.h.
#include "core/search/search_engine.h"

#include <QPointer>

#include <algorithm>
#include <limits>

namespace gpuf::search {

namespace {
constexpr int kSnapshotIntervalMs = 100; // at most ~10 snapshots per second
constexpr int kPollIntervalMs = 1000; // a pause from another process is seen within a second
constexpr int kActionsPerTurn = 1; // one action, then a look at the queued calls (pause, stop, steering)
} // namespace

SearchSnapshot snapshotOf(const SearchState &state, const QString &error)
{
    SearchSnapshot s;
    s.name = state.name;
    s.mode = modeName(state.config.mode);
    s.step = state.completedSteps();
    s.steps = state.config.steps;
    s.gpuEvaluations = state.gpuEvaluations;
    s.unsuccessfulEvaluations = state.unsuccessfulEvaluations;
    s.evaluationFailures = state.evaluationFailures;
    s.replayedEvaluations = state.replayedEvaluations;
    s.reusedEvaluations = state.reusedEvaluations;
    s.forecasts = state.forecastsDone;
    s.forecastFailures = state.forecastFailures;
    s.deferred = state.deferred;
    s.queued = int(state.queue.size());
    s.archiveSize = int(state.archive.nodes.size());
    s.events = state.events;
    s.bestSpeedup = state.bestReward;
    s.bestNode = state.bestNode;
    if (const Candidate *c = state.candidate(state.bestNode)) {
        s.bestKernelId = c->kernelId;
        s.bestContentHash = c->contentHash;
    }
    if (state.finished) {
        s.finishReason = state.finishReason;
        s.exhausted = !state.exhausted.isEmpty();
    }
    s.error = error;
    if (!error.isEmpty())
        s.status = RunStatus::Failed;
    else if (state.finished)
        s.status = RunStatus::Finished;
    else if (state.stopped)
        s.status = RunStatus::Stopped;
    else if (state.paused)
        s.status = state.hasOpenRequests() ? RunStatus::Pausing : RunStatus::Paused;
    else
        s.status = state.hasOpenRequests() ? RunStatus::Waiting : RunStatus::Running;
    return s;
}

SearchEngine::SearchEngine(Factory factory, QObject *parent)
    : QObject(parent)
    , m_factory(std::move(factory))
{
    qRegisterMetaType<gpuf::search::SearchSnapshot>();
    qRegisterMetaType<gpuf::search::SearchWrites>();
    qRegisterMetaType<gpuf::search::Proposal>();
    m_snapshotTimer.setParent(this); // moves to the engine's thread with it
    m_snapshotTimer.setSingleShot(true);
    connect(&m_snapshotTimer, &QTimer::timeout, this, [this] { report(); });
    m_pollTimer.setParent(this);
    m_pollTimer.setInterval(kPollIntervalMs);
    connect(&m_pollTimer, &QTimer::timeout, this, [this] { schedulePump(); });
    m_paceTimer.setParent(this);
    m_paceTimer.setSingleShot(true);
    m_paceTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_paceTimer, &QTimer::timeout, this, [this] { schedulePump(); });
}

SearchEngine::~SearchEngine() = default;

SearchSnapshot SearchEngine::snapshot() const
{
    return m_run ? snapshotOf(m_run->state(), m_error) : SearchSnapshot {};
}

void SearchEngine::start()
{
    if (m_run)
        return;
    auto run = m_factory();
    if (!run) {
        fail(run.error());
        return;
    }
    m_run = std::move(*run);
    QPointer<SearchEngine> self(this);
    m_run->setNotifier([self] {
        // Answers may come from any thread: come back to the engine's own.
        QMetaObject::invokeMethod(
            self,
            [self] {
                if (self)
                    self->schedulePump();
            },
            Qt::QueuedConnection);
    });
    if (Status s = m_run->open(); !s) {
        fail(s.error());
        return;
    }
    report();
    m_pollTimer.start();
    schedulePump();
}

void SearchEngine::schedulePump()
{
    if (m_pumpQueued || !m_run || paceHolds())
        return;
    m_pumpQueued = true;
    QMetaObject::invokeMethod(this, &SearchEngine::runPump, Qt::QueuedConnection);
}

void SearchEngine::runPump()
{
    m_pumpQueued = false;
    if (!m_run || !m_error.isEmpty())
        return;
    const int before = m_run->state().completedSteps();
    if (Status s = m_run->pump(kActionsPerTurn); !s) {
        fail(s.error());
        return;
    }
    if (m_pauseAfterStep >= 0 && m_run->state().completedSteps() >= m_pauseAfterStep) {
        m_pauseAfterStep = -1;
        if (Status s = m_run->pause(); !s) {
            fail(s.error());
            return;
        }
    }
    if (m_run->state().completedSteps() != before) {
        Q_EMIT stepCompleted(snapshotOf(m_run->state()));
        holdForPace();
    }
    report();
    if (m_run->canAct())
        schedulePump();
    else if (!m_run->state().hasOpenRequests() && !m_reportedEnd) {
        const NextAction next = m_run->next();
        if (next == NextAction::Done || next == NextAction::Paused) {
            m_reportedEnd = true;
            m_pollTimer.stop();
            report();
            Q_EMIT finished(snapshotOf(m_run->state()));
        }
    }
}

void SearchEngine::act(const std::function<Status(SearchRun &)> &action)
{
    if (!m_run) {
        Q_EMIT notice(tr("The search has not started."));
        return;
    }
    if (Status s = action(*m_run); !s) {
        Q_EMIT notice(s.error());
        return;
    }
    m_reportedEnd = false;
    m_pollTimer.start();
    report();
    schedulePump();
}

void SearchEngine::pause()
{
    act([](SearchRun &r) { return r.pause(); });
}

void SearchEngine::resume()
{
    act([](SearchRun &r) { return r.resume(); });
}

void SearchEngine::stop()
{
    act([](SearchRun &r) { return r.stop(); });
}

void SearchEngine::singleStep()
{
    act([this](SearchRun &r) {
        const SearchState &s = r.state();
        m_pauseAfterStep = s.completedSteps() + 1;
        return r.resume();
    });
}

void SearchEngine::pin(const QString &nodeId)
{
    act([&nodeId](SearchRun &r) { return r.pin(nodeId); });
}

void SearchEngine::unpin(const QString &nodeId)
{
    act([&nodeId](SearchRun &r) { return r.unpin(nodeId); });
}

void SearchEngine::veto(const QString &nodeId)
{
    act([&nodeId](SearchRun &r) { return r.veto(nodeId); });
}

void SearchEngine::vetoBranch(const QString &nodeId)
{
    act([&nodeId](SearchRun &r) { return r.veto(nodeId, true); });
}

void SearchEngine::unveto(const QString &nodeId)
{
    act([&nodeId](SearchRun &r) { return r.unveto(nodeId); });
}

void SearchEngine::forceMeasure(const QString &nodeId)
{
    act([&nodeId](SearchRun &r) { return r.forceMeasure(nodeId); });
}

void SearchEngine::inject(const gpuf::search::Proposal &proposal, const QString &parentId)
{
    act([&](SearchRun &r) { return r.inject(proposal, parentId); });
}

void SearchEngine::changeConfig(const QJsonObject &changes)
{
    act([&changes](SearchRun &r) { return r.changeConfig(changes); });
}

void SearchEngine::setPace(double stepsPerSecond)
{
    m_pace = stepsPerSecond > 0.0 ? stepsPerSecond : 0.0;
    if (!m_paceTimer.isActive())
        return;
    // A step waiting for the old pace waits for the new one, counted from the same completed step.
    m_paceTimer.stop();
    if (m_pace > 0.0) {
        const qint64 left = qint64(1000.0 / m_pace) - (m_sinceStep.isValid() ? m_sinceStep.elapsed() : 0);
        if (left > 0) {
            m_paceTimer.start(int(std::min<qint64>(left, std::numeric_limits<int>::max())));
            return;
        }
    }
    schedulePump();
}

void SearchEngine::holdForPace()
{
    if (m_pace <= 0.0)
        return;
    m_sinceStep.restart();
    m_paceTimer.start(int(std::min(1000.0 / m_pace, double(std::numeric_limits<int>::max()))));
}

bool SearchEngine::paceHolds() const
{
    if (!m_paceTimer.isActive() || !m_run)
        return false;
    // A pause, a stop or the end is acted on at once: only the next step waits.
    const SearchState &s = m_run->state();
    return !s.paused && !s.stopped && !s.finished;
}

void SearchEngine::shutdown()
{
    m_pollTimer.stop();
    m_paceTimer.stop();
    reportWrites();
    m_run.reset();
    Q_EMIT shutDown();
}

void SearchEngine::fail(const QString &message)
{
    m_error = message;
    m_pollTimer.stop();
    reportWrites();
    Q_EMIT failed(message);
    if (m_run)
        Q_EMIT snapshotReady(snapshotOf(m_run->state(), m_error));
}

void SearchEngine::report()
{
    if (!m_run)
        return;
    if (m_sinceSnapshot.isValid() && m_sinceSnapshot.elapsed() < kSnapshotIntervalMs) {
        if (!m_snapshotTimer.isActive())
            m_snapshotTimer.start(int(kSnapshotIntervalMs - m_sinceSnapshot.elapsed()));
        return;
    }
    m_snapshotTimer.stop();
    m_sinceSnapshot.restart();
    reportWrites();
    Q_EMIT snapshotReady(snapshotOf(m_run->state(), m_error));
}

void SearchEngine::reportWrites()
{
    if (!m_run)
        return;
    SearchWrites writes = m_run->takeWrites();
    if (!writes.isEmpty())
        Q_EMIT rowsWritten(writes);
}

} // namespace gpuf::search
