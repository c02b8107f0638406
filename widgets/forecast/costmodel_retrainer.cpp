// CostModelRetrainer; see costmodel_retrainer.h.
#include "widgets/forecast/costmodel_retrainer.h"

#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "widgets/forecast/retrain_dialog.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QStandardPaths>
#include <QThread>

namespace gpuf {
namespace {

const QString kRetrainedPrefix = QStringLiteral("retrained-");

} // namespace

CostModelRetrainer::CostModelRetrainer(
    StoreSession *session, Settings *settings, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_settings(settings)
    , m_dialogParent(dialogParent)
    , m_retrain(new QAction(tr("Re&train Cost Model from This Store…"), this))
    , m_useBuiltIn(new QAction(tr("Use &Built-in Cost Model"), this))
{
    // The GUI thread keeps a core of its own: one fewer training thread than cores, the run's own thread included. The
    // folds get a pool of their own: a blocking map on the pool the run occupies would wait for a thread it holds.
    m_pool.setMaxThreadCount(1);
    m_foldPool.setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 2));
    m_retrain->setObjectName(QStringLiteral("retrainCostModel"));
    m_useBuiltIn->setObjectName(QStringLiteral("useBuiltInCostModel"));
    m_retrain->setStatusTip(tr("Train a cost model on this store's measured pairs in the background and add it as a "
                               "forecaster of its own"));
    connect(m_retrain, &QAction::triggered, this, &CostModelRetrainer::showDialog);
    connect(m_useBuiltIn, &QAction::triggered, this, &CostModelRetrainer::useBuiltIn);
    connect(m_session, &StoreSession::opened, this, &CostModelRetrainer::updateActions);
    connect(m_session, &StoreSession::closed, this, &CostModelRetrainer::updateActions);
    connect(m_settings, &Settings::forecasterNameChanged, this, &CostModelRetrainer::updateActions);
    updateActions();
}

// m_job cancels the run and waits for it; the folds end with it.
CostModelRetrainer::~CostModelRetrainer() = default;

QString CostModelRetrainer::modelFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/costmodel");
}

QString CostModelRetrainer::proposedForecasterName() const
{
    const QString store = QFileInfo(m_session->path()).completeBaseName();
    const QString when = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    return tr("costmodel (retrained from %1, %2)").arg(store, when);
}

bool CostModelRetrainer::start(const costmodel::RetrainOptions &options)
{
    if (m_running)
        return false;
    if (!m_session->isOpen()) {
        Q_EMIT failed(tr("No store is open: open the store to retrain from first."));
        return false;
    }
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    const QString modelPath = QDir(modelFolder()).filePath(kRetrainedPrefix + stamp + QStringLiteral(".json"));
    m_running = true;
    m_progress = {tr("Starting…"), 0, 0};
    updateActions();
    Q_EMIT started();
    Q_EMIT progressed(m_progress);

    costmodel::RetrainOptions run = options;
    if (run.forecasterName.isEmpty())
        run.forecasterName = proposedForecasterName();
    // On two cores the run's own thread fits every booster, one after the other.
    run.parallel = trainingThreads() > 1;
    run.pool = &m_foldPool;
    run.background = true;
    m_job.start(
        [self = QPointer<CostModelRetrainer>(this), path = m_session->path(), modelPath, run](
            const CancelToken &cancel) mutable {
            run.cancel = cancel;
            // Progress arrives on worker threads; it is handed to this object's thread, and dropped once the run was
            // replaced or the object went (the token of a replaced run is cancelled).
            run.progress = [self, cancel](const costmodel::RetrainProgress &p) {
                QMetaObject::invokeMethod(
                    self,
                    [self, cancel, p] {
                        if (self && self->m_running && !cancel.isCancelled())
                            self->showProgress(p);
                    },
                    Qt::QueuedConnection);
            };
            return costmodel::retrainFromStore(path, modelPath, run);
        },
        [this](const Result<costmodel::RetrainOutcome> &outcome) { applyOutcome(outcome); });
    return true;
}

void CostModelRetrainer::showProgress(const costmodel::RetrainProgress &progress)
{
    // Folds report from several threads: a step that arrives after a later one does not move the bar back.
    costmodel::RetrainProgress shown = progress;
    if (shown.total == m_progress.total)
        shown.done = std::max(shown.done, m_progress.done);
    m_progress = shown;
    Q_EMIT progressed(shown);
}

void CostModelRetrainer::cancel()
{
    m_job.stop(); // the run ends at its next check and reports itself cancelled
}

void CostModelRetrainer::applyOutcome(const Result<costmodel::RetrainOutcome> &outcome)
{
    m_running = false;
    if (!outcome) {
        const QString message
            = outcome.isCancelled() ? tr("Retraining was cancelled; no forecaster was added.") : outcome.error();
        updateActions();
        Q_EMIT failed(message);
        Q_EMIT notice(tr("Cost model not retrained: %1").arg(message));
        return;
    }
    updateActions();
    Q_EMIT finished(*outcome);
    Q_EMIT notice(
        tr("Cost model retrained on %n measured pair(s) and added as the forecaster \"%1\"", nullptr, outcome->pairs)
            .arg(outcome->forecasterName));
}

void CostModelRetrainer::useBuiltIn()
{
    if (m_settings->forecasterName() == QLatin1StringView(costmodel::kForecasterName))
        return;
    m_settings->setForecasterName(QLatin1StringView(costmodel::kForecasterName));
    Q_EMIT notice(tr("Forecasting with the built-in cost model again"));
}

void CostModelRetrainer::showDialog()
{
    if (!m_dialog) {
        m_dialog = new RetrainDialog(this, m_dialogParent);
        m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_dialog->show(); // not modal: the user keeps working while the model trains
    m_dialog->raise();
}

RetrainDialog *CostModelRetrainer::dialog() const { return m_dialog; }

void CostModelRetrainer::updateActions()
{
    const bool builtIn = m_settings->forecasterName() == QLatin1StringView(costmodel::kForecasterName);
    m_retrain->setEnabled(m_session->isOpen() || m_running); // while one runs, it shows its progress again
    m_retrain->setToolTip(m_running ? tr("A retraining is running: show its progress")
            : m_session->isOpen()   ? tr("Train a cost model on %1's measured pairs").arg(m_session->path())
                                    : tr("Open a store with measured kernels first"));
    m_useBuiltIn->setEnabled(!builtIn);
    m_useBuiltIn->setToolTip(builtIn
            ? tr("The window already forecasts with the built-in cost model")
            : tr("Forecast with the built-in cost model instead of %1").arg(m_settings->forecasterName()));
    m_useBuiltIn->setStatusTip(m_useBuiltIn->toolTip());
}

} // namespace gpuf
