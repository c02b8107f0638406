// Kernel specs typed into a form: the fields of "New Problem…" and of an added kernel's launches, in the short
// notations a person writes (args "x, y, rows:i32", variables "rows=4096, cols=1024", initialisers
// "uniform(-1, 1, seed=7)"), turned into a gpuf-kernel/1 spec and checked by the same validator gpuf-measure applies
// (core/gpu/kernel_spec). Every problem is reported against the spec path of its field, so a form can put the message
// next to the field. Creating a problem (and its reference kernel) in a store goes through here too.
#pragma once

#include "core/common/result.h"
#include "core/domain/kernel.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QStringList>

#include <array>

namespace gpuf {
class Store;
}

namespace gpuf::interop {

struct LaunchFields
{
    QString entry;
    std::array<QString, 3> grid {QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("1")};
    std::array<QString, 3> block {QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("1")};
    QString sharedBytes = QStringLiteral("0");
    QString args; // "x, y, rows:i32, 0.5*scale:f32": a buffer name, or EXPR:TYPE for a scalar
};

struct BufferFields
{
    QString name;
    QString dtype = QStringLiteral("f32");
    QString count;
    QString role = QStringLiteral("input");
    QString init; // "uniform(L, H, seed=S)", "normal(M, D, seed=S)", "constant(V)", "iota(A, B)"; empty for outputs
};

struct CaseFields
{
    QString name;
    QString vars; // "rows=4096, cols=1024"
};

struct ProblemFields
{
    QString name;
    QString family;
    QString description;
    QString referenceName; // the reference kernel's name ("v0_naive")
    QString source; // the reference kernel's CUDA source
    QList<LaunchFields> launches;
    QList<BufferFields> buffers;
    QList<CaseFields> cases;
    QString rtol = QStringLiteral("1e-5");
    QString atol = QStringLiteral("1e-6");
    QString bytesMoved; // optional expression
    QString flops; // optional expression
};

// One problem with one field: `field` is the spec path ("name", "launches[0].grid[1]", "buffers[2].init",
// "cases[1].vars"), `message` says what is wrong in words, `caseName` names the case an expression failed in.
struct FieldIssue
{
    QString field;
    QString message;
    QString caseName;
    bool operator==(const FieldIssue &) const = default;
};

// The launch as JSON ("entry", "grid", "block", "shared_bytes", "args") and the notation problems of its fields,
// under "launches[<index>]…". Buffer names decide whether a bare name in `args` is a buffer.
QJsonObject launchJson(
    const LaunchFields &launch, int index, const QStringList &bufferNames, QList<FieldIssue> &issues);
// A stored launch back into fields (to prefill a form with a parent's launch).
LaunchFields launchFields(const QJsonObject &launch);

QJsonObject bufferJson(const BufferFields &buffer, int index, QList<FieldIssue> &issues);
QJsonObject caseJson(const CaseFields &fields, int index, QList<FieldIssue> &issues);

// The complete spec of the problem's reference kernel, with the notation problems found on the way.
struct SpecDraft
{
    QJsonObject spec;
    QList<FieldIssue> issues;
};
SpecDraft referenceSpec(const ProblemFields &fields);

// The validator gpuf-measure applies (structure, names that must resolve, every expression in every case), its
// messages split into field and words. Empty: the spec is valid.
QList<FieldIssue> validateSpec(const QJsonObject &spec);

// validateSpec for a form: the validator stops before evaluating expressions when the structure is wrong, so an
// empty source or a half-typed entry point would hide every grid or count problem. Those two are checked, then set
// aside (a placeholder in their place) and the rest checked again, so every field has its message at once.
QList<FieldIssue> validateSpecFields(const QJsonObject &spec);

// Everything wrong with the form: notation, the spec validator, and the problem's own fields (a name, unique in the
// store among `existingNames`; a CUDA source). Fast enough for every keystroke on small specs; a form runs it off the
// GUI thread anyway.
QList<FieldIssue> checkProblemFields(const ProblemFields &fields, const QStringList &existingNames);

// A kernel's spec with its launches replaced: `base` is the spec it shares buffers and cases with (its parent's or
// its problem's reference's), without the source.
QJsonObject specWithLaunches(const QJsonObject &base, const QJsonArray &launches);

struct CreatedProblem
{
    RowId problemId = 0;
    RowId referenceId = 0;
};

// Creates the problem and its reference kernel (origin "manual", parameters.spec = the spec without its source) in
// one transaction; refuses, changing nothing, when checkProblemFields finds anything or the name is taken.
Result<CreatedProblem> createProblem(Store &store, const ProblemFields &fields);

} // namespace gpuf::interop

Q_DECLARE_METATYPE(gpuf::interop::FieldIssue)
