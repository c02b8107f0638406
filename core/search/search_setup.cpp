// Search setup; see search_setup.h.
#include "core/search/search_setup.h"

#include "core/forecasters/backend_factory.h"
#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/forecasters/forecaster_reads.h"
#include "core/measure/cluster_profile.h"
#include "core/mutators/mutator_factory.h"
#include "core/mutators/shipped_sweeps.h"
#include "core/search/local_evaluator.h"
#include "core/search/recorded_mutators.h"
#include "core/search/space_mutator.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/recorded_spaces.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QEventLoop>
#include <QFileInfo>

namespace gpuf::search {

Result<QList<RecordedProposal>> recordedLog(Store *store, const QString &name)
{
    if (!store)
        return Error {QStringLiteral("a recorded search log needs a store")};
    SearchRepo searches(*store);
    auto search = searches.findByName(name);
    if (!search)
        return Error {search.error()};
    if (!search->has_value())
        return Error {QStringLiteral("no search named '%1' to take recorded proposals from").arg(name)};
    auto events = searches.events((*search)->id);
    if (!events)
        return Error {events.error()};
    QList<RecordedProposal> proposals = recordedProposals(*events);
    if (proposals.isEmpty())
        return Error {QStringLiteral("search '%1' recorded no proposal with code").arg(name)};
    return proposals;
}

Result<std::unique_ptr<Mutator>> makeMutator(const MutatorContext &context)
{
    switch (context.config.mutator) {
    case MutatorKind::Pool: {
        if (context.config.mutatorConfig.value(QStringLiteral("source")).toString() == QLatin1StringView("search")) {
            const QString name = context.config.mutatorConfig.value(QStringLiteral("search")).toString();
            auto proposals = recordedLog(context.store, name);
            if (!proposals)
                return Error {proposals.error()};
            QList<PoolEntry> entries;
            for (const RecordedProposal &p : std::as_const(*proposals))
                entries.append(p.entry);
            return std::unique_ptr<Mutator>(PoolMutator::fromRecordedLog(name, entries));
        }
        if (!context.world)
            return Error {QStringLiteral("the recorded pool needs recorded runtimes of '%1' in the store")
                              .arg(context.problem.name)};
        return std::unique_ptr<Mutator>(PoolMutator::fromWorld(*context.world));
    }
    case MutatorKind::Injected:
        return std::unique_ptr<Mutator>(std::make_unique<InjectedMutator>());
    case MutatorKind::Family: {
        auto family = families::makeFamilyMutator(context.config.mutatorConfig);
        if (family || !context.world)
            return family;
        // A space imported from another auto-tuner has no family file: its recorded kernels are the space.
        auto space = SpaceMutator::fromWorld(
            *context.world, context.config.mutatorConfig.value(QStringLiteral("family")).toString());
        if (!space)
            return Error {family.error()};
        return std::unique_ptr<Mutator>(std::move(*space));
    }
    case MutatorKind::Llm:
        if (!context.store)
            return Error {QStringLiteral("the LLM mutator needs a store (the problem's generation task)")};
        return families::makeLlmMutator(
            *context.store, context.problem.id, context.config.mutatorConfig, context.config.hardware);
    }
    return Error {QStringLiteral("unknown mutator '%1'").arg(mutatorName(context.config.mutator))};
}

namespace {

// A family search replays recorded runtimes of the family's configurations: refused before anything is written when
// the store has none on that GPU (it would run every step with nothing to replay), naming the import that adds them.
Status checkFamilyReplay(const Store &store, const SearchConfig &config, const ReplayWorld &world)
{
    const QString family = config.mutatorConfig.value(QStringLiteral("family")).toString();
    for (const RecordedKernel &k : world.kernels) {
        if (k.kernel.parameters.value(QStringLiteral("family")).toString() == family)
            return {};
    }
    QStringList shipped;
    for (const QString &file : families::shippedSweepFiles()) {
        if (QFileInfo(file).fileName().startsWith(family + QLatin1Char('-')))
            shipped.append(file);
    }
    const QString how = shipped.isEmpty()
        ? QStringLiteral("record one with gpuf sweep %1 --family %2 on that GPU, or search with --gpu local")
              .arg(store.path(), family)
        : QStringLiteral("import one with gpuf sweep %1 --import FILE (shipped: %2)")
              .arg(store.path(), shipped.join(QStringLiteral(", ")));
    return Error {QStringLiteral("%1 has no recorded sweep of the family '%2' on %3, so a replay has nothing to "
                                 "replay: %4")
                      .arg(store.path(), family, world.hardware.name, how)};
}

Result<std::unique_ptr<CandidateForecaster>> makeForecaster(Store &store, const SearchConfig &config,
    const RunParts &parts, const SetupOptions &options, const std::optional<Hardware> &hardware)
{
    // The built-in cost model and the physics prior (roofline) are made on first use, as `gpuf forecast` makes them.
    auto forecaster = resolveForecaster(store, config.forecaster, options.costModelPath);
    ForecasterRepo repo(store);
    if (!forecaster)
        return Error {forecaster.error()};
    if (!forecaster->has_value()) {
        QStringList names;
        if (auto all = repo.list()) {
            for (const Forecaster &f : std::as_const(*all))
                names << f.name;
        }
        names.removeAll(QLatin1StringView(costmodel::kForecasterName));
        names.prepend(QLatin1StringView(costmodel::kForecasterName));
        return Error {QStringLiteral("unknown forecaster '%1' (this store has: %2)")
                          .arg(config.forecaster, names.join(QStringLiteral(", ")))};
    }
    BackendOptions backendOptions;
    backendOptions.retryParseFailure = true; // inside a search, one more request after a parse failure
    backendOptions.costModelPath = options.costModelPath;
    auto backend = makeBackend(**forecaster, backendOptions);
    if (!backend)
        return Error {QStringLiteral("forecaster '%1': %2").arg(config.forecaster, backend.error())};
    return std::unique_ptr<CandidateForecaster>(std::make_unique<BackendForecaster>(
        std::move(*backend), (*forecaster)->name, (*forecaster)->id, parts.reference, parts.problem.name, hardware));
}

// The world with a recorded log's own outcomes joined, so that its proposals replay as they were measured.
Result<std::shared_ptr<const ReplayWorld>> withRecordedLog(
    Store &store, const SearchConfig &config, const ReplayWorld &world)
{
    auto proposals = recordedLog(&store, config.mutatorConfig.value(QStringLiteral("search")).toString());
    if (!proposals)
        return Error {proposals.error()};
    auto merged = std::make_shared<ReplayWorld>(world);
    for (const RecordedProposal &p : std::as_const(*proposals)) {
        const QString hash = contentHashOf(p.entry.source);
        if (!p.feedback || merged->byHash.contains(hash))
            continue;
        Kernel k;
        k.problemId = merged->problem.id;
        k.source = p.entry.source;
        k.language = p.entry.language;
        k.contentHash = hash;
        k.origin = p.entry.origin;
        merged->byHash.insert(hash, int(merged->kernels.size()));
        merged->kernels.append({k, *p.feedback});
    }
    return std::shared_ptr<const ReplayWorld>(std::move(merged));
}

// The problem the configuration names and its reference kernel, as the store holds them (no recorded world).
Status problemFromStore(Store &store, const SearchConfig &config, RunParts &parts)
{
    auto problem = ProblemRepo(store).findByName(config.problem);
    if (!problem)
        return Error {problem.error()};
    if (!problem->has_value())
        return Error {QStringLiteral("no problem '%1' in %2").arg(config.problem, store.path())};
    parts.problem = **problem;
    if (parts.problem.referenceKernelId <= 0)
        return Error {
            QStringLiteral("problem '%1' has no reference kernel: a search measures every speedup against one")
                .arg(config.problem)};
    auto reference = KernelRepo(store).find(parts.problem.referenceKernelId);
    if (!reference || !reference->has_value())
        return Error {QStringLiteral("problem '%1' names a reference kernel that is not stored").arg(config.problem)};
    parts.reference = **reference;
    return {};
}

// Before anything is written: the name is free, the cluster profile usable, the local GPU there to measure on (its
// name becomes the configuration's hardware when none is given).
Status checkNewSearch(Store &store, const QString &name, SearchConfig &config, const SetupOptions &options)
{
    if (name.trimmed().isEmpty())
        return Error {QStringLiteral("a search needs a name (--name)")};
    auto existing = SearchRepo(store).findByName(name);
    if (!existing)
        return Error {existing.error()};
    if (existing->has_value())
        return Error {QStringLiteral("a search named '%1' already exists (resume it with 'gpuf search resume', or"
                                     " choose another --name)")
                          .arg(name)};
    if (const QString cluster = config.clusterProfileName(); !cluster.isEmpty()) {
        // The cluster's nodes say what GPU they have with each result; the profile must exist before anything is
        // written.
        if (options.measureConfig.clusterProfiles.isEmpty()) {
            if (auto profile = usableClusterProfile(cluster); !profile)
                return Error {QStringLiteral("--gpu %1: %2").arg(config.gpu.name(), profile.error())};
        }
    } else if (config.gpu.isLocal()) {
        // A search that cannot measure must not start.
        auto device = probeLocalGpu(options.measureConfig, options.notice);
        if (!device)
            return Error {device.error()};
        if (config.hardware.isEmpty())
            config.hardware = *device;
    }
    return {};
}

// The search's first node: the mutator's own seed, else the reference (whose speedup over itself is 1).
SeedSpec seedOfSearch(const RunParts &parts)
{
    SeedSpec seed;
    if (auto own = parts.mutator->seed()) {
        seed.proposal = *own;
        return seed;
    }
    seed.proposal = Proposal {parts.reference.source, parts.reference.language, parts.reference.parameters,
        parts.reference.origin, parts.reference.name, {}};
    seed.kernelId = parts.reference.id;
    seed.reward = 1.0;
    return seed;
}

Status trialForecast(CandidateForecaster &forecaster, const Kernel &reference)
{
    std::optional<ForecastAnswer> answer;
    QEventLoop loop;
    forecaster.request({ForecastAsk {QStringLiteral("trial"), reference}}, [&](ForecastAnswer a) {
        answer = std::move(a);
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    if (!answer)
        loop.exec();
    if (answer && answer->forecast.status == ForecastStatus::Error)
        return Error {QStringLiteral("forecaster '%1' failed its first call (%2); the search was not started")
                          .arg(forecaster.name(), answer->forecast.errorText)};
    return {};
}

} // namespace

QString replayHardwareFor(Store &store, const SearchConfig &config)
{
    if (!config.hardware.isEmpty() || config.mutator != MutatorKind::Family)
        return config.hardware;
    // The problem's busiest GPU may hold none of this family (another family of the same problem swept elsewhere).
    const QString family = config.mutatorConfig.value(QStringLiteral("family")).toString();
    auto spaces = recordedSpaces(store);
    if (!spaces)
        return {};
    const RecordedSpace *best = nullptr;
    for (const RecordedSpace &s : std::as_const(*spaces)) {
        if (s.family == family && s.problem == config.problem && (!best || s.configurations > best->configurations))
            best = &s;
    }
    return best ? best->hardware : QString();
}

Result<RunParts> buildParts(Store &store, const SearchConfig &config, const SetupOptions &options)
{
    if (Status s = config.validate(); !s)
        return Error {s.error()};
    RunParts parts;
    std::shared_ptr<const ReplayWorld> world = options.world;
    if (!world) {
        // Replay: the runtimes of the named GPU. Local: the recorded pool comes from whichever GPU has most runs.
        const bool replay = config.gpu.isReplay();
        auto loaded = loadReplayWorld(store, config.problem, replay ? replayHardwareFor(store, config) : QString());
        if (loaded)
            world = std::make_shared<const ReplayWorld>(std::move(*loaded));
        else if (config.gpu.isReplay() || config.mutator == MutatorKind::Pool)
            return Error {loaded.error()};
    }
    if (world && config.mutatorConfig.value(QStringLiteral("source")).toString() == QLatin1StringView("search")) {
        auto merged = withRecordedLog(store, config, *world);
        if (!merged)
            return Error {merged.error()};
        world = *merged;
    }
    if (world) {
        parts.problem = world->problem;
        parts.reference = world->reference;
    } else if (Status s = problemFromStore(store, config, parts); !s) {
        return Error {s.error()};
    }
    // A space imported without its kernel template has no code for the cost model to read (docs/interop.md).
    if (config.needsForecasts() && config.forecaster == QLatin1StringView(costmodel::kForecasterName)
        && parts.reference.parameters.value(QStringLiteral("source_kind")).toString() == QLatin1StringView("none"))
        return Error {QStringLiteral("the cost model reads kernel code, and '%1' was imported without its kernel "
                                     "template: give --forecaster none (the learner alone, from the tunables), run "
                                     "the standard mode, or import it again with --template FILE")
                          .arg(parts.problem.name)};
    if (config.mutator == MutatorKind::Family && config.gpu.isReplay() && world) {
        if (Status s = checkFamilyReplay(store, config, *world); !s)
            return Error {s.error()};
    }
    MutatorContext context {&store, config, parts.problem, parts.reference, world};
    auto mutator = makeMutator(context);
    if (!mutator)
        return Error {mutator.error()};
    parts.mutator = std::move(*mutator);
    if (config.gpu.isReplay()) {
        parts.evaluator = std::make_unique<ReplayEvaluator>(world);
    } else {
        parts.evaluator = std::make_unique<LocalEvaluator>(store, store.path(), parts.reference.id, config.hardware,
            options.measureConfig, config.clusterProfileName());
    }
    if (config.needsForecasts()) {
        std::optional<Hardware> hardware;
        if (config.gpu.isReplay() && world) {
            hardware = world->hardware;
        } else if (!config.hardware.isEmpty()) {
            if (auto local = HardwareRepo(store).findByName(config.hardware); local && local->has_value())
                hardware = **local;
        }
        auto forecaster = makeForecaster(store, config, parts, options, hardware);
        if (!forecaster)
            return Error {forecaster.error()};
        parts.forecaster
            = options.wrapForecaster ? options.wrapForecaster(std::move(*forecaster)) : std::move(*forecaster);
    }
    return parts;
}

Result<RowId> createSearch(Store &store, const QString &name, SearchConfig config, const SetupOptions &options)
{
    if (Status s = checkNewSearch(store, name, config, options); !s)
        return Error {s.error()};
    auto parts = buildParts(store, config, options);
    if (!parts)
        return Error {parts.error()};
    if (config.hardware.isEmpty() && config.gpu.isReplay()) {
        auto world = options.world ? Result<ReplayWorld>(*options.world)
                                   : loadReplayWorld(store, config.problem, replayHardwareFor(store, config));
        if (world)
            config.hardware = world->hardware.name;
    }
    MutatorSetup setup {parts->problem.id, parts->problem.name, config.seed};
    if (Status s = parts->mutator->prepare(setup); !s)
        return Error {s.error()};
    if (parts->forecaster) {
        // One forecast before anything is written: an endpoint that fails every call stops the search here.
        if (Status s = trialForecast(*parts->forecaster, parts->reference); !s)
            return Error {s.error()};
    }
    SeedSpec seed = seedOfSearch(*parts);
    Transaction transaction(store);
    if (Status s = transaction.begin(); !s)
        return Error {s.error()};
    if (seed.kernelId == 0 && parts->problem.id > 0) {
        Kernel kernel;
        kernel.problemId = parts->problem.id;
        kernel.source = seed.proposal.source;
        kernel.language = seed.proposal.language;
        kernel.origin = seed.proposal.origin.isEmpty() ? QStringLiteral("seed") : seed.proposal.origin;
        kernel.parameters = seed.proposal.parameters;
        kernel.name = seed.proposal.name;
        if (auto id = KernelRepo(store).insertOrGet(kernel); !id)
            return Error {id.error()};
        seed.kernelId = kernel.id;
    }
    Search search;
    search.name = name;
    search.problemId = parts->problem.id;
    search.mode = modeName(config.mode);
    search.config = config.toJson();
    SearchRepo searches(store);
    auto id = searches.ensure(search);
    if (!id)
        return Error {id.error()};
    QList<SearchEvent> events = SearchRun::initialEvents(name, config, {seed}, QDateTime::currentDateTimeUtc());
    for (SearchEvent &e : events) {
        e.searchId = *id;
        if (auto appended = searches.append(e); !appended)
            return Error {appended.error()};
    }
    if (Status s = transaction.commit(); !s)
        return Error {s.error()};
    return *id;
}

Result<SearchConfig> storedConfig(Store &store, const QString &name)
{
    auto state = foldStoredSearch(store, name);
    if (!state)
        return Error {state.error()};
    return state->config;
}

Result<SearchState> foldStoredSearch(Store &store, const QString &name)
{
    SearchRepo searches(store);
    auto search = searches.findByName(name);
    if (!search)
        return Error {search.error()};
    if (!search->has_value())
        return Error {QStringLiteral("no search named '%1' in %2").arg(name, store.path())};
    auto events = searches.events((*search)->id);
    if (!events)
        return Error {events.error()};
    auto state = foldEvents(*events);
    if (!state)
        return Error {QStringLiteral("%1; the search cannot be resumed or shown until that event is repaired")
                          .arg(state.error())};
    state->name = name;
    return state;
}

std::function<Result<std::unique_ptr<SearchRun>>()> storeRunFactory(
    const QString &storePath, const QString &name, const SetupOptions &options)
{
    return [storePath, name, options]() -> Result<std::unique_ptr<SearchRun>> {
        auto store = Store::open(storePath, Store::Mode::ExistingOnly, Store::Check::Header);
        if (!store)
            return Error {store.error()};
        auto config = storedConfig(**store, name);
        if (!config)
            return Error {config.error()};
        auto parts = buildParts(**store, *config, options);
        if (!parts)
            return Error {parts.error()};
        auto search = SearchRepo(**store).findByName(name);
        if (!search || !search->has_value())
            return Error {QStringLiteral("no search named '%1'").arg(name)};
        const RowId id = (*search)->id;
        auto sink = std::make_unique<StoreSink>(std::move(*store), id);
        return std::make_unique<SearchRun>(std::move(sink), std::move(*parts));
    };
}

} // namespace gpuf::search
