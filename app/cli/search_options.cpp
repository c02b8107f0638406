// The options of `gpuf search`; see search_options.h.
#include "app/cli/search_options.h"

#include "app/cli/command.h"
#include "app/cli/option_names.h"
#include "core/measure/worker_locator.h"
#include "core/store/recorded_spaces.h"
#include "core/store/store.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace gpuf::cli {

using namespace gpuf::search;

namespace {

// The defaults of every option that sets a configuration's field: SearchConfig's own, as New Search… shows them.
const SearchConfig &defaults()
{
    static const SearchConfig config;
    return config;
}

// A step or GPU budget, refused as it always was ("--steps takes a whole number of at least 0, not 'x'"); a budget of
// 0 passes here and is refused by SearchConfig::validate() with its own sentence, as is one beyond its bound.
Option budgetOption(const QString &name, const QString &help)
{
    return Option::integer(name, QStringLiteral("N"), help)
        .atLeast(0)
        .refusedAs(QStringLiteral("takes a whole number of at least 0, not '%1'"));
}

// What the search optimises, where proposals come from, and its step and GPU budgets.
QList<Option> spaceAndBudgetOptions()
{
    return {
        Option::text(kName, QStringLiteral("NAME"), QStringLiteral("The search's name (start).")),
        Option::text(kProblem, QStringLiteral("P"), QStringLiteral("The problem to optimise (its name in the store).")),
        Option::text(
            kFamily, QStringLiteral("F"), QStringLiteral("Search a kernel family's space (mutator 'family').")),
        Option::text(
            kMode, QStringLiteral("M"), QStringLiteral("standard | surrogate | selective (default standard).")),
        Option::text(kForecaster, QStringLiteral("F"),
            QStringLiteral("Forecaster of the surrogate and selective modes (default costmodel).")),
        Option::text(kMutator, QStringLiteral("KIND"),
            QStringLiteral("Where proposals come from: pool | injected | family | llm (default pool).")),
        Option::text(kGenerator, QStringLiteral("NAME"),
            QStringLiteral("The LLM forecaster profile (gpuf forecaster add) whose endpoint generates kernels "
                           "(--mutator llm).")),
        budgetOption(kSteps, QStringLiteral("Steps (default %1).").arg(defaults().steps)),
        budgetOption(kParents, QStringLiteral("Parents per step (default %1).").arg(defaults().parentsPerStep)),
        budgetOption(kProposals,
            QStringLiteral("Proposals per parent (default: --measure; 4× that in the surrogate and selective modes).")),
        budgetOption(kMeasure,
            QStringLiteral("GPU measurements per parent and step (default %1).").arg(defaults().measurementsPerParent)),
        budgetOption(kKeep,
            QStringLiteral("Children kept per parent in the archive (default %1).").arg(defaults().keepPerParent)),
    };
}

// How the selective modes trust and where measurements come from: τ, α, the policy, the GPU, the seed.
QList<Option> trustAndSourceOptions()
{
    return {
        Option::real(kTau, QStringLiteral("T"),
            QStringLiteral("Selective mode: the confidence below which a forecast is not trusted (default %1).")
                .arg(defaults().tau))
            .refusedAs(QStringLiteral("takes a number in [0, 1], not '%1'")), // the range: validate()
        // (0, 1), both ends excluded: the nearest numbers inside are the range.
        Option::real(kAlpha, QStringLiteral("A"),
            QStringLiteral("Surrogate and selective modes: the acceptable error among trusted forecasts; τ is then set "
                           "before each step by conformal risk control over the pairs measured so far (certified "
                           "setting, docs/search.md; default: off, τ as given)."))
            .atLeast(std::nextafter(0.0, 1.0))
            .atMost(std::nextafter(1.0, 0.0))
            .refusedAs(QStringLiteral("takes an error rate in (0, 1), not '%1'")),
        Option::text(kPolicy, QStringLiteral("P"),
            QStringLiteral("Surrogate and selective modes: what to measure — probability (the chance of beating the "
                           "parent and the best, with a learner; default) | paper (the paper's rules).")),
        Option::text(kGpu, QStringLiteral("G"),
            QStringLiteral("Measurements from: local | replay | cluster:PROFILE (a Slurm cluster, docs/cluster.md; "
                           "default replay).")),
        Option::flag(kUnsandboxed,
            QStringLiteral("Local: run Python candidates even where their sandbox (bubblewrap) cannot be made; only "
                           "for candidates you trust (docs/python-problems.md).")),
        Option::text(kHardware, QStringLiteral("NAME"),
            QStringLiteral("Replay: whose recorded runtimes (default: the GPU with most of them).")),
        Option::uint64(kSeed, QStringLiteral("N"), QStringLiteral("Seed (default %1).").arg(defaults().seed))
            .refusedAs(QStringLiteral("takes a whole number, not '%1'")),
        Option::text(
            kModel, QStringLiteral("FILE"), QStringLiteral("The cost model's model file (default: the built-in one).")),
        Option::text(kOut, QStringLiteral("FILE"), QStringLiteral("export: the events.jsonl to write.")),
    };
}

// What `gpuf search compare` and the pool mutator take.
QList<Option> compareOptions()
{
    return {
        Option::integer(
            kSeeds, QStringLiteral("N"), QStringLiteral("compare: searches per strategy, seeds --seed … (default 10)."))
            .atLeast(1)
            .atMost(1000),
        Option::text(kStrategies, QStringLiteral("LIST"),
            QStringLiteral("compare: the strategies, comma-separated: standard, surrogate, selective (modes), random, "
                           "greedy, genetic (baselines); default standard,surrogate,selective,random.")),
        Option::text(kCsv, QStringLiteral("FILE"),
            QStringLiteral("compare: also write the anytime curves (mean and 95 % interval) as CSV.")),
        Option::integer(
            kJobs, QStringLiteral("N"), QStringLiteral("compare: searches run at once (default: the machine's cores)."))
            .atLeast(1)
            .atMost(256),
        Option::integer(kFactor, QStringLiteral("K"),
            QStringLiteral("compare: proposals per GPU measurement in the surrogate and selective modes (default 4)."))
            .atLeast(1),
        Option::flag(kQuiet, QStringLiteral("No progress on stderr.")),
        Option::text(kPool, QStringLiteral("SEARCH"),
            QStringLiteral("Propose a stored search's recorded proposals, in its order (mutator 'pool').")),
    };
}

// How fast start and resume run: a pace a person can watch (the explorer follows the store), or paused at once.
QList<Option> paceOptions()
{
    return {
        Option::real(kPace, QStringLiteral("N"),
            QStringLiteral("start, resume: at most N steps a second, so that a replay can be watched in the explorer "
                           "(0: as fast as it runs; the default)."))
            .atLeast(0.0)
            .atMost(1000.0)
            .refusedAs(QStringLiteral("takes steps per second from 0 to 1000, not '%1'")),
        Option::flag(kPaused,
            QStringLiteral("start: create the search and pause it before its first step; gpuf search resume, or "
                           "Resume in the explorer, runs it.")),
    };
}

} // namespace

