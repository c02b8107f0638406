// Generated lessons; see lesson_generation.h.
#include "core/lessons/lesson_generation.h"
#include "core/domain/lessons_tr.h"

#include "core/store/lesson_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>

namespace gpuf::lessons {
namespace {

using families::Configuration;

std::optional<Configuration> tryMove(const std::set<Configuration> &valid, Configuration c, int tunable, qint64 to)
{
    c[tunable] = to;
    if (valid.count(c) == 0)
        return std::nullopt;
    return c;
}

// One value along tunable t's list from its current value towards `target`.
qint64 oneTowards(const families::Tunable &t, qint64 current, qint64 target)
{
    const qsizetype at = t.values.indexOf(current);
    const qsizetype goal = t.values.indexOf(target);
    if (at < 0 || goal < 0 || at == goal)
        return current;
    return t.values.at(at + (goal > at ? 1 : -1));
}

Result<RowId> storeConfiguration(
    KernelRepo &kernels, const families::KernelFamily &family, const Configuration &c, RowId problemId, RowId parentId)
{
    auto expansion = families::expand(family, c);
    if (!expansion)
        return Error {expansion.error()};
    Kernel kernel;
    kernel.problemId = problemId;
    kernel.parentId = parentId;
    kernel.name = expansion->name;
    kernel.language = QStringLiteral("cuda");
    kernel.source = expansion->source;
    kernel.origin = QStringLiteral("param");
    kernel.parameters = expansion->parameters;
    kernel.notes = expansion->notes;
    return kernels.insertOrGet(kernel);
}

} // namespace

Result<FamilyWalk> familyWalk(const families::KernelFamily &family, const QList<Configuration> &valid)
{
    if (valid.isEmpty())
        return Error {tr("family '%1' has no valid configuration to walk through").arg(family.name)};
    const std::set<Configuration> validSet(valid.begin(), valid.end());
    const Configuration target = families::defaultConfiguration(family);
    FamilyWalk walk;
    walk.start = valid.first();
    Configuration current = walk.start;
    // Each move brings one tunable closer to its default, so the walk ends within the sum of the lists' lengths.
    qsizetype limit = 0;
    for (const families::Tunable &t : family.tunables)
        limit += t.values.size();
    for (qsizetype guard = 0; guard < limit && current != target; ++guard) {
        std::optional<WalkStep> move;
        for (int t = 0; t < family.tunables.size() && !move; ++t) {
            if (current[t] == target[t])
                continue;
            if (auto next = tryMove(validSet, current, t, target[t]))
                move = WalkStep {*next, t, current[t], target[t]};
        }
        for (int t = 0; t < family.tunables.size() && !move; ++t) {
            if (current[t] == target[t])
                continue;
            const qint64 to = oneTowards(family.tunables.at(t), current[t], target[t]);
            if (auto next = tryMove(validSet, current, t, to))
                move = WalkStep {*next, t, current[t], to};
        }
        if (!move)
            break;
        current = move->configuration;
        walk.steps.append(*move);
    }
    return walk;
}

Result<QList<Lesson>> operationLessons(Store &store)
{
    auto problems = ProblemRepo(store).list();
    if (!problems)
        return Error {problems.error()};
    KernelRepo kernels(store);
    auto summaries = kernels.summaries();
    if (!summaries)
        return Error {summaries.error()};
    QList<Lesson> out;
    for (const Problem &problem : std::as_const(*problems)) {
        auto list = kernels.list(problem.id);
        if (!list)
            return Error {list.error()};
        Lesson lesson;
        lesson.name = QStringLiteral("operation/") + problem.name;
        lesson.title = tr("%1: from the first kernel to the tuned ones").arg(problem.name);
        lesson.kind = LessonKind::Operation;
        lesson.source = problem.name;
        lesson.description = problem.description;
        for (const Kernel &k : std::as_const(*list)) {
            if (k.origin != QLatin1StringView("corpus") || k.parentId <= 0)
                continue;
            lesson.steps.append({0, k.parentId, k.id, k.notes.trimmed()});
        }
        if (!lesson.steps.isEmpty())
            out.append(lesson);
    }
    return out;
}

Result<Lesson> familyLesson(Store &store, const families::KernelFamily &family)
{
    auto problem = ProblemRepo(store).findByName(family.problem);
    if (!problem)
        return Error {problem.error()};
    if (!problem->has_value())
        return Error {tr("the store has no problem '%1' (import the corpus first)").arg(family.problem)};
    if ((*problem)->referenceKernelId <= 0)
        return Error {tr("problem '%1' has no reference kernel").arg(family.problem)};
    auto valid = families::validConfigurations(family);
    if (!valid)
        return Error {valid.error()};
    auto walk = familyWalk(family, *valid);
    if (!walk)
        return Error {walk.error()};
    KernelRepo kernels(store);
    const RowId problemId = (*problem)->id;
    Lesson lesson;
    lesson.name = QStringLiteral("family/") + family.name;
    lesson.title = family.title.isEmpty() ? family.name : family.title;
    lesson.kind = LessonKind::Family;
    lesson.source = family.name;
    lesson.description = family.description;
    auto start = storeConfiguration(kernels, family, walk->start, problemId, (*problem)->referenceKernelId);
    if (!start)
        return Error {start.error()};
    lesson.steps.append({0, (*problem)->referenceKernelId, *start,
        tr("The family's least tuned configuration (%1) against the problem's reference kernel. %2")
            .arg(families::configurationLabel(family, walk->start), family.description)});
    RowId previous = *start;
    for (const WalkStep &step : std::as_const(walk->steps)) {
        auto id = storeConfiguration(kernels, family, step.configuration, problemId, previous);
        if (!id)
            return Error {id.error()};
        const families::Tunable &t = family.tunables.at(step.tunable);
        lesson.steps.append(
            {0, previous, *id, QStringLiteral("%1: %2 → %3. %4").arg(t.name).arg(step.from).arg(step.to).arg(t.note)});
        previous = *id;
    }
    return lesson;
}

QString GenerationReport::text() const
{
    QStringList lines;
    lines << tr("%1 lesson(s) added, %2 already in the store").arg(added.size()).arg(kept.size());
    for (const QString &s : skipped)
        lines << tr("skipped %1").arg(s);
    return lines.join(QLatin1Char('\n'));
}

Result<GenerationReport> generateLessons(Store &store, bool operations, const QList<families::KernelFamily> &familyList)
{
    Transaction t(store);
    if (Status s = t.begin(); !s)
        return Error {s.error()};
    LessonRepo repo(store);
    GenerationReport report;
    auto keep = [&](Lesson lesson) -> Status {
        auto existing = repo.findByName(lesson.name);
        if (!existing)
            return Error {existing.error()};
        if (existing->has_value()) {
            report.kept << lesson.name;
            return {};
        }
        auto id = repo.insert(lesson);
        if (!id)
            return Error {id.error()};
        report.added << lesson.name;
        report.lessonIds << *id;
        return {};
    };
    if (operations) {
        auto list = operationLessons(store);
        if (!list)
            return Error {list.error()};
        for (const Lesson &l : std::as_const(*list)) {
            if (Status s = keep(l); !s)
                return Error {s.error()};
        }
    }
    for (const families::KernelFamily &family : familyList) {
        auto lesson = familyLesson(store, family);
        if (!lesson) {
            report.skipped << QStringLiteral("family/%1: %2").arg(family.name, lesson.error());
            continue;
        }
        for (const LessonStep &step : std::as_const(lesson->steps)) {
            if (!report.kernelIds.contains(step.kernelId))
                report.kernelIds << step.kernelId;
        }
        if (Status s = keep(*lesson); !s)
            return Error {s.error()};
    }
    std::sort(report.kernelIds.begin(), report.kernelIds.end());
    if (Status s = t.commit(); !s)
        return Error {s.error()};
    return report;
}

} // namespace gpuf::lessons
