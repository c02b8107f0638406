// LessonsPanel (the Lessons dock): pick a lesson and a student, walk its steps — the step's diff (the shared diff view,
// forecast annotations on), then predict before reveal: the student gives a bin or a distribution and a sentence of
// reasoning, and only "Reveal" shows the measured speedup on each recorded GPU with its bin, what the stored
// forecasters said, the teaching note and the student's score (hit or off by N, Brier, log score). Answers are stored
// as forecasts of the student's 'human' forecaster. Also owns "New Lesson from Selection…" for the candidate table,
// the lesson editor (reorder, rename) and the class report.
#pragma once

#include "core/domain/problem.h"
#include "core/lessons/lesson_reads.h"
#include "widgets/lessons/lesson_step_data.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QToolButton;

namespace gpuf {

class DiffView;
class DistributionEditor;
class DistributionPlot;
class Selection;
class StoreSession;
struct StoreChange;
class SyntaxHighlighting;

class LessonsPanel : public QWidget
{
    Q_OBJECT

public:
    LessonsPanel(StoreSession *session, Selection *selection, std::shared_ptr<const SyntaxHighlighting> syntax,
        QWidget *parent = nullptr);
    ~LessonsPanel() override;

    // "New Lesson from Selection…": a custom lesson from the candidate table's selected kernels.
    QAction *newLessonFromSelectionAction() const { return m_newLessonAction; }

    // For tests and the window: what is shown.
    QComboBox *lessonBox() const { return m_lessonBox; }
    QComboBox *studentBox() const { return m_studentBox; }
    QToolButton *generateButton() const { return m_generate; }
    QToolButton *addStudentButton() const { return m_addStudent; }
    QToolButton *editLessonButton() const { return m_editLesson; }
    DiffView *diffView() const { return m_diff; }
    DistributionEditor *editor() const { return m_editor; }
    QLineEdit *reasoningEdit() const { return m_reasoning; }
    QPushButton *revealButton() const { return m_reveal; }
    QPushButton *nextButton() const { return m_next; }
    QPushButton *previousButton() const { return m_previous; }
    QLabel *stepLabel() const { return m_stepLabel; }
    QLabel *scoreLabel() const { return m_scoreLabel; }
    QLabel *noteLabel() const { return m_noteLabel; }
    QLabel *statusLabel() const { return m_status; }
    QTableWidget *truthTable() const { return m_truthTable; }
    QTableWidget *forecastersTable() const { return m_forecastersTable; }
    QWidget *revealArea() const { return m_revealArea; }
    bool isRevealed() const { return m_revealed; }
    int stepIndex() const { return m_index; }
    // True while the catalog or a step is being read, or an answer, student or lesson written.
    bool isBusy() const { return m_catalogReading || m_stepReading || m_writes > 0; }

    void selectLesson(const QString &name);
    void selectStudent(const QString &displayName);

Q_SIGNALS:
    void stepShown(int index);
    void revealed();
    void notice(const QString &text);

private:
    void createLayout();
    QWidget *createPredictArea();
    void createRevealArea();
    void loadCatalog();
    void applyCatalog(const lessons::LessonCatalog &catalog);
    void followChange(const gpuf::StoreChange &change);
    void loadStep();
    void applyStep(const LessonStepData &data);
    void reveal();
    void showReveal(const bins::Distribution &p, int predictedBin);
    void hideReveal();
    void goTo(int index);
    void askText(const QString &title, const QString &label, std::function<void(const QString &)> then);
    void addStudent();
    void storeStudent(const QString &name);
    void newLessonFromSelection();
    void storeLesson(const QList<RowId> &ids, const QString &title);
    void editLesson();
    void showClassReport();
    void generateLessons();
    void setStatus(const QString &text);
    RowId lessonId() const;
    RowId studentId() const;

    StoreSession *m_session;
    Selection *m_selection;
    QComboBox *m_lessonBox = nullptr;
    QComboBox *m_studentBox = nullptr;
    QToolButton *m_addStudent = nullptr;
    QToolButton *m_editLesson = nullptr;
    QToolButton *m_generate = nullptr;
    QPushButton *m_reportButton = nullptr;
    QLabel *m_stepLabel = nullptr;
    QPushButton *m_previous = nullptr;
    QPushButton *m_next = nullptr;
    DiffView *m_diff = nullptr;
    DistributionEditor *m_editor = nullptr;
    QLineEdit *m_reasoning = nullptr;
    QPushButton *m_reveal = nullptr;
    QWidget *m_revealArea = nullptr;
    QLabel *m_scoreLabel = nullptr;
    DistributionPlot *m_answerPlot = nullptr;
    QTableWidget *m_truthTable = nullptr;
    QTableWidget *m_forecastersTable = nullptr;
    QLabel *m_noteLabel = nullptr;
    QLabel *m_status = nullptr;
    QAction *m_newLessonAction = nullptr;

    lessons::LessonCatalog m_catalog;
    std::optional<LessonStepData> m_data;
    int m_index = 0;
    bool m_revealed = false;
    bool m_catalogReading = false;
    bool m_stepReading = false;
    int m_writes = 0; // writes whose result has not come back
};

} // namespace gpuf
