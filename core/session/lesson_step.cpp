// One lesson step; see lesson_step.h.
#include "core/session/lesson_step.h"

#include "core/store/lesson_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>

namespace gpuf {
namespace {

QString trLessonsPanel(const char *text) { return QCoreApplication::translate("gpuf::LessonsPanel", text); }

QString kernelTitle(const Kernel &k, const QString &role)
{
    return QStringLiteral("%1: %2").arg(role, k.name.isEmpty() ? QStringLiteral("#%1").arg(k.id) : k.name);
}

} // namespace

Result<LessonStepData> readLessonStep(
    Store &store, RowId lessonId, int index, RowId studentId, const CancelToken &cancel)
{
    auto lesson = LessonRepo(store).find(lessonId);
    if (!lesson)
        return Error {lesson.error()};
    if (!lesson->has_value())
        return Error {trLessonsPanel("the lesson is no longer in the store")};
    LessonStepData data;
    data.lesson = **lesson;
    if (index < 0 || index >= data.lesson.steps.size())
        return Error {trLessonsPanel("lesson '%1' has no step %2").arg(data.lesson.label()).arg(index + 1)};
    data.index = index;
    const LessonStep &step = data.step();
    KernelRepo kernels(store);
    auto reference = kernels.find(step.referenceKernelId);
    auto kernel = kernels.find(step.kernelId);
    if (!reference || !kernel)
        return Error {reference ? kernel.error() : reference.error()};
    if (!reference->has_value() || !kernel->has_value())
        return Error {trLessonsPanel("step %1 names a kernel that is no longer in the store").arg(index + 1)};
    if (cancel.isCancelled())
        return Error::cancelled();
    data.baseline
        = DiffSide {kernelTitle(**reference, trLessonsPanel("before")), (*reference)->language, (*reference)->source};
    data.candidate = DiffSide {kernelTitle(**kernel, trLessonsPanel("after")), (*kernel)->language, (*kernel)->source};
    // The annotations are an aid: a step without them is still a step.
    auto annotations
        = loadForecastAnnotations(store, step.kernelId, step.referenceKernelId, QStringLiteral("costmodel"));
    if (annotations)
        data.annotations = *annotations;
    if (cancel.isCancelled())
        return Error::cancelled();
    auto pair = loadPairForecasts(store, step.kernelId, step.referenceKernelId, cancel);
    if (!pair)
        return pair.failure();
    data.pair = *pair;
    for (const Forecast &f : std::as_const(data.pair.forecasts)) {
        if (studentId > 0 && f.forecasterId == studentId && f.status == ForecastStatus::Ok)
            data.answer = f; // ordered by id: the last is the newest
    }
    return data;
}

} // namespace gpuf