QList<Option> searchOptions()
{
    return familySourceOptions() + spaceAndBudgetOptions() + trustAndSourceOptions() + compareOptions() + paceOptions();
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

// The step and GPU budgets (--steps, --parents, --measure, --keep, --proposals), checked by the runner.
void readBudgets(const OptionValues &given, SearchConfig &c)
{
    c.steps = given.integer(kSteps, c.steps);
    c.parentsPerStep = given.integer(kParents, c.parentsPerStep);
    c.measurementsPerParent = given.integer(kMeasure, c.measurementsPerParent);
    c.keepPerParent = given.integer(kKeep, c.keepPerParent);
    // The default proposals follow --measure; one beyond its bound is refused for itself (validate), not through them.
    const qint64 proposalsDefault = qint64(c.measurementsPerParent) * (c.mode == Mode::Standard ? 1 : 4);
    c.proposalsPerParent
        = given.integer(kProposals, int(std::min<qint64>(proposalsDefault, SearchConfig::kMaxProposals)));
}

} // namespace

// The configuration the options describe (defaults for what is not given).
Result<SearchConfig> configFromOptions(const QCommandLineParser &p, const OptionValues &given)
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
    readBudgets(given, c);
    c.tau = given.real(kTau, c.tau);
    c.alpha = given.real(kAlpha, c.alpha);
    if (p.isSet(kAlpha) && p.isSet(kMode) && c.mode == Mode::Standard)
        return Error {QStringLiteral("--alpha certifies the trust in forecasts: the standard mode makes none (give "
                                     "--mode surrogate or selective)")};
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
    c.seed = given.uint64(kSeed, c.seed);
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
