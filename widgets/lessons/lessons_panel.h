// LessonsPanel (the Lessons dock): the views of a LessonsController composed — the lesson and student picker, the step
// bar, the step's diff (the shared diff view, forecast annotations on), the answer form (predict before reveal: a bin
// or a distribution and a sentence of reasoning) and, after "Reveal", what happened (the measured speedup on each
// recorded GPU with its bin, what the stored forecasters said, the teaching note and the student's score). It asks for
// names and titles and opens the lesson editor and the class report; the controller holds the state and writes.
#pragma once

#include "core/lessons/lesson_reads.h"

#include <QWidget>

#include <functional>
#include <memory>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QTableWidget;
class QToolButton;

namespace gpuf {

class DiffView;
class DistributionEditor;
class LessonAnswerForm;
class LessonPicker;
class LessonRevealView;
class LessonStepBar;
class LessonsController;
class Selection;
class StoreSession;
struct StepTransition;
class SyntaxHighlighting;

class LessonsPanel : public QWidget
{
    Q_OBJECT

public:
    // A panel with its own controller over `session` and `selection`.
    LessonsPanel(StoreSession *session, Selection *selection, std::shared_ptr<const SyntaxHighlighting> syntax,
        QWidget *parent = nullptr);
    // A panel showing `controller` (not owned), which may already hold a catalog and a step.
    LessonsPanel(
        LessonsController *controller, std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent = nullptr);
    ~LessonsPanel() override;

    LessonsController *controller() const { return m_controller; }
    // "New Lesson from Selection…": a custom lesson from the candidate table's selected kernels.
    QAction *newLessonFromSelectionAction() const;

    // For tests and the window: what is shown.
    QComboBox *lessonBox() const;
    QComboBox *studentBox() const;
    QToolButton *generateButton() const;
    QToolButton *addStudentButton() const;
    QToolButton *editLessonButton() const;
    DiffView *diffView() const { return m_diff; }
    DistributionEditor *editor() const;
    QLineEdit *reasoningEdit() const;
    QPushButton *revealButton() const;
    QPushButton *nextButton() const;
    QPushButton *previousButton() const;
    QLabel *stepLabel() const;
    QLabel *scoreLabel() const;
    QLabel *noteLabel() const;
    QLabel *statusLabel() const { return m_status; }
    QTableWidget *truthTable() const;
    QTableWidget *forecastersTable() const;
    QWidget *revealArea() const;
    // "Classroom: hide the answer until Reveal" (issue 27, item 10).
    QCheckBox *classroomBox() const { return m_classroom; }
    bool isRevealed() const;
    int stepIndex() const;
    // True while the catalog or a step is being read, or an answer, student or lesson written.
    bool isBusy() const;

    void selectLesson(const QString &name);
    void selectStudent(const QString &displayName);

Q_SIGNALS:
    void stepShown(int index);
    void revealed();
    void notice(const QString &text);

private:
    void createLayout();
    void connectController();
    void connectViews();
    void showCurrent();
    void showCatalog();
    void showAvailability();
    void showStep(const StepTransition &transition);
    void showNoStep();
    void showReveal();
    void applyClassroom();
    void showStatus(const QString &text);
    void askText(const QString &title, const QString &label, std::function<void(const QString &)> then);
    void askLessonTitle(const QList<RowId> &kernelIds);
    void editLesson();
    void showClassReport();

    LessonsController *m_controller;
    LessonPicker *m_picker = nullptr;
    LessonStepBar *m_stepBar = nullptr;
    DiffView *m_diff;
    LessonAnswerForm *m_form = nullptr;
    LessonRevealView *m_reveal = nullptr;
    QScrollArea *m_sideScroll = nullptr; // the answer form and, below it, the reveal
    QLabel *m_status = nullptr;
    QCheckBox *m_classroom = nullptr;
};

} // namespace gpuf
