// The Lessons' reads of the store as named functions taking the store and a CancelToken, shared by the explorer (run
// through the session's read<T>) and `gpuf lessons`: the catalog of lessons and student profiles. (A step with its
// diff and forecasts is core/session/lesson_step; the class report is class_report.h.)
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/lessons/lesson.h"

#include <QList>

namespace gpuf {

class Store;

namespace lessons {

struct LessonCatalog
{
    QList<Lesson> lessons; // ordered by id, steps in teaching order
    QList<Forecaster> students; // ascending id
};

enum class LessonFilter : quint8 {
    All, // every stored lesson (`gpuf lessons list` shows a lesson left without steps too)
    WithSteps, // only lessons with a step to show: a lesson whose every kernel was deleted has none left
};

// The store's lessons and student profiles. Nothing is written.
Result<LessonCatalog> readLessonCatalog(Store &store, LessonFilter filter, const CancelToken &cancel = {});

} // namespace lessons
} // namespace gpuf
