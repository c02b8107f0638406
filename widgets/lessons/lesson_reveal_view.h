// LessonRevealView: "What happened" after the reveal — the student's score in a sentence, their distribution against
// the measured bin, the measured speedup on each recorded GPU with the student's score there (and the evidence behind
// it, one click away), what the stored forecasters said, and the step's teaching note. Hidden and empty until a step
// is revealed.
#pragma once

#include "core/bins/bins.h"
#include "core/domain/problem.h"

#include <QGroupBox>

class QLabel;
class QPushButton;
class QTableWidget;

namespace gpuf {

class DistributionPlot;
struct LessonStepData;

class LessonRevealView : public QGroupBox
{
    Q_OBJECT

public:
    explicit LessonRevealView(QWidget *parent = nullptr);

    QLabel *scoreLabel() const { return m_scoreLabel; }
    QLabel *noteLabel() const { return m_noteLabel; }
    QTableWidget *truthTable() const { return m_truthTable; }
    QTableWidget *forecastersTable() const { return m_forecastersTable; }
    // "Show Evidence…" for the step's candidate: enabled when a GPU measured it.
    QPushButton *evidenceButton() const { return m_evidence; }

    // Shows step `data` revealed to a student who answered `p` with bin `predictedBin`.
    void showReveal(const LessonStepData &data, const bins::Distribution &p, int predictedBin);
    // Hidden, nothing of a reveal left in it.
    void clear();

Q_SIGNALS:
    // The evidence behind the step's measured speedup is wanted: `kernelId` is the step's candidate.
    void evidenceRequested(gpuf::RowId kernelId);

private:
    void showTruths(const LessonStepData &data, const bins::Distribution &p, int predictedBin);
    void showForecasters(const LessonStepData &data);

    QLabel *m_scoreLabel;
    DistributionPlot *m_answerPlot;
    QTableWidget *m_truthTable;
    QPushButton *m_evidence;
    QTableWidget *m_forecastersTable;
    QLabel *m_noteLabel;
    RowId m_kernelId = 0;
};

} // namespace gpuf
