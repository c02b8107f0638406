// CostModelRetrainer: the actions "Retrain Cost Model from This Store…" and "Use Built-in Cost Model". Retraining
// runs `gpuf train`'s training on the open store in the background (a thread pool of its own, a store connection of
// its own), reports its progress and the leave-one-operation-out metrics, saves the model under the application's
// data folder and points Settings' cost-model path at it, so the `costmodel` forecaster forecasts with it; the
// built-in model is one action away. The dialog that shows a run (RetrainDialog) only observes this object.
#pragma once

#include "core/forecasters/costmodel_retrain.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <memory>

class QAction;
class QWidget;

namespace gpuf {

class RetrainDialog;
class Settings;
class StoreSession;

class CostModelRetrainer : public QObject
{
    Q_OBJECT

public:
    // `dialogParent` (may be null) owns the dialog the retrain action opens.
    CostModelRetrainer(StoreSession *session, Settings *settings, QWidget *dialogParent, QObject *parent = nullptr);
    ~CostModelRetrainer() override; // cancels a run and waits for it

    QAction *retrainAction() const { return m_retrain; }
    QAction *useBuiltInAction() const { return m_useBuiltIn; }
    QList<QAction *> actions() const { return {m_retrain, m_useBuiltIn}; }

    // Where retrained models are saved: <AppDataLocation>/costmodel.
    static QString modelFolder();

    bool isRunning() const { return m_running; }
    // Starts a run on the open store; false (with the reason in failed()) when none is open or one already runs.
    bool start(const costmodel::RetrainOptions &options = {});
    void cancel();
    // The last progress report of the current or last run.
    const costmodel::RetrainProgress &progress() const { return m_progress; }
    // Forecasts go back to the model shipped with the program.
    void useBuiltIn();
    // The dialog the retrain action opened (null when closed).
    RetrainDialog *dialog() const;

Q_SIGNALS:
    void started();
    void progressed(const gpuf::costmodel::RetrainProgress &progress);
    // The model was saved and is now the `costmodel` forecaster's.
    void finished(const gpuf::costmodel::RetrainOutcome &outcome);
    void failed(const QString &message);
    // A line for the status bar.
    void notice(const QString &text);

private:
    void showDialog();
    void applyOutcome(const Result<costmodel::RetrainOutcome> &outcome);
    void updateActions();

    StoreSession *m_session;
    Settings *m_settings;
    QWidget *m_dialogParent;
    QAction *m_retrain;
    QAction *m_useBuiltIn;
    QPointer<RetrainDialog> m_dialog; // the one open, if any
    QThreadPool m_pool; // a run waits on the global pool's fold jobs: it must not hold one of its threads
    std::shared_ptr<std::atomic_bool> m_cancel;
    costmodel::RetrainProgress m_progress;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace gpuf
