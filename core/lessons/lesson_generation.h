// The lessons the product generates: one per corpus operation (its variants, naive to tuned, in corpus order, each
// compared with the variant it was derived from) and one per kernel family (a walk through its configurations, from
// the least tuned to the family's default; the rule is familyWalk's and docs/lessons.md's).
#pragma once

#include "core/common/result.h"
#include "core/domain/lesson.h"
#include "core/mutators/kernel_family.h"

#include <QStringList>

namespace gpuf {

class Store;

namespace lessons {

// One move of a family walk: tunable `tunable` (its index) goes from `from` to `to`.
struct WalkStep
{
    families::Configuration configuration; // the configuration after the move
    int tunable = 0;
    qint64 from = 0;
    qint64 to = 0;
};

struct FamilyWalk
{
    families::Configuration start;
    QList<WalkStep> steps;
};

// The walk through a family's configurations a family lesson takes. It starts at the first valid configuration in
// enumeration order (each tunable at its first listed value as far as the constraints allow: the least tuned kernel)
// and ends at the family's default (its tuned configuration). Each step changes exactly one tunable, so each diff
// shows one idea and its note is that tunable's: in the family's tunable order, the first tunable whose jump straight
// to its default value gives a valid configuration moves there; when no such jump is valid, the first tunable that can
// move one value towards its default does; when neither is possible the walk ends where it is. Pure.
Result<FamilyWalk> familyWalk(const families::KernelFamily &family, const QList<families::Configuration> &valid);

// The operation lesson of every problem with corpus kernels (origin "corpus" with a parent): name
// "operation/<problem>".
Result<QList<Lesson>> operationLessons(Store &store);

// The family lesson of `family`: its walk's configurations are stored as kernels of the family's problem (origin
// "param", parents along the walk; the same configuration is the same kernel, so a recorded sweep imported before or
// after gives the steps their measured truth). The first step compares the problem's reference with the walk's start.
// Fails when the store lacks the family's problem or its reference kernel. Name "family/<family>". Writes kernels:
// call inside a Transaction.
Result<Lesson> familyLesson(Store &store, const families::KernelFamily &family);

struct GenerationReport
{
    QStringList added; // lesson names
    QStringList kept; // already in the store (left as they are: a teacher may have edited them)
    QStringList skipped; // "family/x: why"
    QList<RowId> lessonIds; // the lessons added
    QList<RowId> kernelIds; // the family walks' kernels (stored when missing), ascending
    QString text() const;
};

// Generates and stores the operation lessons and, for every family in `families`, its family lesson; one transaction.
Result<GenerationReport> generateLessons(
    Store &store, bool operations, const QList<families::KernelFamily> &familyList);

} // namespace lessons
} // namespace gpuf
