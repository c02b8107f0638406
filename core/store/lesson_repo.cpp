// LessonRepo; see lesson_repo.h.
#include "core/store/lesson_repo.h"

#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf {
namespace {

const QString kLessonColumns = QStringLiteral("id, name, title, kind, source, description, created_at");

Lesson lessonFrom(const QSqlQuery &q)
{
    Lesson l;
    l.id = q.value(0).toLongLong();
    l.name = q.value(1).toString();
    l.title = q.value(2).toString();
    l.kind = lessonKindFromName(q.value(3).toString()).value_or(LessonKind::Custom);
    l.source = q.value(4).toString();
    l.description = q.value(5).toString();
    l.createdAt = sql::fromStoredTime(q.value(6).toString());
    return l;
}

} // namespace

Result<RowId> LessonRepo::insert(Lesson &lesson)
{
    if (Status valid = lessons::validate(lesson); !valid)
        return Error {valid.error()};
    auto existing = findByName(lesson.name);
    if (!existing)
        return Error {existing.error()};
    if (existing->has_value())
        return Error {QStringLiteral("a lesson named '%1' is already in the store").arg(lesson.name)};
    auto q = m_cache.get(QStringLiteral(
        "INSERT INTO lessons (name, title, kind, source, description, created_at) VALUES (?, ?, ?, ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    if (!lesson.createdAt.isValid())
        lesson.createdAt = QDateTime::currentDateTimeUtc();
    Status s = store::execBound(*q,
        {lesson.name, lesson.title, lessonKindName(lesson.kind), lesson.source, lesson.description,
            sql::toStoredTime(lesson.createdAt)});
    if (!s)
        return Error {QStringLiteral("cannot store lesson '%1': %2").arg(lesson.name, s.error())};
    lesson.id = (*q)->lastInsertId().toLongLong();
    if (Status steps = insertSteps(lesson.id, lesson.steps); !steps)
        return Error {steps.error()};
    return lesson.id;
}

Status LessonRepo::insertSteps(RowId lessonId, const QList<LessonStep> &steps)
{
    auto q = m_cache.get(QStringLiteral("INSERT INTO lesson_steps (lesson_id, position, reference_kernel_id, "
                                        "kernel_id, note) VALUES (?, ?, ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const LessonStep &step = steps.at(i);
        if (Status s = store::execBound(*q, {lessonId, qint64(i), step.referenceKernelId, step.kernelId, step.note});
            !s)
            return Error {QStringLiteral("cannot store step %1 of a lesson: %2").arg(i + 1).arg(s.error())};
    }
    return {};
}

Status LessonRepo::update(const Lesson &lesson)
{
    if (Status valid = lessons::validate(lesson); !valid)
        return valid;
    auto other = findByName(lesson.name);
    if (!other)
        return Error {other.error()};
    if (other->has_value() && (*other)->id != lesson.id)
        return Error {QStringLiteral("a lesson named '%1' is already in the store").arg(lesson.name)};
    auto q = m_cache.get(QStringLiteral("UPDATE lessons SET name = ?, title = ?, description = ? WHERE id = ?"));
    if (!q)
        return Error {q.error()};
    if (Status s = store::execBound(*q, {lesson.name, lesson.title, lesson.description, lesson.id}); !s)
        return s;
    if ((*q)->numRowsAffected() != 1)
        return Error {QStringLiteral("lesson %1 is not in the store").arg(lesson.id)};
    auto clear = m_cache.get(QStringLiteral("DELETE FROM lesson_steps WHERE lesson_id = ?"));
    if (!clear)
        return Error {clear.error()};
    if (Status s = store::execBound(*clear, {lesson.id}); !s)
        return s;
    return insertSteps(lesson.id, lesson.steps);
}

Status LessonRepo::remove(RowId lessonId)
{
    auto q = m_cache.get(QStringLiteral("DELETE FROM lessons WHERE id = ?"));
    if (!q)
        return Error {q.error()};
    return store::execBound(*q, {lessonId});
}

Result<QList<LessonStep>> LessonRepo::steps(RowId lessonId)
{
    auto q = m_cache.get(QStringLiteral("SELECT id, reference_kernel_id, kernel_id, note FROM lesson_steps"
                                        " WHERE lesson_id = ? ORDER BY position"));
    if (!q)
        return Error {q.error()};
    if (Status s = store::execBound(*q, {lessonId}); !s)
        return Error {s.error()};
    QList<LessonStep> out;
    while ((*q)->next())
        out.append({(*q)->value(0).toLongLong(), (*q)->value(1).toLongLong(), (*q)->value(2).toLongLong(),
            (*q)->value(3).toString()});
    return out;
}

Result<std::optional<Lesson>> LessonRepo::withSteps(Result<std::optional<Lesson>> lesson)
{
    if (!lesson || !lesson->has_value())
        return lesson;
    auto s = steps((*lesson)->id);
    if (!s)
        return Error {s.error()};
    (*lesson)->steps = *s;
    return lesson;
}

Result<std::optional<Lesson>> LessonRepo::find(RowId id)
{
    return withSteps(store::fetchOne<Lesson>(
        m_cache.get(QStringLiteral("SELECT ") + kLessonColumns + QStringLiteral(" FROM lessons WHERE id = ?")), {id},
        lessonFrom));
}

Result<std::optional<Lesson>> LessonRepo::findByName(const QString &name)
{
    return withSteps(store::fetchOne<Lesson>(
        m_cache.get(QStringLiteral("SELECT ") + kLessonColumns + QStringLiteral(" FROM lessons WHERE name = ?")),
        {name}, lessonFrom));
}

Result<QList<Lesson>> LessonRepo::list()
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT ") + kLessonColumns + QStringLiteral(" FROM lessons ORDER BY id"));
    if (!q)
        return Error {q.error()};
    QList<Lesson> out;
    while (q->next())
        out.append(lessonFrom(*q));
    auto all = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT lesson_id, id, reference_kernel_id, kernel_id, note FROM lesson_steps"
                       " ORDER BY lesson_id, position"));
    if (!all)
        return Error {all.error()};
    QHash<RowId, qsizetype> index;
    for (qsizetype i = 0; i < out.size(); ++i)
        index.insert(out.at(i).id, i);
    while (all->next()) {
        const qsizetype at = index.value(all->value(0).toLongLong(), -1);
        if (at >= 0)
            out[at].steps.append({all->value(1).toLongLong(), all->value(2).toLongLong(), all->value(3).toLongLong(),
                all->value(4).toString()});
    }
    return out;
}

Status saveLesson(Store &store, Lesson &lesson)
{
    Transaction t(store);
    if (Status s = t.begin(); !s)
        return s;
    LessonRepo repo(store);
    if (lesson.id == 0) {
        if (auto id = repo.insert(lesson); !id)
            return Error {id.error()};
    } else if (Status s = repo.update(lesson); !s) {
        return s;
    }
    return t.commit();
}

} // namespace gpuf
