// CompareController; see compare_controller.h.
#include "widgets/search/compare_controller.h"

#include "core/common/thread_priority.h"
#include "core/session/store_session.h"

namespace gpuf {

CompareController::CompareController(StoreSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    m_job.setProgressHandler([this](qint64 done, qint64 total) { Q_EMIT progressed(int(done), int(total)); });
    connect(m_session, &StoreSession::opening, this, &CompareController::forget);
    connect(m_session, &StoreSession::closed, this, &CompareController::forget);
    connect(m_session, &StoreSession::opened, this, &CompareController::loadChoices);
    connect(m_session, &StoreSession::changed, this, &CompareController::storeChanged);
    if (m_session->isOpen())
        loadChoices();
}

CompareController::~CompareController() = default;

void CompareController::loadChoices()
{
    if (!m_session->isOpen())
        return;
    m_session->read<search::CompareChoices>(QStringLiteral("compare-choices"), &search::readCompareChoices, this,
        [this](const Result<search::CompareChoices> &result) {
            if (!result) {
                if (!result.isCancelled())
                    Q_EMIT choicesFailed(result.error());
                return;
            }
            m_choices = *result;
            m_hasChoices = true;
            m_choicesStale = false;
            Q_EMIT choicesChanged();
        });
}

void CompareController::storeChanged(const StoreChange &change)
{
    using Kind = StoreChange::Kind;
    switch (change.kind) {
    case Kind::Removed:
    case Kind::Restored:
    case Kind::Measurements:
    case Kind::Kernels:
    case Kind::Forecasters:
    case Kind::Import:
    case Kind::Reload:
        // The view reads the spaces again (two queries) when it is next shown.
        m_choicesStale = true;
        Q_EMIT choicesStaleChanged();
        break;
    case Kind::Forecasts:
    case Kind::Searches:
    case Kind::Lessons:
        break;
    }
}

void CompareController::run(search::CompareOptions options, const QString &costModelPath)
{
    if (!m_session->isOpen()) {
        Q_EMIT failed(tr("No store is open."));
        return;
    }
    options.storePath = m_session->path();
    options.jobs = 1; // one search at a time: the GUI keeps a core
    setRunning(true);
    Q_EMIT progressed(0, int(options.strategies.size()) * options.seeds);
    m_job.start(
        [options = std::move(options), costModelPath](
            const CancelToken &cancel, const JobProgress &progress) mutable -> Result<search::CompareReport> {
            lowerCurrentThreadPriority();
            options.cancel = cancel;
            options.progress = [progress](int done, int total, const QString &) { progress(done, total); };
            search::SetupOptions setup;
            setup.costModelPath = costModelPath;
            return search::compareStrategies(options, setup);
        },
        [this](Result<search::CompareReport> result) {
            setRunning(false);
            if (result.isCancelled()) {
                Q_EMIT cancelled();
            } else if (!result) {
                Q_EMIT failed(result.error());
            } else {
                m_report = std::make_shared<const search::CompareReport>(std::move(*result));
                Q_EMIT reportChanged();
                Q_EMIT finished();
            }
        });
}

void CompareController::cancel()
{
    if (m_running)
        m_job.stop(); // the result (cancelled) still comes back, so the view knows when the searches have stopped
}

void CompareController::forget()
{
    m_job.cancel();
    m_report.reset();
    m_choices = {};
    m_hasChoices = false;
    m_choicesStale = true;
    setRunning(false);
    Q_EMIT choicesChanged();
    Q_EMIT reportChanged();
}

void CompareController::setRunning(bool running)
{
    if (running == m_running)
        return;
    m_running = running;
    Q_EMIT runningChanged(running);
}

} // namespace gpuf
