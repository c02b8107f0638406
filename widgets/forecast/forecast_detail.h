// ForecastDetail: one chosen forecast (or the mean of several samples) in full — the bin distribution plot, the
// predicted bin, the three confidence scores, expected speedup and entropy, the measured truth with hit or miss, the
// deferral state against τ with "Measure on GPU", and the reasoning (streaming live, then the final rationale).
// Parse failures and errors replace the plot with their reason; nothing is ever shown as an empty plot.
#pragma once

#include "widgets/forecast/forecast_rows_model.h"
#include "widgets/forecast/prediction_sets_note.h"

#include <QWidget>

class QAction;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QSplitter;
class QStackedWidget;

namespace gpuf {

class DistributionPlot;

class ForecastDetail : public QWidget
{
    Q_OBJECT

public:
    // `measureAction` ("Measure on GPU") gets a button next to the deferral state.
    explicit ForecastDetail(QAction *measureAction, QWidget *parent = nullptr);
    ~ForecastDetail() override;

    // Shows `row` of `pair`; `streamed` is the reasoning streamed so far for a running request (or kept from one).
    void showRow(const PairForecasts &pair, const ForecastRow &row, double threshold, const QString &streamed = {});
    // No forecast to show: the reason instead of the plot ("select a candidate", "no forecast yet", a load error).
    void showMessage(const QString &text);
    void setThreshold(double threshold);
    // Each forecaster's conformal calibration (prediction_sets_note.h), for the prediction sets line.
    void setConformal(const QHash<RowId, ConformalCalibration> &byForecaster);
    // Streamed reasoning of the running request shown now.
    void appendReasoning(const QString &text);
    void setReasoning(const QString &text);

    DistributionPlot *plot() const { return m_plot; }
    bool showsPlot() const;
    QString messageText() const;
    QString titleText() const;
    // One sentence on the distribution that agrees with the figures below it (ForecastReading).
    QString headlineText() const;
    QString predictedText() const;
    QString confidenceText() const;
    QString setsText() const;
    QString expectedText() const;
    QString truthText() const;
    QString truthDetails() const; // the truth's tooltip: each case's timings (Python measurements)
    QString deferralText() const;
    QPlainTextEdit *reasoningView() const { return m_reasoning; }
    QString reasoningTitle() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    enum class Tone : quint8 { Neutral, Good, Bad, Warning };
    QFormLayout *buildFigureForms(QAction *measureAction);
    QWidget *buildFigures(QFormLayout *truthForm);
    void render();
    void renderFigures(const ForecastFigures &figures);
    void renderTruth(const std::optional<ForecastFigures> &figures);
    void renderDeferral(const std::optional<ForecastFigures> &figures);
    void setTone(QLabel *label, Tone tone);
    void applyTones();

    DistributionPlot *m_plot;
    QStackedWidget *m_stack;
    QLabel *m_message;
    QLabel *m_title;
    QLabel *m_headline;
    QWidget *m_figures;
    QLabel *m_predicted;
    QLabel *m_confidence;
    QLabel *m_sets;
    QHash<RowId, ConformalCalibration> m_conformal;
    QLabel *m_expected;
    QLabel *m_entropy;
    QLabel *m_rawSum;
    QLabel *m_usage;
    QLabel *m_truth;
    QLabel *m_deferral;
    QLabel *m_reasoningTitle;
    QPlainTextEdit *m_reasoning;
    QSplitter *m_splitter;
    static constexpr int kSideBySideWidth = 640;

    PairForecasts m_pair;
    ForecastRow m_row;
    bool m_hasRow = false;
    double m_threshold = 0.5;
    QHash<QLabel *, Tone> m_tones;
};

} // namespace gpuf
