// ForecastController: the forecasting actions the explorer offers — "Forecast Selected", "Forecast Problem",
// "Re-forecast Selected" (the cache bypassed), "Cancel Forecasts", the forecaster chooser, the hardware shown to
// forecasters and the cost model's retraining — over one ForecastQueue. It knows the store's forecasters (read off the
// GUI thread), keeps the queue on the open store, and turns the selection into (baseline, candidate) pairs through the
// candidate table. The forecaster, hardware and τ it uses are the Selection's (the window's one choice each, which it
// keeps in Settings for the next start).
#pragma once

#include "core/domain/forecast.h"
#include "core/forecasters/forecast_types.h"

#include <QHash>
#include <QList>
#include <QObject>

class QAction;
class QActionGroup;
class QMenu;

namespace gpuf {

class CandidateSource;
class CostModelRetrainer;
class ForecastQueue;
class Selection;
class Settings;
class StoreSession;

class ForecastController : public QObject
{
    Q_OBJECT

public:
    ForecastController(ForecastQueue *queue, StoreSession *session, Selection *selection, CandidateSource *candidates,
        Settings *settings, QObject *parent = nullptr);
    ~ForecastController() override;

    ForecastQueue *queue() const { return m_queue; }
    QAction *forecastSelectedAction() const { return m_forecastSelected; }
    QAction *forecastProblemAction() const { return m_forecastProblem; }
    QAction *reforecastSelectedAction() const { return m_reforecastSelected; }
    QAction *cancelAction() const { return m_cancel; }
    QMenu *forecasterMenu() const { return m_forecasterMenu; } // one checkable entry per runnable forecaster
    QMenu *hardwareMenu() const { return m_hardwareMenu; }
    // "Retrain Cost Model from This Store…" and "Use Built-in Cost Model"; the model they choose (Settings) is the one
    // the queue's `costmodel` forecaster runs.
    CostModelRetrainer *retrainer() const { return m_retrainer; }
    QList<QAction *> costModelActions() const;

    // The runnable forecasters of the open store (LLM and cost model), the built-in "costmodel" always among them.
    const QList<Forecaster> &forecasters() const { return m_forecasters; }
    QString currentForecaster() const; // the Selection's (the window's)
    // Why the current forecaster cannot run here (it holds imported forecasts, or it is a student whose forecasts are
    // their answers in a lesson); empty when it can.
    QString notRunnableReason() const;

    // Pairs the actions would forecast now (public for tests and for the panel's labels). A problem's pairs are its
    // reference against each other kernel, and the labelled pairs (an eval set's anchor/candidate, a discovery
    // parent/child) whose candidate is in the problem, on the window's hardware.
    QList<ForecastPair> selectedPairs() const;
    QList<ForecastPair> problemPairs() const;

    // Forecasts `pairs` with the current forecaster, samples and hardware; the forecaster's row is found (the
    // built-in one created) off the GUI thread first. Returns false when nothing can be forecast now.
    bool forecast(const QList<ForecastPair> &pairs, bool refresh);
    // Reads the store's forecasters again (after the endpoints dialog saved one).
    void reloadForecasters();

Q_SIGNALS:
    void forecastersChanged(const QList<gpuf::Forecaster> &forecasters);
    void forecastStarted(const QList<gpuf::ForecastPair> &pairs, quint64 batchId);
    // Something for the status bar: a batch's summary, why a batch could not start.
    void notice(const QString &text);

private:
    void connectActions();
    void connectQueue();
    void connectSession();
    void connectSelection();
    void updateActions();
    void rebuildForecasterMenu();
    void rebuildHardwareMenu();
    void applyForecasters(const QList<Forecaster> &forecasters);
    void bindChoicesToSettings();

    ForecastQueue *m_queue;
    StoreSession *m_session;
    Selection *m_selection;
    CandidateSource *m_candidates;
    Settings *m_settings;
    QAction *m_forecastSelected;
    QAction *m_forecastProblem;
    QAction *m_reforecastSelected;
    QAction *m_cancel;
    QMenu *m_forecasterMenu;
    QActionGroup *m_forecasterGroup;
    QMenu *m_hardwareMenu;
    CostModelRetrainer *m_retrainer;
    QList<Forecaster> m_forecasters;
    QList<Forecaster> m_storeForecasters; // every forecaster of the open store, imported ones included
    QHash<quint64, QList<RowId>> m_batchCandidates; // the candidates of each batch running, announced when it ends
    QString m_pendingForecaster; // a retrained model's forecaster, chosen once the store's list has it
    QString m_storePath;
};

} // namespace gpuf
