// Lessons' pure rules; see lesson.h.
#include "core/domain/lesson.h"
#include "core/domain/lessons_tr.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <array>

namespace gpuf {
namespace {

constexpr std::array<std::pair<LessonKind, const char *>, 3> kKinds {
    {{LessonKind::Operation, "operation"}, {LessonKind::Family, "family"}, {LessonKind::Custom, "custom"}}};

} // namespace

QString lessonKindName(LessonKind kind)
{
    for (const auto &[k, name] : kKinds) {
        if (k == kind)
            return QString::fromLatin1(name);
    }
    return {};
}

std::optional<LessonKind> lessonKindFromName(const QString &name)
{
    for (const auto &[k, text] : kKinds) {
        if (name == QLatin1StringView(text))
            return k;
    }
    return std::nullopt;
}

namespace lessons {

Status validate(const Lesson &lesson)
{
    if (lesson.name.trimmed().isEmpty())
        return Error {tr("a lesson needs a name")};
    if (lesson.steps.isEmpty())
        return Error {
            tr("lesson '%1' has no steps; a lesson walks through at least one pair of kernels").arg(lesson.name)};
    for (qsizetype i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep &s = lesson.steps.at(i);
        if (s.referenceKernelId <= 0 || s.kernelId <= 0)
            return Error {tr("lesson '%1', step %2: names no kernel").arg(lesson.name).arg(i + 1)};
        if (s.referenceKernelId == s.kernelId)
            return Error {
                tr("lesson '%1', step %2: compares kernel %3 with itself").arg(lesson.name).arg(i + 1).arg(s.kernelId)};
    }
    return {};
}

Result<QList<LessonStep>> moveStep(const QList<LessonStep> &steps, int from, int to)
{
    if (from < 0 || from >= steps.size() || to < 0 || to >= steps.size())
        return Error {tr("no step %1 to move to position %2 (the lesson has %3 steps)")
                          .arg(from + 1)
                          .arg(to + 1)
                          .arg(steps.size())};
    QList<LessonStep> out = steps;
    out.move(from, to);
    return out;
}

Result<QList<LessonStep>> removeStep(const QList<LessonStep> &steps, int index)
{
    if (index < 0 || index >= steps.size())
        return Error {tr("no step %1 to remove (the lesson has %2 steps)").arg(index + 1).arg(steps.size())};
    if (steps.size() == 1)
        return Error {tr("a lesson keeps at least one step")};
    QList<LessonStep> out = steps;
    out.removeAt(index);
    return out;
}

int nextStep(int current, int count)
{
    if (count <= 0)
        return -1;
    return std::clamp(current + 1, 0, count - 1);
}

int previousStep(int current, int count)
{
    if (count <= 0)
        return -1;
    return std::clamp(current - 1, 0, count - 1);
}

Result<QList<LessonStep>> stepsFromSelection(const QList<SelectedKernel> &kernels)
{
    QList<SelectedKernel> unique;
    QSet<RowId> seen;
    for (const SelectedKernel &k : kernels) {
        if (!seen.contains(k.id)) {
            seen.insert(k.id);
            unique.append(k);
        }
    }
    if (unique.size() < 2)
        return Error {tr("a lesson needs at least two kernels: each step compares a kernel with another one")};
    for (const SelectedKernel &k : std::as_const(unique)) {
        if (k.problemId != unique.first().problemId)
            return Error {
                tr("the kernels belong to different problems; a lesson's steps compare kernels of one problem")};
    }
    QHash<RowId, RowId> parentOf;
    for (const SelectedKernel &k : std::as_const(unique))
        parentOf.insert(k.id, k.parentId);
    // Nearest selected ancestor, walking the parents among the selection (a cycle stops the walk).
    auto selectedAncestor = [&](RowId id) -> RowId {
        QSet<RowId> visited {id};
        for (RowId p = parentOf.value(id); p > 0 && !visited.contains(p); p = parentOf.value(p)) {
            if (seen.contains(p))
                return p;
            visited.insert(p);
        }
        return 0;
    };
    // Ancestors first: repeatedly take the first kernel whose selected ancestor is already placed.
    QList<SelectedKernel> ordered;
    QSet<RowId> placed;
    QList<SelectedKernel> pending = unique;
    while (!pending.isEmpty()) {
        qsizetype pick = 0;
        for (qsizetype i = 0; i < pending.size(); ++i) {
            const RowId a = selectedAncestor(pending.at(i).id);
            if (a == 0 || placed.contains(a)) {
                pick = i;
                break;
            }
        }
        placed.insert(pending.at(pick).id);
        ordered.append(pending.takeAt(pick));
    }
    QList<LessonStep> steps;
    for (qsizetype i = 1; i < ordered.size(); ++i) {
        const RowId ancestor = selectedAncestor(ordered.at(i).id);
        LessonStep step;
        step.referenceKernelId = ancestor > 0 ? ancestor : ordered.at(i - 1).id;
        step.kernelId = ordered.at(i).id;
        step.note = ordered.at(i).notes.trimmed();
        steps.append(step);
    }
    return steps;
}

} // namespace lessons
} // namespace gpuf
