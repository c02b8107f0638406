// Lessons: an ordered walk through kernel pairs, one step per diff with its teaching note, and the pure rules that
// make, check and reorder one (the store keeps them in core/store/lesson_repo; generation is in
// core/lessons/lesson_generation).
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace gpuf {

enum class LessonKind : quint8 {
    Operation, // generated from a corpus operation: its variants, naive to tuned, in corpus order
    Family, // generated from a kernel family: a walk through its configurations (lesson_generation.h)
    Custom, // made by a teacher from any kernels
};
QString lessonKindName(LessonKind kind); // "operation" | "family" | "custom"
std::optional<LessonKind> lessonKindFromName(const QString &name);

// One step: the kernel the student studies and the kernel it is compared with (its parent in the walk).
struct LessonStep
{
    RowId id = 0;
    RowId referenceKernelId = 0;
    RowId kernelId = 0;
    QString note; // teaching note, shown with the reveal
};

struct Lesson
{
    RowId id = 0;
    QString name; // unique within a store; the CLI and the bundle refer to a lesson by it
    QString title;
    LessonKind kind = LessonKind::Custom;
    QString source; // the operation or family a generated lesson walks; empty for a custom one
    QString description;
    QList<LessonStep> steps; // in teaching order
    QDateTime createdAt;

    QString label() const { return title.isEmpty() ? name : title; }
};

namespace lessons {

// A lesson the store can hold: a name, at least one step, and steps that compare two different stored kernels.
// The error says which step is wrong ("step 3: compares kernel 12 with itself").
Status validate(const Lesson &lesson);

// Moves the step at `from` to `to` (both 0-based indexes into `steps`); the others keep their order.
Result<QList<LessonStep>> moveStep(const QList<LessonStep> &steps, int from, int to);
// Removes the step at `index`; a lesson keeps at least one step.
Result<QList<LessonStep>> removeStep(const QList<LessonStep> &steps, int index);

// Walking through a lesson: the next and previous step index, clamped to the lesson (a lesson without steps: -1).
int nextStep(int current, int count);
int previousStep(int current, int count);

// A kernel chosen for a teacher's lesson, as the candidate table knows it.
struct SelectedKernel
{
    RowId id = 0;
    RowId parentId = 0; // 0: none
    RowId problemId = 0;
    QString notes;
};

// The steps of a lesson made from a selection of kernels: kernels are taken ancestors first (a kernel after every
// selected kernel of its lineage, otherwise in the order given); the first one is where the walk starts, and every
// later kernel is a step compared with its nearest selected ancestor, else with the kernel before it. The note is
// the kernel's own. Needs at least two kernels, all of one problem (a step compares kernels of one problem).
Result<QList<LessonStep>> stepsFromSelection(const QList<SelectedKernel> &kernels);

} // namespace lessons
} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::Lesson)
