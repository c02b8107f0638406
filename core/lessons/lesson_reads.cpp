// The Lessons' reads; see lesson_reads.h.
#include "core/lessons/lesson_reads.h"

#include "core/lessons/lesson_answers.h"
#include "core/store/lesson_repo.h"

#include <algorithm>

namespace gpuf::lessons {

Result<LessonCatalog> readLessonCatalog(Store &store, LessonFilter filter, const CancelToken &cancel)
{
    auto lessonList = LessonRepo(store).list();
    if (!lessonList)
        return Error {lessonList.error()};
    if (cancel.isCancelled())
        return Error::cancelled();
    LessonCatalog catalog;
    for (const Lesson &l : std::as_const(*lessonList)) {
        if (filter == LessonFilter::All || !l.steps.isEmpty())
            catalog.lessons.append(l);
    }
    auto studentList = students(store);
    if (!studentList)
        return Error {studentList.error()};
    catalog.students = *studentList;
    return catalog;
}

CatalogChoice chooseInCatalog(const LessonCatalog &catalog, const QString &lessonLabel, RowId studentId)
{
    CatalogChoice choice;
    const auto lesson = std::find_if(
        catalog.lessons.cbegin(), catalog.lessons.cend(), [&](const Lesson &l) { return l.label() == lessonLabel; });
    choice.sameLesson = lesson != catalog.lessons.cend();
    if (choice.sameLesson)
        choice.lessonId = lesson->id;
    else if (!catalog.lessons.isEmpty())
        choice.lessonId = catalog.lessons.first().id;
    const bool known = std::any_of(
        catalog.students.cbegin(), catalog.students.cend(), [&](const Forecaster &s) { return s.id == studentId; });
    if (known)
        choice.studentId = studentId;
    else if (!catalog.students.isEmpty())
        choice.studentId = catalog.students.first().id;
    return choice;
}

} // namespace gpuf::lessons
