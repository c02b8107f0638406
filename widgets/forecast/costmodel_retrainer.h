// CostModelRetrainer: the actions "Retrain Cost Model from This Store…" and "Use Built-in Cost Model". Retraining
// runs `gpuf train`'s training on the open store in the background — on a thread pool of its own that leaves a core
// free, at a lowered CPU priority, cancelled between boosting rounds — reports progress per booster fitted and the
// leave-one-operation-out metrics, saves the model under the application's data folder and adds it to the store as a
// cost-model forecaster of its own (the built-in `costmodel` stays as it is), which becomes the window's forecaster.
// The dialog (RetrainDialog) offers the options first and then shows the run; it only observes this object.
#pragma once

#include "core/common/cancel.h"
#include "core/forecasters/costmodel/costmodel_retrain.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

#include <algorithm>

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
    // The name the dialog proposes for the new forecaster: "costmodel (retrained from STORE, DATE TIME)".
    QString proposedForecasterName() const;
    // Threads the training may use: one fewer than the machine's cores, at least one.
    int trainingThreads() const { return std::max(1, QThread::idealThreadCount() - 1); }

    StoreSession *session() const { return m_session; }
    bool isRunning() const { return m_running; }
    // Starts a run on the open store (pool, priority and cancellation are this object's); false (with the reason in
    // failed()) when none is open or one already runs.
    bool start(const costmodel::RetrainOptions &options = {});
    void cancel();
    // The last progress report of the current or last run.
    const costmodel::RetrainProgress &progress() const { return m_progress; }
    // The window's forecaster becomes the built-in `costmodel` again.
    void useBuiltIn();
    // The dialog the retrain action opened (null when closed).
    RetrainDialog *dialog() const;
    // Opens the dialog on its options (or on the run in progress).
    void showDialog();

Q_SIGNALS:
    void started();
    void progressed(const gpuf::costmodel::RetrainProgress &progress);
    // The model was saved and its forecaster (outcome.forecasterName) added to the store.
    void finished(const gpuf::costmodel::RetrainOutcome &outcome);
    void failed(const QString &message);
    // A line for the status bar.
    void notice(const QString &text);

private:
    void applyOutcome(const Result<costmodel::RetrainOutcome> &outcome);
    void updateActions();

    StoreSession *m_session;
    Settings *m_settings;
    QWidget *m_dialogParent;
    QAction *m_retrain;
    QAction *m_useBuiltIn;
    QPointer<RetrainDialog> m_dialog; // the one open, if any
    // The run, and its folds beside it: never the global pool, whose threads the views' loading jobs need meanwhile.
    QThreadPool m_pool;
    QThreadPool m_foldPool;
    CancelToken m_cancel;
    costmodel::RetrainProgress m_progress;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace gpuf
