// The Lessons' reads; see lesson_reads.h.
#include "core/lessons/lesson_reads.h"

#include "core/lessons/lesson_answers.h"
#include "core/store/lesson_repo.h"

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

} // namespace gpuf::lessons
