// The Lessons' reads of the store as named functions taking the store and a CancelToken, shared by the explorer (run
// through the session's read<T>) and `gpuf lessons`: the catalog of lessons and student profiles. (A step with its
// diff and forecasts is core/session/lesson_step; the class report is class_report.h.)
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/domain/lesson.h"

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

// The lesson and student the Lessons dock shows after it reads the catalog again (another program or a write may
// have added, renamed or removed some): the first lesson whose label is `lessonLabel` (the one shown before), else
// the first lesson; student `studentId`, else the first student; 0 where the catalog has none.
struct CatalogChoice
{
    RowId lessonId = 0;
    RowId studentId = 0;
    bool sameLesson = false; // the lesson labelled `lessonLabel` is still there: the dock stays on its step
};
CatalogChoice chooseInCatalog(const LessonCatalog &catalog, const QString &lessonLabel, RowId studentId);

} // namespace lessons
} // namespace gpuf
