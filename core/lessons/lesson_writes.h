// The Lessons' writes to the store as named functions, shared by the explorer (run through the session's write<T>,
// which then announces the change) and `gpuf lessons`: a student's answer to a step, a lesson made from selected
// kernels, a teacher's edit of a lesson, and the generated lessons. Each checks what it is given against the store
// first and refuses with a sentence saying what is wrong, writing nothing.
#pragma once

#include "core/bins/bins.h"
#include "core/common/result.h"
#include "core/domain/lesson.h"
#include "core/lessons/lesson_generation.h"

#include <QList>

namespace gpuf {

class Store;

namespace lessons {

// A student's answer to step `step` of the lesson called `lesson`.
struct StepAnswer
{
    RowId studentId = 0;
    QString lesson; // the lesson's name
    int step = 0; // 1-based
    bins::Distribution p {};
    int predictedBin = 0; // 1..8
    QString reasoning;
    // The pair the student was shown (the Lessons dock): the answer is refused when the step now compares other
    // kernels (a kernel was deleted, which takes its steps with it, or a teacher reordered the lesson meanwhile).
    // 0: not checked (`gpuf lessons answer` names the step by number only).
    RowId shownReferenceId = 0;
    RowId shownKernelId = 0;
    QString studentName; // with studentId 0: made a student only when the answer is stored (Answer::studentName)
};

struct StoredAnswer
{
    QList<RowId> forecastIds; // one per GPU the pair was measured on (lesson_answers.h)
    RowId referenceId = 0;
    RowId kernelId = 0; // the candidate forecast: what a Forecasts change names
};

// Stores `answer` as forecasts of the student's 'human' forecaster (saveAnswer). Refuses an unknown lesson, a step
// out of range, a step that no longer shows the pair the student saw, and what saveAnswer refuses.
Result<StoredAnswer> answerStep(Store &store, const StepAnswer &answer);

// A teacher's lesson from the chosen kernels (stepsFromSelection), stored as "custom/<title>". Refuses an empty
// title, a kernel no longer in the store, and what stepsFromSelection and the store refuse (a name already taken).
Result<Lesson> lessonFromKernels(Store &store, const QList<RowId> &kernelIds, const QString &title);

// Saves a teacher's edit of a stored lesson (its title and steps). Refuses a lesson no longer in the store and steps
// naming a kernel no longer in the store.
Result<Lesson> saveEditedLesson(Store &store, Lesson lesson);

// Generates the operation lessons and, with `withFamilies`, one lesson per shipped kernel family (generateLessons).
Result<GenerationReport> generateShippedLessons(Store &store, bool withFamilies);

} // namespace lessons
} // namespace gpuf
