// OrdinalView: one forecaster's ordinal calibration in figures (issue 28) — its RPS, Brier and log scores beside the
// base rate's and the physics prior's with the skill against each, its figures with straddling pairs counted by every
// rule (label noise), and the coverage and width of its prediction sets over contiguous bins, its own and conformal,
// in a table and beside it as a plot.
#pragma once

#include "core/domain/problem.h"
#include "core/metrics/from_store.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableWidget;

namespace gpuf {

struct CalibrationSnapshot;
class PredictionSetPlot;

class OrdinalView : public QWidget
{
    Q_OBJECT

public:
    explicit OrdinalView(QWidget *parent = nullptr);

    // Shows `forecasterId`'s figures of `snapshot` on the pairs `comparison` chooses; nothing without a snapshot.
    void showForecaster(
        const std::shared_ptr<const CalibrationSnapshot> &snapshot, metrics::Comparison comparison, RowId forecasterId);

    // For tests: the three tables as the user reads them.
    QTableWidget *skillTable() const { return m_skill; }
    QTableWidget *labelNoiseTable() const { return m_noise; }
    QTableWidget *setsTable() const { return m_sets; }
    PredictionSetPlot *setsPlot() const { return m_setsPlot; }
    QString headline() const;

private:
    void showSkill(const metrics::MetricsReport &report, const CalibrationSnapshot &snapshot,
        metrics::Comparison comparison, RowId forecasterId);
    void showLabelNoise(const CalibrationSnapshot &snapshot, RowId forecasterId);
    void showSets(const metrics::MetricsReport &report);

    QLabel *m_headline;
    QTableWidget *m_skill;
    QLabel *m_noiseNote;
    QTableWidget *m_noise;
    QTableWidget *m_sets;
    PredictionSetPlot *m_setsPlot;
};

} // namespace gpuf
