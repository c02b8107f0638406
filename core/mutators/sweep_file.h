// Recorded sweeps of kernel families (docs/search.md, "Recorded sweeps"): the plan a sweep measures
// (`gpuf-sweep-plan/1`: the complete spec of every configuration, for the Qt-free device driver
// tests/gpu/sweep_families.py) and the measured result (`gpuf-sweep/1`: hardware, per-case timings and status of
// every configuration and of the problem's reference), their reading and writing, and the import of a sweep into a
// store so a replay search finds its runtimes there.
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"
#include "core/mutators/kernel_family.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace gpuf {
class Store;
}

namespace gpuf::families {

inline constexpr QLatin1StringView kSweepFormat {"gpuf-sweep/1"};
inline constexpr QLatin1StringView kSweepPlanFormat {"gpuf-sweep-plan/1"};

// Writes the plan: a header (family, its hash, problem, the reference's complete spec, seed, counts) and one line per
// configuration with its tunables, name, content hash and complete spec. `corpusDir` holds the family's problem.
Status writeSweepPlan(const QString &path, const KernelFamily &family, const QString &corpusDir,
    const QList<Configuration> &configurations, int validCount, quint64 seed);

// One case of a measured kernel: the worker's case result as recorded (docs/measure-protocol.md `cases[]`, trimmed
// of bulky fields), and the figures a replay needs read out of it.
struct SweepCase
{
    QString name;
    QString status; // ok | incorrect | runtime_error | timeout | compile_failed | infrastructure_failure | not_run
    QString message;
    double medianNs = -1.0; // -1: not timed
    QJsonObject result; // the case result as recorded (name included)
};

struct SweepEntry
{
    QJsonObject tunables; // empty for the reference
    QString name; // the expansion's name, or the reference variant's
    QString contentHash; // SHA-256 of the source
    QString status; // the worst case status; "ok" when every case is
    QString message;
    QList<SweepCase> cases;
    QJsonObject compile; // the compile object (resources, compile time), log dropped when it compiled
    QJsonObject provenance; // the timing request's provenance
    QString measuredAt;

    const SweepCase *findCase(const QString &caseName) const;
};

struct Sweep
{
    QString family;
    QString familyHash;
    QString problem;
    QJsonObject device; // gpuf-measure's device_info object
    QJsonObject options; // the timing options of every measurement
    QJsonObject correctnessOptions; // the options of the correctness pass
    int configsValid = 0;
    quint64 seed = 0;
    QString startedAt;
    double wallSeconds = 0.0;
    SweepEntry reference;
    QList<SweepEntry> entries;

    QString hardwareName() const; // device.name
};

// Geometric mean over the reference's cases of reference median / candidate median; nullopt when any case of either
// is not ok (a failure, not a speedup: paper-facts §1).
std::optional<double> entrySpeedup(const Sweep &sweep, const SweepEntry &entry);

// Reads a gpuf-sweep/1 file. Errors carry the line number; a last line cut short (a sweep stopped mid-write) is
// ignored, a broken earlier line is an error.
Result<Sweep> readSweep(const QString &path);
Status writeSweep(const QString &path, const Sweep &sweep);

struct SweepImportReport
{
    int kernels = 0; // configurations stored (new or already there)
    int measurements = 0;
    RowId hardwareId = 0;
    RowId problemId = 0;
    QString text() const;
};

// Stores the sweep's configurations as kernels of the family's problem (expanded from `family`, whose hash must be the
// sweep's), the problem itself from `corpusDir` when the store lacks it, the hardware, and every recorded case as a
// measurement; in one transaction. Kernels already stored are reused (content-deduplicated).
Result<SweepImportReport> importSweep(
    Store &store, const Sweep &sweep, const KernelFamily &family, const QString &corpusDir);

} // namespace gpuf::families
