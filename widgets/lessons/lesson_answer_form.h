// LessonAnswerForm: where the student predicts before the reveal — a bin or a distribution over the 8 bins
// (DistributionEditor), a sentence of reasoning and "Reveal", which sends the answer. Read-only once revealed.
#pragma once

#include "core/bins/bins.h"

#include <QGroupBox>

class QLineEdit;
class QPushButton;

namespace gpuf {

class DistributionEditor;

class LessonAnswerForm : public QGroupBox
{
    Q_OBJECT

public:
    explicit LessonAnswerForm(QWidget *parent = nullptr);

    DistributionEditor *editor() const { return m_editor; }
    QLineEdit *reasoningEdit() const { return m_reasoning; }
    QPushButton *revealButton() const { return m_reveal; }

    // A stored answer: its distribution (as edited) and reasoning.
    void showAnswer(const bins::Distribution &p, const QString &reasoning);
    // The untouched starting point: the uniform distribution, no reasoning.
    void reset();
    void clearReasoning();
    // Revealed: nothing can be changed and "Revealed" stays off; else editable, "Reveal" on when `canAnswer`.
    void setRevealed(bool revealed, bool canAnswer);

Q_SIGNALS:
    // "Reveal" was clicked with this forecast.
    void answered(const gpuf::bins::Distribution &p, int predictedBin, const QString &reasoning);

private:
    DistributionEditor *m_editor;
    QLineEdit *m_reasoning;
    QPushButton *m_reveal;
};

} // namespace gpuf
