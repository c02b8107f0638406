// LessonsController: the Lessons dock's state and actions. It owns the lesson catalog, the lesson and student chosen,
// the step shown (read through the session, the latest request wins) and whether it is revealed and with which
// answer, and it makes the lessons' writes through the session's write<T> (core/lessons/lesson_writes): a student's
// answer, a new student, a lesson from the selected kernels, a teacher's edit of a lesson and the generated lessons,
// each announced as a typed change. The views (lessons_panel.h) only show its state and send it what the user asked.
#pragma once

#include "core/bins/bins.h"
#include "core/common/result.h"
#include "core/lessons/lesson_reads.h"
#include "core/session/lesson_step.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;

namespace gpuf {

class Selection;
class StoreSession;
struct StoreChange;

namespace lessons {
struct StepAnswer;
}

// The answer a revealed step shows: the student's just now, or their stored one.
struct RevealedAnswer
{
    bins::Distribution p {};
    int predictedBin = 0; // 1..8
};

// What a newly shown step asks of the views.
struct StepTransition
{
    bool newStep = true; // another step or another pair than before: the diff and the reasoning start again
    bool clearDraft = true; // the student's unrevealed forecast goes (a new step, or the one before was revealed)
};

class LessonsController : public QObject
{
    Q_OBJECT

public:
    // Follows `session` (reads the catalog when a store opens, and again or the step when a write changes them) and
    // `selection` (what "New Lesson from Selection…" makes a lesson of).
    LessonsController(StoreSession *session, Selection *selection, QObject *parent = nullptr);
    ~LessonsController() override;

    StoreSession *session() const { return m_session; }
    // "New Lesson from Selection…": asks for a title (lessonTitleWanted) when at least two kernels are selected.
    QAction *newLessonFromSelectionAction() const { return m_newLessonAction; }

    const lessons::LessonCatalog &catalog() const { return m_catalog; }
    RowId lessonId() const { return m_lessonId; } // 0: none
    RowId studentId() const { return m_studentId; } // 0: nobody, answers are shown but not stored
    std::optional<Lesson> lesson() const; // the lesson chosen, as the catalog has it
    const std::optional<LessonStepData> &step() const { return m_step; } // the step shown
    int stepIndex() const { return m_index; }
    const std::optional<RevealedAnswer> &revealedAnswer() const { return m_revealed; }
    bool isRevealed() const { return m_revealed.has_value(); }
    // A step is shown, not revealed, and no answer to it is being stored.
    bool canAnswer() const { return m_step && !m_revealed && !m_answering; }
    bool isGenerating() const { return m_generating; }
    QString status() const { return m_status; }
    // True while the catalog or a step is being read, or an answer, student or lesson written.
    bool isBusy() const { return m_catalogReading || m_stepReading || m_writes > 0; }

    void chooseLesson(RowId lessonId); // at its first step
    void chooseStudent(RowId studentId);
    // The window's Evidence dialog on `kernelId` (the revealed step's candidate), through the selection.
    void requestEvidence(RowId kernelId);
    // Classroom mode: the window hides measured and forecast figures while true (Selection::answersHidden).
    void setAnswersHidden(bool hidden);
    void goTo(int index);
    void goToNext();
    void goToPrevious();
    // The student's answer to the step shown: stored for the student (then revealed), or only revealed when no
    // student is chosen. Refused by the store (the step changed meanwhile): the status says why, nothing is stored and
    // the lessons are read again.
    void answer(const bins::Distribution &p, int predictedBin, const QString &reasoning);
    void addStudent(const QString &displayName); // then chosen
    void makeLesson(const QList<RowId> &kernelIds, const QString &title); // then chosen
    // A teacher's edit of a stored lesson; on success the lesson is shown from its first step. `done` gets the outcome
    // on `context`'s thread while `context` exists.
    void saveLesson(const Lesson &lesson, QObject *context, std::function<void(const Result<Lesson> &)> done);
    void generateLessons();

Q_SIGNALS:
    // The catalog changed (and with it maybe the lesson or the student chosen, or whether a store is open).
    void catalogChanged();
    // Another lesson or student was chosen in the catalog shown.
    void choiceChanged();
    void generatingChanged(bool generating);
    // step() holds a newly read step; whether it is revealed is part of it.
    void stepChanged(gpuf::StepTransition transition);
    // No step to show: no store, or a store without lessons.
    void stepCleared();
    // The step shown was revealed, or whether it can be answered changed.
    void revealChanged();
    // The status line of the dock (a generation's report, why an answer was not stored, a hint); empty: none.
    void statusChanged(const QString &text);
    // A one-line message for the window's status bar.
    void notice(const QString &text);
    // "New Lesson from Selection…" with these kernels: the views ask for a title, then call makeLesson.
    void lessonTitleWanted(const QList<gpuf::RowId> &kernelIds);

private:
    void followChange(const StoreChange &change);
    void loadCatalog();
    void setCatalog(const lessons::LessonCatalog &catalog);
    void showLessonAt(RowId lessonId, int index);
    void clearStep();
    void loadStep();
    void applyStep(const LessonStepData &data);
    void reveal(const RevealedAnswer &answer);
    void storeAnswer(const lessons::StepAnswer &answer, const RevealedAnswer &shown);
    void newLessonFromSelection();
    void setStatus(const QString &text);
    void setGenerating(bool generating);

    StoreSession *m_session;
    Selection *m_selection;
    QAction *m_newLessonAction;

    lessons::LessonCatalog m_catalog;
    RowId m_lessonId = 0;
    RowId m_studentId = 0;
    int m_index = 0;
    std::optional<LessonStepData> m_step;
    std::optional<RevealedAnswer> m_revealed;
    QString m_status;
    bool m_answering = false; // an answer to the step shown is being stored
    bool m_generating = false;
    bool m_catalogReading = false;
    bool m_stepReading = false;
    int m_writes = 0; // writes whose result has not come back
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::StepTransition)
