// A search's configuration: mode, budgets, τ, seed, where proposals and measurements come from. Stored in the
// search_initialized event and in the searches row; a resume under a different configuration is refused.
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QJsonObject>
#include <QString>

namespace gpuf::search {

enum class Mode { Standard, Surrogate, Selective };
QString modeName(Mode mode); // "standard" | "surrogate" | "selective"
std::optional<Mode> modeFromName(const QString &name);

// Where a search's proposals come from (mutator.h): a recorded pool, kernels the user injects, a kernel family's
// tunables, or an LLM generator.
// How the surrogate and selective modes choose what to measure (docs/search.md, "Selection rules"): by the probability
// that a proposal beats its parent and the best so far and the expected gain, with the learner (ours, the default), or
// by the paper's rules (expected bin against the reference; τ on max-probability), kept so its results reproduce.
enum class Policy { Probability, Paper };
QString policyName(Policy policy); // "probability" | "paper"
std::optional<Policy> policyFromName(const QString &name);

enum class MutatorKind { Pool, Injected, Family, Llm };
QString mutatorName(MutatorKind kind); // "pool" | "injected" | "family" | "llm"
std::optional<MutatorKind> mutatorFromName(const QString &name);

// Where a search's measurements come from: the local GPU, recorded runtimes (replay), or a Slurm cluster's profile.
struct GpuSource
{
    enum class Kind { Local, Replay, Cluster };
    Kind kind = Kind::Replay;
    QString profile; // Cluster: the profile's name

    static GpuSource local() { return {Kind::Local, {}}; }
    static GpuSource replay() { return {Kind::Replay, {}}; }
    static GpuSource cluster(const QString &profile) { return {Kind::Cluster, profile}; }
    bool isLocal() const { return kind == Kind::Local; }
    bool isReplay() const { return kind == Kind::Replay; }
    // "local" | "replay" | "cluster:PROFILE", as stored in the configuration's JSON and given to --gpu.
    QString name() const;
    // nullopt for anything else (a "cluster:" without a profile included).
    static std::optional<GpuSource> fromName(const QString &name);
    bool operator==(const GpuSource &other) const = default;
};

// The surrogate and selective modes' forecaster "none": no prior forecaster reads the code; the learner alone forecasts
// from the configurations' tunables once it has measurements (a tuning space imported without its kernel template).
// The probability policy only: the paper's rules rank forecasts.
inline constexpr char kLearnerAlone[] = "none";

struct SearchConfig
{
    // The largest counts a search takes: far above any real use, low enough that no product of them overflows and that
    // a typo (--proposals 2000000000) is refused before anything is allocated.
    static constexpr int kMaxSteps = 10000000; // a search run until stopped
    static constexpr int kMaxParents = 1024;
    static constexpr int kMaxMeasurements = 4096;
    static constexpr int kMaxProposals = 16384;
    static constexpr int kMaxKeep = 1024;
    static constexpr int kMaxCapacity = 1000000;
    static constexpr qint64 kMaxProposalsPerStep = 65536; // parents × proposals

    Mode mode = Mode::Standard;
    int steps = 40;
    int parentsPerStep = 2;
    int proposalsPerParent = 4; // standard: equal to measurementsPerParent; surrogate/selective: k× that
    int measurementsPerParent = 4; // the GPU budget per parent and step, equal across modes
    int keepPerParent = 2; // archive admission: top-k children per parent
    int capacity = 1000;
    double c = 1.0; // PUCT exploration constant
    double tau = 0.5; // selective: a forecast whose confidence (p of its predicted bin) is below τ is not trusted
    // The certified setting: the acceptable error among trusted forecasts; τ then follows from the measured pairs by
    // conformal risk control (certified_trust.h). 0: off, τ as given.
    double alpha = 0.0;
    // Surrogate and selective. A configuration without the key (a log written before policies) follows the paper's.
    Policy policy = Policy::Probability;
    quint64 seed = 0;
    QString problem; // the problem's name
    RowId problemId = 0;
    QString forecaster; // surrogate/selective: a stored forecaster's name ("costmodel"), or kLearnerAlone
    MutatorKind mutator = MutatorKind::Pool;
    QJsonObject mutatorConfig; // the mutator's own configuration (family name, endpoint, pool source)
    GpuSource gpu; // replay unless told otherwise
    QString hardware; // replay: whose recorded runtimes; local: filled in with the device's name

    QJsonObject toJson() const;
    static Result<SearchConfig> fromJson(const QJsonObject &object);
    // Everything that is wrong with it, in one message (budgets ≤ 0, τ outside [0, 1], a mode without forecaster). A
    // mode, mutator or GPU source that is not one of the known ones is refused by fromJson (and the CLI's options).
    Status validate() const;
    // Surrogate and selective with a prior forecaster; with kLearnerAlone they choose by the learner alone.
    bool needsForecasts() const;
    QString clusterProfileName() const; // the profile of "cluster:PROFILE"; empty for local and replay
    int gpuBudgetPerStep() const { return parentsPerStep * measurementsPerParent; }
};

// The keys of two configurations that differ, "steps: 40 → 20" each; empty when equal. `steps` may differ (a resume
// may extend the budget) only when allowStepsChange.
QStringList configDifferences(const SearchConfig &stored, const SearchConfig &given, bool allowStepsChange);

} // namespace gpuf::search
