// LessonStepBar: where the Lessons dock is in a lesson — "Step 2 of 4 · v0_naive → v2", or why there is no step —
// with the buttons to the previous and the next step.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace gpuf {

class LessonStepBar : public QWidget
{
    Q_OBJECT

public:
    explicit LessonStepBar(QWidget *parent = nullptr);

    QLabel *stepLabel() const { return m_label; }
    QPushButton *previousButton() const { return m_previous; }
    QPushButton *nextButton() const { return m_next; }

    // Step `index` (0-based) of `count`, comparing kernel `from` with kernel `to`.
    void showStep(int index, int count, const QString &from, const QString &to);
    // No step: a store without lessons says how to make some; no store says nothing.
    void showNoStep(bool storeOpen);

private:
    QLabel *m_label;
    QPushButton *m_previous;
    QPushButton *m_next;
};

} // namespace gpuf
