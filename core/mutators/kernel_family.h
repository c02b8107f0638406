// Kernel families (`gpuf-family/1`, docs/search.md): a parametric CUDA kernel whose source and launch use tunables,
// with the tunables' values, a validity constraint and a teaching note per tunable; expansion of a configuration into
// a complete gpuf-kernel/1 spec, enumeration of the valid space, and the neighbour move a family mutation makes.
#pragma once

#include "core/common/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace gpuf::families {

inline constexpr QLatin1StringView kFamilyFormat {"gpuf-family/1"};

struct Tunable
{
    QString name; // an identifier; becomes a #define of the source and a number in launch expressions
    QList<qint64> values; // ordered: neighbouring values are a mutation's one step
    qint64 defaultValue = 0;
    QString note; // teaching text: what the tunable changes and why it should matter
};

// A value computed from the tunables (e.g. THREADS = (BM/TM)*(BN/TN)), usable like a tunable.
struct Derived
{
    QString name;
    QString expression;
};

struct Constraint
{
    QString expression; // muparser over tunables and derived values, plus mod(a, b) and ceil_div(a, b); 0 = invalid
    QString why;
};

// A configuration: one value per tunable, in the family's tunable order.
using Configuration = QList<qint64>;

struct KernelFamily
{
    QString name;
    QString title;
    QString problem; // the corpus operation whose problem.json gives buffers, cases and tolerance
    QString description;
    QString source; // the template text; the expansion puts the #defines above it
    QJsonArray options; // extra NVRTC options
    QList<Tunable> tunables;
    QList<Derived> derived;
    QList<Constraint> constraints;
    QJsonArray launches; // gpuf-kernel/1 launches whose expressions may name tunables and derived values
    QJsonObject problemSpec; // the problem's shared part: buffers, cases, tolerance, bytes_moved, flops
    QString referenceVariant; // the problem's reference kernel (a corpus variant name)
    // SHA-256 over what decides its kernels (source, launches, options, tunables' names and values, derived values,
    // constraints, problem): a sweep or a search of another version is refused; notes and titles may change freely.
    QString contentHash;

    int tunableIndex(const QString &name) const; // -1 when there is none
    qint64 spaceSize() const; // every combination, valid or not
};

// A C identifier: a letter or '_', then letters, digits and '_' (tunable, problem and variable names).
bool isIdentifier(const QString &name);

// Parses a gpuf-family/1 object. `source` is the text of its source_file, `problem` the problem.json it names.
// Errors name the field ("tunables[2].default: 12 is not one of its values").
Result<KernelFamily> parseFamily(const QJsonObject &json, const QString &source, const QJsonObject &problem);

// Reads FAMILY.json, the source file beside it and `corpusDir`/<problem>/problem.json (paths may be Qt resources).
Result<KernelFamily> loadFamily(const QString &familyFile, const QString &corpusDir);

// Every family (*.json) in `dir`, by name; the first error stops the listing.
Result<QList<KernelFamily>> loadFamilies(const QString &dir, const QString &corpusDir);

Configuration defaultConfiguration(const KernelFamily &family);

// The worker's own validation of a complete gpuf-kernel/1 spec (structure, names, every expression for every case):
// empty when it is valid, else every error with its field.
QStringList validateKernelSpec(const QJsonObject &spec);

// "BM=64 BN=64 BK=8" in tunable order.
QString configurationLabel(const KernelFamily &family, const Configuration &configuration);
QJsonObject configurationJson(const KernelFamily &family, const Configuration &configuration);
// Every tunable present, nothing else, every value one of its values.
Result<Configuration> configurationFromJson(const KernelFamily &family, const QJsonObject &tunables);

// Whether the configuration satisfies the constraints; `reason` says which one fails (or which derived value is
// not an integer) when it does not.
bool satisfiesConstraints(const KernelFamily &family, const Configuration &configuration, QString *reason = nullptr);

// One configuration as a kernel.
struct Expansion
{
    QString name; // "sgemm_tiled BM=64 BN=64 …"
    QString source; // deterministic: the same configuration always gives the same text (and content hash)
    QJsonObject spec; // the complete gpuf-kernel/1 spec, source included
    QJsonObject parameters; // Kernel::parameters: {"spec": spec without source, "family", "tunables"}
    QString notes; // the family's description
};

// Fails when the configuration breaks a constraint or its spec does not validate (every expression, every case).
Result<Expansion> expand(const KernelFamily &family, const Configuration &configuration);

// The configurations that satisfy the constraints and whose specs validate, in enumeration order (the first tunable
// varies slowest). A family with none is an error that says why the first combinations were rejected.
Result<QList<Configuration>> validConfigurations(const KernelFamily &family);

// The family's own configuration of a stored kernel: parameters {"family": name, "tunables": {…}}; an error when the
// kernel is not one of this family's.
Result<Configuration> configurationOfParameters(const KernelFamily &family, const QJsonObject &parameters);

// A mutation: one or two tunables of `parent` moved to a neighbouring value (one step along their value lists), chosen
// with a generator seeded by `seed` among the moves whose result is in `valid`. Pure: the same inputs give the same
// answer on every machine. Fails when the parent is not valid or has no valid neighbour.
struct Move
{
    Configuration configuration;
    QStringList changed; // the tunables moved, in tunable order
};
Result<Move> neighbour(
    const KernelFamily &family, const QList<Configuration> &valid, const Configuration &parent, quint64 seed);

// A configuration drawn from `valid` with a generator seeded by `seed` (for parents that are not family kernels).
Configuration randomConfiguration(const QList<Configuration> &valid, quint64 seed);

// `count` distinct configurations of `valid` in a seeded random order (all of them, shuffled, when count <= 0 or
// count >= valid.size()).
QList<Configuration> sampleConfigurations(const QList<Configuration> &valid, int count, quint64 seed);

} // namespace gpuf::families
