// The Lessons' writes; see lesson_writes.h.
#include "core/lessons/lesson_writes.h"
#include "core/domain/lessons_tr.h"

#include "core/lessons/lesson_answers.h"
#include "core/mutators/shipped_families.h"
#include "core/store/lesson_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>

namespace gpuf::lessons {
namespace {

// Kernel `id`, or an error saying it is gone.
Result<Kernel> storedKernel(KernelRepo &kernels, RowId id)
{
    auto k = kernels.find(id);
    if (!k)
        return Error {k.error()};
    if (!k->has_value())
        return Error {tr("kernel %1 is no longer in the store").arg(id)};
    return **k;
}

} // namespace

Result<StoredAnswer> answerStep(Store &store, const StepAnswer &answer)
{
    auto lesson = LessonRepo(store).findByName(answer.lesson);
    if (!lesson)
        return Error {lesson.error()};
    if (!lesson->has_value())
        return Error {tr("no lesson named '%1' in the store").arg(answer.lesson)};
    const Lesson &l = **lesson;
    if (answer.step < 1 || answer.step > l.steps.size())
        return Error {tr("lesson '%1' has steps 1 to %2, not %3").arg(l.name).arg(l.steps.size()).arg(answer.step)};
    const LessonStep &step = l.steps.at(answer.step - 1);
    const bool checked = answer.shownReferenceId > 0 || answer.shownKernelId > 0;
    if (checked && (step.referenceKernelId != answer.shownReferenceId || step.kernelId != answer.shownKernelId))
        return Error {tr("step %1 of lesson '%2' changed since it was shown (a kernel was deleted or the lesson was "
                         "edited)")
                          .arg(answer.step)
                          .arg(l.label())};
    Answer a {answer.studentId, l.name, answer.step, step.referenceKernelId, step.kernelId, answer.p,
        answer.predictedBin, answer.reasoning, answer.studentName};
    auto ids = saveAnswer(store, a);
    if (!ids)
        return Error {ids.error()};
    return StoredAnswer {*ids, step.referenceKernelId, step.kernelId};
}

Result<Lesson> lessonFromKernels(Store &store, const QList<RowId> &kernelIds, const QString &title)
{
    const QString shown = title.simplified();
    if (shown.isEmpty())
        return Error {tr("a lesson needs a title")};
    KernelRepo kernels(store);
    QList<SelectedKernel> chosen;
    for (const RowId id : kernelIds) {
        auto k = storedKernel(kernels, id);
        if (!k)
            return Error {k.error()};
        chosen.append({id, k->parentId, k->problemId, k->notes});
    }
    auto steps = stepsFromSelection(chosen);
    if (!steps)
        return Error {steps.error()};
    Lesson lesson;
    lesson.name = QStringLiteral("custom/") + shown;
    lesson.title = shown;
    lesson.kind = LessonKind::Custom;
    lesson.steps = *steps;
    if (Status s = saveLesson(store, lesson); !s)
        return Error {s.error()};
    return lesson;
}

Result<Lesson> saveEditedLesson(Store &store, Lesson lesson)
{
    auto stored = LessonRepo(store).find(lesson.id);
    if (!stored)
        return Error {stored.error()};
    if (lesson.id <= 0 || !stored->has_value())
        return Error {tr("lesson '%1' is no longer in the store").arg(lesson.label())};
    KernelRepo kernels(store);
    for (qsizetype i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep &s = lesson.steps.at(i);
        for (const RowId id : {s.referenceKernelId, s.kernelId}) {
            if (auto k = storedKernel(kernels, id); !k)
                return Error {tr("step %1: %2").arg(i + 1).arg(k.error())};
        }
    }
    if (Status s = saveLesson(store, lesson); !s)
        return Error {s.error()};
    return lesson;
}

Result<GenerationReport> generateShippedLessons(Store &store, bool withFamilies)
{
    QList<families::KernelFamily> familyList;
    if (withFamilies) {
        auto shipped = families::shippedFamilies();
        if (!shipped)
            return Error {shipped.error()};
        familyList = *shipped;
    }
    return generateLessons(store, true, familyList);
}

} // namespace gpuf::lessons
