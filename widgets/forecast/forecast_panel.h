// ForecastPanel: the forecasts of the selected (baseline, candidate) pair — several forecasters and samples side by
// side with their combined view, the chosen one in full (distribution, scores, measured truth, deferral against τ,
// the reasoning streaming live), what the forecaster saw, and the cost model's explanation. It observes the
// Selection, the store session and the forecast queue; "Measure on GPU" goes to the shared measurement queue.
#pragma once

#include "core/forecasters/forecast_types.h"
#include "core/session/pair_forecasts.h"

#include <QHash>
#include <QWidget>

class QAction;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace gpuf {

class CalibrationData;
class ExplanationModel;
class ForecastController;
class ForecastDetail;
class ForecastPairLoader;
class ForecastRowsModel;
class ForecasterInputView;
class MeasureQueue;
class WarningBanner;
class Selection;
class Settings;
class StoreSession;
struct ForecastRow;

class ForecastPanel : public QWidget
{
    Q_OBJECT

public:
    ForecastPanel(ForecastController *controller, MeasureQueue *measureQueue, StoreSession *session,
        Selection *selection, Settings *settings, QWidget *parent = nullptr);
    ~ForecastPanel() override;

    QAction *measureAction() const { return m_measure; }
    ForecastRowsModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    ForecastDetail *detail() const { return m_detail; }
    ForecasterInputView *inputView() const { return m_input; }
    ExplanationModel *explanationModel() const { return m_explanationModel; }
    QString explanationSummary() const;
    QTabWidget *tabs() const { return m_tabs; }
    // The warning shown while the chosen forecast is a cost model's and a kernel of the pair lacks launch features.
    QString gapWarning() const;
    ForecastPairLoader *loader() const { return m_loader; }
    // The key (ForecastRow::key()) of the row shown; empty when none.
    QString currentKey() const;
    // Shows the row with this key, as if the user chose it; false when the pair has no such row.
    bool showKey(const QString &key);
    // The candidate's teaching note as shown under the pair; empty when it has none.
    QString noteText() const;
    // The metrics the prediction sets' conformal calibration is read from (the Metrics and Calibration docks' data).
    void setCalibration(CalibrationData *calibration);

protected:
    void showEvent(QShowEvent *event) override;

private:
    // The panel (forecast_panel.cpp).
    void buildLayout();
    void connectSources();
    void showCurrent();
    void showExplanation(const ForecastRow *row);
    QString noExplanationText(const ForecastRow &row) const;
    void updateHeader();
    void updateMeasureAction();
    void measure();
    // The pair's rows and the one shown (forecast_panel_rows.cpp).
    void pairChanged(RowId candidateId, RowId baselineId);
    void applyPair(const PairForecasts &pair);
    void applySnapshot(const ForecastSnapshot &snapshot);
    void applyReasoning(const ForecastReasoning &reasoning);
    void rebuildRows();
    QString automaticKey() const;
    void scrollToCurrent();
    const ForecastRow *currentRow() const;
    static QString streamKey(RowId forecasterId, int repeat);

    ForecastController *m_controller;
    MeasureQueue *m_measureQueue;
    StoreSession *m_session;
    Selection *m_selection;
    Settings *m_settings;
    ForecastPairLoader *m_loader;
    ForecastRowsModel *m_model;
    ExplanationModel *m_explanationModel;
    QAction *m_measure;
    QLabel *m_pairLabel;
    QLabel *m_forecasterLabel;
    QLabel *m_note;
    QSpinBox *m_samples;
    QTableView *m_view;
    QTabWidget *m_tabs;
    ForecastDetail *m_detail;
    ForecasterInputView *m_input;
    QLabel *m_explanationNote;
    QTableView *m_explanationView;
    WarningBanner *m_gapWarning;

    PairForecasts m_pair;
    bool m_pairLoaded = false;
    QList<ForecastItem> m_live; // open requests for the pair
    QHash<QString, QString> m_streamed; // "forecaster:repeat" → reasoning streamed for the running request
    QHash<RowId, QString> m_streamedByForecast; // kept once the request finished, by stored forecast id
    QString m_pendingKey; // the stored forecast a followed request became
    bool m_userChoice = false; // the user chose the row shown: reloads keep it
    bool m_updating = false;
};

} // namespace gpuf
