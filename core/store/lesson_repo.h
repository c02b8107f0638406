// LessonRepo: lessons and their ordered steps in the store (schema version 2). Students are forecasters of kind
// 'human' (ForecasterRepo) and their answers are forecasts (ForecastRepo); nothing else is needed to keep them.
#pragma once

#include "core/common/result.h"
#include "core/domain/lesson.h"
#include "core/store/statement_cache.h"

namespace gpuf {

class LessonRepo
{
public:
    explicit LessonRepo(Store &store)
        : m_cache(store)
    { }

    // Stores a new lesson and its steps (lessons::validate first; a name already taken is an error naming it); sets
    // lesson.id. Multi-row: call inside a Transaction.
    Result<RowId> insert(Lesson &lesson);
    // Replaces a stored lesson's name, title, description and steps. Multi-row: call inside a Transaction.
    Status update(const Lesson &lesson);
    Status remove(RowId lessonId);
    Result<std::optional<Lesson>> find(RowId id);
    Result<std::optional<Lesson>> findByName(const QString &name);
    Result<QList<Lesson>> list(); // ordered by id, steps in teaching order

private:
    Status insertSteps(RowId lessonId, const QList<LessonStep> &steps);
    Result<QList<LessonStep>> steps(RowId lessonId);
    Result<std::optional<Lesson>> withSteps(Result<std::optional<Lesson>> lesson);

    store::StatementCache m_cache;
};

// Saves `lesson` in one transaction: inserted when its id is 0, else updated.
Status saveLesson(Store &store, Lesson &lesson);

} // namespace gpuf
