// A tuning space with known outcomes: every configuration of a kernel family (or of an imported Kernel Tuner / T4
// space) that has a recorded outcome, as the tunables' values and the speedup over the space's reference (or a
// failure). The baselines of `gpuf search compare` search it directly, and its optimum and its random-search
// expectation are what every strategy's figures are measured against (docs/search.md, "Comparing strategies").
#pragma once

#include "core/common/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpuf::search {

struct ReplayWorld;

struct SpacePoint
{
    QList<qint64> configuration; // one value per tunable, in TuningSpace::tunables order
    std::optional<double> speedup; // over the space's reference; nullopt: the evaluation failed (it still costs one)
    double runtimeUs = 0.0; // the recorded runtime of one run (summed over the cases); 0 for a failure
    QString contentHash; // the kernel's, so a search's evaluations map onto the space
};

struct TuningSpace
{
    QString name; // the family or the imported space
    QString hardware;
    QStringList tunables;
    QList<QList<qint64>> values; // per tunable: the values it takes, ascending
    QList<SpacePoint> points;

    int size() const { return int(points.size()); }
    int indexOf(const QList<qint64> &configuration) const; // -1 when the configuration is outside the space
    int indexOfHash(const QString &contentHash) const; // -1 when no point has that kernel
    // The points one tunable's one step away (the next or previous value in its list), in tunable order.
    QList<int> neighbours(int point) const;
    double optimum() const; // the best speedup of any point; 0 when every point failed
    // Points whose speedup is at least `optimum() / (1 + within)` (within = 0.01: within 1 % of the optimum's time).
    int countNear(double within) const;
    QString label(int point) const; // "BM=64 BN=32 …"

    // Builds the lookups; call after filling the points. An error when a configuration appears twice or has the wrong
    // number of values.
    Status index();

private:
    QHash<QList<qint64>, int> m_byConfiguration;
    QHash<QString, int> m_byHash;
};

// The space a search over `world` moves in. With a family name: the world's kernels of that family (parameters
// {"family", "tunables"}: family expansions and imported spaces) with their recorded outcomes; the problem's other
// kernels (its corpus variants) are not part of it. Without: every recorded kernel of the problem, a pool without
// tunables (random search is the only baseline that can move in it). An error when nothing is left, or when the
// family's kernels carry different tunables.
Result<TuningSpace> spaceFromWorld(const ReplayWorld &world, const QString &family = {});

} // namespace gpuf::search
