// CostModelRetrainer; see costmodel_retrainer.h.
#include "widgets/forecast/costmodel_retrainer.h"

#include "widgets/forecast/retrain_dialog.h"
#include "widgets/session/store_session.h"
#include "widgets/settings/settings.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {
namespace {

const QString kRetrainedPrefix = QStringLiteral("retrained-");

// A model this object saved (and may therefore replace): a retrained-*.json file in the model folder.
bool isRetrainedModel(const QString &path)
{
    const QFileInfo info(path);
    return !path.isEmpty() && info.fileName().startsWith(kRetrainedPrefix)
        && QDir(info.absolutePath()) == QDir(CostModelRetrainer::modelFolder());
}

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
    m_pool.setMaxThreadCount(1);
    m_retrain->setObjectName(QStringLiteral("retrainCostModel"));
    m_useBuiltIn->setObjectName(QStringLiteral("useBuiltInCostModel"));
    m_retrain->setStatusTip(tr("Train the cost model on this store's measured pairs in the background and forecast "
                               "with it"));
    connect(m_retrain, &QAction::triggered, this, &CostModelRetrainer::showDialog);
    connect(m_useBuiltIn, &QAction::triggered, this, &CostModelRetrainer::useBuiltIn);
    connect(m_session, &StoreSession::opened, this, &CostModelRetrainer::updateActions);
    connect(m_session, &StoreSession::closed, this, &CostModelRetrainer::updateActions);
    connect(m_settings, &Settings::costModelPathChanged, this, &CostModelRetrainer::updateActions);
    updateActions();
}

CostModelRetrainer::~CostModelRetrainer()
{
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone(); // the run reads m_cancel's flag through its own shared pointer; this only ends it sooner
}

QString CostModelRetrainer::modelFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/costmodel");
}

bool CostModelRetrainer::start(const costmodel::RetrainOptions &options)
{
    if (m_running)
        return false;
    if (!m_session->isOpen()) {
        Q_EMIT failed(tr("No store is open: open the store to retrain from first."));
        return false;
    }
    m_cancel = std::make_shared<std::atomic_bool>(false);
    const quint64 generation = ++m_generation;
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    const QString modelPath = QDir(modelFolder()).filePath(kRetrainedPrefix + stamp + QStringLiteral(".json"));
    m_running = true;
    m_progress = {tr("Starting…"), 0, 0};
    updateActions();
    Q_EMIT started();
    Q_EMIT progressed(m_progress);

    costmodel::RetrainOptions run = options;
    run.cancel = m_cancel.get();
    // Progress arrives on worker threads; it is handed to this object's thread and dropped once a newer run began.
    QPointer<CostModelRetrainer> self(this);
    run.progress = [self, generation](const costmodel::RetrainProgress &p) {
        QMetaObject::invokeMethod(
            self,
            [self, generation, p] {
                if (!self || generation != self->m_generation)
                    return;
                self->m_progress = p;
                Q_EMIT self->progressed(p);
            },
            Qt::QueuedConnection);
    };
    auto *watcher = new QFutureWatcher<Result<costmodel::RetrainOutcome>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_generation)
            applyOutcome(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [path = m_session->path(), modelPath, run, cancel = m_cancel] {
        return costmodel::retrainFromStore(path, modelPath, run);
    }));
    return true;
}

void CostModelRetrainer::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void CostModelRetrainer::applyOutcome(const Result<costmodel::RetrainOutcome> &outcome)
{
    m_running = false;
    if (!outcome) {
        const QString message = outcome.error() == QLatin1StringView("cancelled")
            ? tr("Retraining was cancelled; the cost model is unchanged.")
            : outcome.error();
        updateActions();
        Q_EMIT failed(message);
        Q_EMIT notice(tr("Cost model not retrained: %1").arg(message));
        return;
    }
    const QString previous = m_settings->costModelPath();
    m_settings->setCostModelPath(outcome->modelPath);
    // Only the model this replaces, and only one of ours: a model file chosen elsewhere is never deleted.
    if (previous != outcome->modelPath && isRetrainedModel(previous)) {
        QFile::remove(previous);
        QFile::remove(costmodel::manifestPathFor(previous));
    }
    updateActions();
    Q_EMIT finished(*outcome);
    Q_EMIT notice(tr(
        "Cost model retrained on %n measured pair(s); the costmodel forecaster now uses it", nullptr, outcome->pairs));
}

void CostModelRetrainer::useBuiltIn()
{
    if (m_settings->costModelPath().isEmpty())
        return;
    m_settings->setCostModelPath({});
    Q_EMIT notice(tr("The costmodel forecaster uses the built-in model again"));
}

void CostModelRetrainer::showDialog()
{
    if (!m_dialog) {
        m_dialog = new RetrainDialog(this, m_dialogParent);
        m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_dialog->show(); // not modal: the user keeps working while the model trains
    m_dialog->raise();
    start();
}

RetrainDialog *CostModelRetrainer::dialog() const { return m_dialog; }

void CostModelRetrainer::updateActions()
{
    const QString path = m_settings->costModelPath();
    m_retrain->setEnabled(m_session->isOpen() && !m_running);
    m_retrain->setToolTip(m_running ? tr("A retraining is running")
            : m_session->isOpen()   ? tr("Train the cost model on %1's measured pairs").arg(m_session->path())
                                    : tr("Open a store with measured kernels first"));
    m_useBuiltIn->setEnabled(!path.isEmpty());
    m_useBuiltIn->setToolTip(path.isEmpty() ? tr("The costmodel forecaster already uses the built-in model")
                                            : tr("The costmodel forecaster now uses %1").arg(path));
}

} // namespace gpuf
