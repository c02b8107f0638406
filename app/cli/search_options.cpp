// The options of `gpuf search`; see search_options.h.
#include "app/cli/search_options.h"

#include "app/cli/command.h"
#include "app/cli/option_names.h"
#include "core/measure/worker_locator.h"
#include "core/store/recorded_spaces.h"
#include "core/store/store.h"

#include <QFileInfo>

#include <algorithm>

namespace gpuf::cli {

using namespace gpuf::search;

namespace {

// How the selective modes trust and where measurements come from: τ, α, the policy, the GPU, the seed.
void addTrustAndSourceOptions(QCommandLineParser &p)
{
    p.addOption({kTau,
        QStringLiteral("Selective mode: the confidence below which a forecast is not trusted (default"
                       " 0.5)."),
        QStringLiteral("T")});
    p.addOption({kAlpha,
        QStringLiteral("Surrogate and selective modes: the acceptable error among trusted forecasts; τ is then set "
                       "before each step by conformal risk control over the pairs measured so far (certified "
                       "setting, docs/search.md; default: off, τ as given)."),
        QStringLiteral("A")});
    p.addOption({kPolicy,
        QStringLiteral("Surrogate and selective modes: what to measure — probability (the chance of beating the "
                       "parent and the best, with a learner; default) | paper (the paper's rules)."),
        QStringLiteral("P")});
    p.addOption({kGpu,
        QStringLiteral("Measurements from: local | replay | cluster:PROFILE (a Slurm cluster, docs/cluster.md; "
                       "default replay)."),
        QStringLiteral("G")});
    p.addOption({kUnsandboxed,
        QStringLiteral("Local: run Python candidates even where their sandbox (bubblewrap) cannot be made; only for "
                       "candidates you trust (docs/python-problems.md).")});
    p.addOption({kHardware, QStringLiteral("Replay: whose recorded runtimes (default: the GPU with most of them)."),
        QStringLiteral("NAME")});
    p.addOption({kSeed, QStringLiteral("Seed (default 0)."), QStringLiteral("N")});
    p.addOption(
        {kModel, QStringLiteral("The cost model's model file (default: the built-in one)."), QStringLiteral("FILE")});
    p.addOption({kOut, QStringLiteral("export: the events.jsonl to write."), QStringLiteral("FILE")});
}

// What `gpuf search compare` and the pool mutator take.
void addCompareOptions(QCommandLineParser &p)
{
    p.addOption(
        {kSeeds, QStringLiteral("compare: searches per strategy, seeds --seed … (default 10)."), QStringLiteral("N")});
    p.addOption({kStrategies,
        QStringLiteral("compare: the strategies, comma-separated: standard, surrogate, selective (modes), random, "
                       "greedy, genetic (baselines); default standard,surrogate,selective,random."),
        QStringLiteral("LIST")});
    p.addOption({kCsv, QStringLiteral("compare: also write the anytime curves (mean and 95 % interval) as CSV."),
        QStringLiteral("FILE")});
    p.addOption(
        {kJobs, QStringLiteral("compare: searches run at once (default: the machine's cores)."), QStringLiteral("N")});
    p.addOption({kFactor,
        QStringLiteral("compare: proposals per GPU measurement in the surrogate and selective modes"
                       " (default 4)."),
        QStringLiteral("K")});
    p.addOption({kQuiet, QStringLiteral("No progress on stderr.")});
    p.addOption({kPool, QStringLiteral("Propose a stored search's recorded proposals, in its order (mutator 'pool')."),
        QStringLiteral("SEARCH")});
}

} // namespace

void addSearchOptions(QCommandLineParser &p)
{
    addFamilySourceOptions(p); // families: --families-dir, --corpus-dir
    p.addOption({kName, QStringLiteral("The search's name (start)."), QStringLiteral("NAME")});
    p.addOption({kProblem, QStringLiteral("The problem to optimise (its name in the store)."), QStringLiteral("P")});
    p.addOption({kFamily, QStringLiteral("Search a kernel family's space (mutator 'family')."), QStringLiteral("F")});
    p.addOption({kMode, QStringLiteral("standard | surrogate | selective (default standard)."), QStringLiteral("M")});
    p.addOption({kForecaster, QStringLiteral("Forecaster of the surrogate and selective modes (default costmodel)."),
        QStringLiteral("F")});
    p.addOption({kMutator, QStringLiteral("Where proposals come from: pool | injected | family | llm (default pool)."),
        QStringLiteral("KIND")});
    p.addOption({kGenerator,
        QStringLiteral("The LLM forecaster profile (gpuf forecaster add) whose endpoint generates kernels (--mutator "
                       "llm)."),
        QStringLiteral("NAME")});
    p.addOption({kSteps, QStringLiteral("Steps (default 40)."), QStringLiteral("N")});
    p.addOption({kParents, QStringLiteral("Parents per step (default 2)."), QStringLiteral("N")});
    p.addOption({kProposals,
        QStringLiteral("Proposals per parent (default: --measure; 4× that in the surrogate and selective modes)."),
        QStringLiteral("N")});
    p.addOption({kMeasure, QStringLiteral("GPU measurements per parent and step (default 4)."), QStringLiteral("N")});
    p.addOption({kKeep, QStringLiteral("Children kept per parent in the archive (default 2)."), QStringLiteral("N")});
    addTrustAndSourceOptions(p);
    addCompareOptions(p);
}

Result<int> positiveInt(const QCommandLineParser &p, const QString &option, int fallback, bool allowZero)
{
    if (!p.isSet(option))
        return fallback;
    bool ok = false;
    const int v = p.value(option).toInt(&ok);
    if (!ok || v < (allowZero ? 0 : 1))
        return Error {QStringLiteral("--%1 takes a whole number of at least %2, not '%3'")
                          .arg(option)
                          .arg(allowZero ? 0 : 1)
                          .arg(p.value(option))};
    return v;
}

// --family F with --families-dir and --corpus-dir: the family and the mutator configuration naming it (the folders
// kept, absolute, so a resume reads the same files); refused when a folder does not exist or has no family F.
Result<std::pair<families::KernelFamily, QJsonObject>> familyFromOptions(const QCommandLineParser &p)
{
    QJsonObject config {{QStringLiteral("family"), p.value(kFamily)}};
    QString dirs[2];
    const std::pair<QString, const char *> options[]
        = {{QStringLiteral("families-dir"), "families_dir"}, {QStringLiteral("corpus-dir"), "corpus_dir"}};
    for (int i = 0; i < 2; ++i) {
        const QString &option = options[i].first;
        if (!p.optionNames().contains(option) || !p.isSet(option))
            continue;
        const QFileInfo dir(p.value(option));
        if (!dir.isDir())
            return Error {QStringLiteral("--%1: there is no folder %2").arg(option, p.value(option))};
        dirs[i] = dir.absoluteFilePath();
        config.insert(QLatin1StringView(options[i].second), dirs[i]);
    }
    auto family = families::findFamily(p.value(kFamily), dirs[0], dirs[1]);
    if (family)
        return std::pair {*family, config};
    if (!dirs[0].isEmpty() || !dirs[1].isEmpty())
        return Error {family.error()}; // the folder given must hold it
    // Not a family file: an imported tuning space, whose problem bears its name (knownSpace checks the store).
    families::KernelFamily imported;
    imported.name = p.value(kFamily);
    imported.problem = imported.name;
    return std::pair {imported, config};
}

// A --family that is neither a family file nor a tuning space imported into the store is refused with both lists.
Status knownSpace(Store &store, const SearchConfig &config)
{
    if (config.mutator != MutatorKind::Family)
        return {};
    const QString name = config.mutatorConfig.value(QStringLiteral("family")).toString();
    auto family = families::findFamily(name, config.mutatorConfig.value(QStringLiteral("families_dir")).toString(),
        config.mutatorConfig.value(QStringLiteral("corpus_dir")).toString());
    if (family)
        return {};
    auto spaces = recordedSpaces(store);
    if (!spaces)
        return Error {spaces.error()};
    QStringList imported;
    for (const RecordedSpace &s : std::as_const(*spaces)) {
        if (s.family == name)
            return {};
        if (!families::findFamily(s.family) && !imported.contains(s.family))
            imported.append(s.family);
    }
    return Error {
        QStringLiteral("%1, and no tuning space of that name is imported in %2%3")
            .arg(family.error(), store.path(),
                imported.isEmpty() ? QString() : QStringLiteral(" (imported: %1)").arg(imported.join(u", ")))};
}

namespace {

// --problem, --family, --mutator, --generator and --pool: what the search optimises and where proposals come from.
Status mutatorFromOptions(const QCommandLineParser &p, SearchConfig &c)
{
    c.problem = p.value(kProblem);
    if (p.isSet(kFamily)) {
        auto family = familyFromOptions(p);
        if (!family)
            return Error {family.error()};
        c.mutator = MutatorKind::Family;
        c.mutatorConfig = family->second;
        // A family optimises the corpus problem it is written for.
        if (c.problem.isEmpty())
            c.problem = family->first.problem;
    }
    if (p.isSet(kMutator)) {
        const auto mutator = mutatorFromName(p.value(kMutator));
        if (!mutator)
            return Error {QStringLiteral("unknown mutator '%1' (pool, injected, family, llm)").arg(p.value(kMutator))};
        c.mutator = *mutator;
    }
    if (p.isSet(kGenerator)) {
        c.mutator = MutatorKind::Llm;
        c.mutatorConfig = {{QStringLiteral("generator"), p.value(kGenerator)}};
    }
    if (p.isSet(kPool)) {
        c.mutator = MutatorKind::Pool;
        c.mutatorConfig
            = {{QStringLiteral("source"), QStringLiteral("search")}, {QStringLiteral("search"), p.value(kPool)}};
    }
    return {};
}

} // namespace

namespace {

Status readPolicy(const QCommandLineParser &p, SearchConfig &c)
{
    if (!p.isSet(kPolicy))
        return {};
    const auto policy = policyFromName(p.value(kPolicy));
    if (!policy)
        return Error {QStringLiteral("--policy must be probability or paper, not '%1'").arg(p.value(kPolicy))};
    c.policy = *policy;
    return {};
}

// The step and GPU budgets (--steps, --parents, --measure, --keep, --proposals): whole numbers, each refused with
// its own sentence.
Status readBudgets(const QCommandLineParser &p, SearchConfig &c)
{
    // A budget of 0 is refused by validate() with its own message, so 0 passes here.
    struct IntOption
    {
        const QString &name;
        int *target;
    };
    for (const IntOption &o : {IntOption {kSteps, &c.steps}, IntOption {kParents, &c.parentsPerStep},
             IntOption {kMeasure, &c.measurementsPerParent}, IntOption {kKeep, &c.keepPerParent}}) {
        auto v = positiveInt(p, o.name, *o.target, true);
        if (!v)
            return Error {v.error()};
        *o.target = *v;
    }
    // The default proposals follow --measure; one beyond its bound is refused for itself (validate), not through them.
    const qint64 proposalsDefault = qint64(c.measurementsPerParent) * (c.mode == Mode::Standard ? 1 : 4);
    c.proposalsPerParent = int(std::min<qint64>(proposalsDefault, SearchConfig::kMaxProposals));
    auto proposals = positiveInt(p, kProposals, c.proposalsPerParent, true);
    if (!proposals)
        return Error {proposals.error()};
    c.proposalsPerParent = *proposals;
    return {};
}

} // namespace

// The configuration the options describe (defaults for what is not given).
Result<SearchConfig> configFromOptions(const QCommandLineParser &p)
{
    SearchConfig c;
    if (p.isSet(kMode)) {
        auto mode = modeFromName(p.value(kMode));
        if (!mode)
            return Error {
                QStringLiteral("--mode must be standard, surrogate or selective, not '%1'").arg(p.value(kMode))};
        c.mode = *mode;
    }
    if (Status s = mutatorFromOptions(p, c); !s)
        return s.failure();
    if (c.problem.isEmpty())
        return Error {QStringLiteral("give the problem to search (--problem NAME or --family NAME)")};
    if (Status s = readBudgets(p, c); !s)
        return Error {s.error()};
    if (p.isSet(kTau)) {
        bool ok = false;
        c.tau = p.value(kTau).toDouble(&ok);
        if (!ok)
            return Error {QStringLiteral("--tau takes a number in [0, 1], not '%1'").arg(p.value(kTau))};
    }
    if (p.isSet(kAlpha)) {
        bool ok = false;
        c.alpha = p.value(kAlpha).toDouble(&ok);
        if (!ok || !(c.alpha > 0.0 && c.alpha < 1.0))
            return Error {QStringLiteral("--alpha takes an error rate in (0, 1), not '%1'").arg(p.value(kAlpha))};
        if (p.isSet(kMode) && c.mode == Mode::Standard)
            return Error {QStringLiteral("--alpha certifies the trust in forecasts: the standard mode makes none (give "
                                         "--mode surrogate or selective)")};
    }
    if (Status s = readPolicy(p, c); !s)
        return Error {s.error()};
    if (c.needsForecasts())
        c.forecaster = p.isSet(kForecaster) ? p.value(kForecaster) : QStringLiteral("costmodel");
    else if (p.isSet(kForecaster))
        c.forecaster = p.value(kForecaster);
    if (p.isSet(kGpu)) {
        const auto gpu = GpuSource::fromName(p.value(kGpu));
        if (!gpu)
            return Error {
                QStringLiteral("--gpu must be local, replay or cluster:PROFILE, not '%1'").arg(p.value(kGpu))};
        c.gpu = *gpu;
    }
    c.hardware = p.value(kHardware);
    if (p.isSet(kSeed)) {
        bool ok = false;
        c.seed = p.value(kSeed).toULongLong(&ok);
        if (!ok)
            return Error {QStringLiteral("--seed takes a whole number, not '%1'").arg(p.value(kSeed))};
    }
    if (Status s = c.validate(); !s)
        return Error {s.error()};
    return c;
}

SetupOptions setupFrom(const QCommandLineParser &p)
{
    SetupOptions s;
    s.costModelPath = p.value(kModel);
    if (p.isSet(kUnsandboxed))
        s.measureConfig.workerArguments << QString::fromLatin1(measure::kUnsandboxedArgument);
    return s;
}

// Each option given to resume that differs from the stored configuration, "--mode surrogate (the search has …)".
QStringList differencesFromOptions(const QCommandLineParser &p, const SearchConfig &stored)
{
    QStringList differences;
    auto differ = [&](const QString &option, const QString &storedValue) {
        if (p.isSet(option) && p.value(option) != storedValue)
            differences << QStringLiteral("--%1 %2 (the search has %3)").arg(option, p.value(option), storedValue);
    };
    differ(kProblem, stored.problem);
    differ(kMode, modeName(stored.mode));
    differ(kForecaster, stored.forecaster);
    differ(kMutator, mutatorName(stored.mutator));
    differ(kParents, QString::number(stored.parentsPerStep));
    differ(kProposals, QString::number(stored.proposalsPerParent));
    differ(kMeasure, QString::number(stored.measurementsPerParent));
    differ(kKeep, QString::number(stored.keepPerParent));
    if (p.isSet(kTau) && p.value(kTau).toDouble() != stored.tau)
        differences << QStringLiteral("--tau %1 (the search has %2)").arg(p.value(kTau)).arg(stored.tau);
    if (p.isSet(kAlpha) && p.value(kAlpha).toDouble() != stored.alpha)
        differences << QStringLiteral("--alpha %1 (the search has %2)").arg(p.value(kAlpha)).arg(stored.alpha);
    differ(kPolicy, policyName(stored.policy));
    differ(kGpu, stored.gpu.name());
    differ(kHardware, stored.hardware);
    differ(kSeed, QString::number(stored.seed));
    differ(kFamily, stored.mutatorConfig.value(QStringLiteral("family")).toString());
    differ(kPool, stored.mutatorConfig.value(QStringLiteral("search")).toString());
    differ(kGenerator, stored.mutatorConfig.value(QStringLiteral("generator")).toString());
    return differences;
}

} // namespace gpuf::cli
