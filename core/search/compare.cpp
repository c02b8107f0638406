// The equal-budget comparison of strategies; see compare.h.
#include "core/search/compare.h"

#include "core/search/compare_learner.h"

#include "core/search/replay_world.h"
#include "core/search/search_state.h"
#include "core/store/store.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QMutex>
#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace gpuf::search {

QString Strategy::name() const
{
    if (const Mode *m = std::get_if<Mode>(&kind))
        return modeName(*m);
    return baselineName(std::get<Baseline>(kind));
}

QList<Strategy> defaultStrategies()
{
    return {{Mode::Standard}, {Mode::Surrogate}, {Mode::Selective}, {Baseline::Random}};
}

Result<QList<Strategy>> strategiesFromNames(const QString &names)
{
    QList<Strategy> out;
    for (const QString &raw : names.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString name = raw.trimmed();
        Strategy s;
        if (auto mode = modeFromName(name))
            s.kind = *mode;
        else if (auto baseline = baselineFromName(name))
            s.kind = *baseline;
        else
            return Error {QStringLiteral("unknown strategy '%1' (standard, surrogate, selective, random, greedy, "
                                         "genetic)")
                              .arg(name)};
        for (const Strategy &seen : std::as_const(out)) {
            if (seen.name() == name)
                return Error {QStringLiteral("the strategy '%1' is named twice").arg(name)};
        }
        out.append(s);
    }
    if (out.isEmpty())
        return Error {QStringLiteral("name at least one strategy (standard, surrogate, selective, random, greedy, "
                                     "genetic)")};
    return out;
}

Interval StrategyResult::curveAt(int e) const
{
    QList<double> at;
    for (const QList<double> &curve : curves)
        at << curve.at(std::min<qsizetype>(e, curve.size() - 1));
    return meanInterval(at);
}

const StrategyResult *CompareReport::find(const QString &name) const
{
    for (const StrategyResult &s : strategies) {
        if (s.strategy.name() == name)
            return &s;
    }
    return nullptr;
}

Result<SearchState> runInMemory(
    Store &store, const SearchConfig &config, const SetupOptions &setup, const CancelToken &cancel)
{
    auto parts = buildParts(store, config, setup);
    if (!parts)
        return Error {parts.error()};
    MutatorSetup mutatorSetup {parts->problem.id, parts->problem.name, config.seed};
    if (Status s = parts->mutator->prepare(mutatorSetup); !s)
        return Error {s.error()};
    SeedSpec seed;
    if (auto own = parts->mutator->seed()) {
        seed.proposal = *own;
    } else {
        seed.proposal = Proposal {parts->reference.source, parts->reference.language, parts->reference.parameters,
            parts->reference.origin, parts->reference.name, {}};
        seed.kernelId = parts->reference.id;
        seed.reward = 1.0;
    }
    auto sink = std::make_unique<MemorySink>();
    if (Status s = SearchRun::initialize(*sink, QStringLiteral("compare"), config, {seed}); !s)
        return Error {s.error()};
    SearchRun run(std::move(sink), std::move(*parts));
    QEventLoop loop;
    run.setNotifier([&loop] {
        QMetaObject::invokeMethod(
            &loop, [&loop] { loop.quit(); }, Qt::QueuedConnection);
    });
    if (Status s = run.open(); !s)
        return Error {s.error()};
    for (;;) {
        if (cancel.isCancelled())
            return Error::cancelled();
        if (Status s = run.pump(); !s)
            return Error {s.error()};
        const NextAction next = run.next();
        if (next == NextAction::Done || next == NextAction::Paused)
            break;
        if (next == NextAction::Wait && !run.hasInbox())
            loop.exec(); // asynchronous sources (an LLM endpoint): their answers wake the loop
    }
    return run.state();
}

namespace {

// One strategy's run with one seed.
struct RunOutcome
{
    QList<double> curve;
    int evaluations = 0;
    int forecasts = 0;
    double forecasterSeconds = 0.0;
    double gpuSeconds = 0.0;
    LearnerQuality learner;
    QString error;
};

// Times the forecaster: wall time from a batch's request to its last answer, summed.
class TimedForecaster : public CandidateForecaster
{
public:
    TimedForecaster(std::unique_ptr<CandidateForecaster> inner, std::shared_ptr<double> seconds)
        : m_inner(std::move(inner))
        , m_seconds(std::move(seconds))
    { }
    QString name() const override { return m_inner->name(); }
    RowId forecasterId() const override { return m_inner->forecasterId(); }
    void request(const QList<ForecastAsk> &asks, Done done) override
    {
        auto timer = std::make_shared<QElapsedTimer>();
        auto left = std::make_shared<qsizetype>(asks.size());
        timer->start();
        m_inner->request(asks, [this, timer, left, done = std::move(done)](ForecastAnswer answer) {
            if (--*left == 0)
                *m_seconds += double(timer->nsecsElapsed()) / 1e9;
            done(std::move(answer));
        });
    }
    void cancel() override { m_inner->cancel(); }

private:
    std::unique_ptr<CandidateForecaster> m_inner;
    std::shared_ptr<double> m_seconds;
};

QList<double> curveOfState(const SearchState &state, int budget)
{
    QList<double> curve(budget + 1, 1.0);
    double best = 1.0; // the reference, measured by definition
    size_t next = 0;
    for (int e = 0; e <= budget; ++e) {
        while (next < state.trajectory.size() && state.trajectory[next].gpuEvaluations <= e) {
            best = std::max(best, state.trajectory[next].best);
            ++next;
        }
        curve[e] = best;
    }
    return curve;
}

struct Plan
{
    const CompareOptions *options = nullptr;
    QString forecaster; // the surrogate and selective modes' (modesForecaster)
    SetupOptions setup;
    const TuningSpace *space = nullptr;
    int budget = 0;
};

RunOutcome runMode(const Plan &plan, Mode mode, quint64 seed)
{
    RunOutcome out;
    SearchConfig config = plan.options->base;
    config.mode = mode;
    config.gpu = GpuSource::replay();
    config.hardware = plan.setup.world->hardware.name;
    config.seed = seed;
    if (mode != Mode::Standard)
        config.forecaster = plan.forecaster;
    config.proposalsPerParent = mode == Mode::Standard
        ? config.measurementsPerParent
        : config.measurementsPerParent * std::max(1, plan.options->proposalFactor);
    auto store = Store::open(plan.options->storePath, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store) {
        out.error = store.error();
        return out;
    }
    auto seconds = std::make_shared<double>(0.0);
    SetupOptions setup = plan.setup;
    setup.wrapForecaster = [seconds](std::unique_ptr<CandidateForecaster> inner) {
        return std::unique_ptr<CandidateForecaster>(std::make_unique<TimedForecaster>(std::move(inner), seconds));
    };
    auto state = runInMemory(**store, config, setup, plan.options->cancel);
    if (!state) {
        out.error = state.error();
        return out;
    }
    out.curve = curveOfState(*state, plan.budget);
    out.evaluations = state->gpuEvaluations;
    out.forecasts = state->forecastsDone;
    out.forecasterSeconds = *seconds;
    if (mode != Mode::Standard)
        out.learner = learnerQuality(*state, *plan.space);
    for (const Candidate &c : state->candidates) {
        if (c.status != CandidateStatus::Evaluated)
            continue;
        if (const int i = plan.space->indexOfHash(c.contentHash); i >= 0)
            out.gpuSeconds += plan.space->points.at(i).runtimeUs / 1e6;
    }
    return out;
}

RunOutcome runBaselineOnce(const Plan &plan, Baseline baseline, quint64 seed)
{
    RunOutcome out;
    const QList<int> evaluated = runBaseline(baseline, *plan.space, plan.budget, seed);
    out.curve = anytimeCurve(*plan.space, evaluated, plan.budget);
    out.evaluations = int(evaluated.size());
    for (int i : evaluated)
        out.gpuSeconds += plan.space->points.at(i).runtimeUs / 1e6;
    return out;
}

// Whether the space's kernels carry no code (a tuning space imported without its kernel template).
bool withoutCode(const ReplayWorld &world)
{
    return std::any_of(world.kernels.cbegin(), world.kernels.cend(), [](const RecordedKernel &k) {
        return k.kernel.parameters.value(QStringLiteral("source_kind")).toString() == QLatin1StringView("none");
    });
}

// Why a strategy cannot run on this space; empty when it can.
QString unfitReason(
    const Strategy &strategy, const TuningSpace &space, const ReplayWorld &world, const SearchConfig &base)
{
    if (const Baseline *b = std::get_if<Baseline>(&strategy.kind)) {
        if (*b != Baseline::Random && space.tunables.isEmpty())
            return QStringLiteral("%1 moves tunables, and '%2' is a pool of kernels without tunables")
                .arg(strategy.name(), space.name);
        return {};
    }
    if (std::get<Mode>(strategy.kind) != Mode::Standard && base.forecaster == QLatin1StringView("costmodel")
        && withoutCode(world))
        return QStringLiteral("the cost model reads kernel code, and '%1' was imported without its kernel template "
                              "(import it again with --template FILE; the probability policy runs the learner alone)")
            .arg(space.name);
    return {};
}

// The forecaster of the surrogate and selective modes: the one asked for, or the learner alone (kLearnerAlone) where
// the cost model has no code to read — a space imported without its kernel template; a note says so.
QString modesForecaster(const SearchConfig &base, const ReplayWorld &world, CompareReport &report)
{
    if (base.forecaster != QLatin1StringView("costmodel") || base.policy != Policy::Probability)
        return base.forecaster;
    if (!withoutCode(world))
        return base.forecaster;
    report.forecaster = QLatin1StringView(kLearnerAlone);
    report.notes << QStringLiteral("the surrogate and selective modes forecast with the learner alone (--forecaster "
                                   "none): the cost model reads kernel code, and '%1' was imported without its kernel "
                                   "template")
                        .arg(world.problem.name);
    return QLatin1StringView(kLearnerAlone);
}

// Whether the modes' first archive node is measured: the mutator's own seed is, the problem's reference is not.
Result<bool> seedIsEvaluated(const CompareOptions &options, const SetupOptions &setup)
{
    auto store = Store::open(options.storePath, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store)
        return Error {store.error()};
    SearchConfig config = options.base;
    config.mode = Mode::Standard;
    config.gpu = GpuSource::replay();
    config.hardware = setup.world->hardware.name;
    auto parts = buildParts(**store, config, setup);
    if (!parts)
        return Error {parts.error()};
    if (Status s = parts->mutator->prepare({parts->problem.id, parts->problem.name, config.seed}); !s)
        return Error {s.error()};
    return parts->mutator->seed().has_value();
}

// The space's figures and the random search's expectations the report opens with, and the notes they call for.
void describeSpace(CompareReport &report, const CompareOptions &options, const ReplayWorld &world,
    const TuningSpace &space, int budget, const QList<double> &randomRuntime)
{
    report.space = space.name;
    report.problem = world.problem.name;
    report.hardware = world.hardware.name;
    report.forecaster = options.base.forecaster;
    report.spaceSize = space.size();
    for (const SpacePoint &p : std::as_const(space.points))
        report.spaceFailures += p.speedup ? 0 : 1;
    report.optimum = space.optimum();
    report.steps = options.base.steps;
    report.gpuBudgetPerStep = options.base.gpuBudgetPerStep();
    report.budget = budget;
    report.alpha = options.base.alpha;
    report.seeds = options.seeds;
    report.randomExpected = randomExpectation(space, budget);
    report.randomToOptimum = randomEvaluationsToOptimum(space, 0.0);
    report.randomToWithin1 = randomEvaluationsToOptimum(space, 0.01);
    report.randomToWithin5 = randomEvaluationsToOptimum(space, 0.05);
    std::tie(report.scoreFrom, report.scoreTo) = scoreRange(space, randomRuntime);
    if (report.scoreFrom > report.scoreTo)
        report.notes << QStringLiteral("no performance score: random search needs more than the budget to come half "
                                       "way from the space's median to its optimum, where the methodology starts "
                                       "scoring");
    if (budget > space.size())
        report.notes << QStringLiteral("the budget (%1 GPU evaluations) exceeds the space (%2 configurations): a "
                                       "strategy that evaluates every configuration stops early")
                            .arg(budget)
                            .arg(space.size());
}

// The strategies that can run on the space; each other one gets a note saying why not.
QList<Strategy> runnableStrategies(const QList<Strategy> &strategies, const SearchConfig &base,
    const TuningSpace &space, const ReplayWorld &world, CompareReport &report)
{
    QList<Strategy> runnable;
    for (const Strategy &s : strategies) {
        const QString why = unfitReason(s, space, world, base);
        if (why.isEmpty())
            runnable.append(s);
        else
            report.notes << QStringLiteral("%1 was not run: %2").arg(s.name(), why);
    }
    return runnable;
}

// One search of the comparison: a strategy (its index among those run) under one seed, and how it went.
struct CompareJob
{
    int strategy = 0;
    int seed = 0;
    RunOutcome outcome;
};

// Runs every job, each outcome said to the options' progress as it ends; stops starting jobs once cancelled.
void runCompareJobs(const Plan &plan, const QList<Strategy> &runnable, QList<CompareJob> &jobs)
{
    const CompareOptions &options = *plan.options;
    QMutex progressMutex;
    int done = 0;
    const auto run = [&](CompareJob &job) {
        if (options.cancel.isCancelled())
            return;
        const Strategy &strategy = runnable.at(job.strategy);
        const quint64 seed = options.base.seed + quint64(job.seed);
        if (const Mode *m = std::get_if<Mode>(&strategy.kind))
            job.outcome = runMode(plan, *m, seed);
        else
            job.outcome = runBaselineOnce(plan, std::get<Baseline>(strategy.kind), seed);
        if (!options.progress)
            return;
        QMutexLocker lock(&progressMutex);
        ++done;
        options.progress(done, int(jobs.size()),
            job.outcome.error.isEmpty()
                ? QStringLiteral("%1 seed %2: best %3× after %4 GPU evaluations")
                      .arg(strategy.name())
                      .arg(seed)
                      .arg(job.outcome.curve.last(), 0, 'f', 3)
                      .arg(job.outcome.evaluations)
                : QStringLiteral("%1 seed %2: %3").arg(strategy.name()).arg(seed).arg(job.outcome.error));
    };
    if (options.jobs <= 1) {
        // One at a time on the calling thread (the explorer's background job, whose priority is already lowered):
        // a blocking map would run a pool thread beside it, and two busy threads leave a two-core machine's GUI none.
        for (CompareJob &job : jobs)
            run(job);
        return;
    }
    QThreadPool pool;
    pool.setMaxThreadCount(options.jobs);
    for (CompareJob &job : jobs)
        pool.start([&run, &job] { run(job); });
    pool.waitForDone();
}

// The figures of strategy `s` over its seeds' searches.
StrategyResult strategyResultOf(int s, const Strategy &strategy, const QList<CompareJob> &jobs, const Plan &plan,
    const CompareReport &report, const QList<double> &randomRuntime)
{
    const double optimum = report.optimum;
    StrategyResult result;
    result.strategy = strategy;
    for (const CompareJob &job : jobs) {
        if (job.strategy != s)
            continue;
        const RunOutcome &o = job.outcome;
        result.curves.append(o.curve);
        result.evaluations.append(o.evaluations);
        result.forecasts.append(o.forecasts);
        result.forecasterSeconds.append(o.forecasterSeconds);
        result.gpuSeconds.append(o.gpuSeconds);
        result.learnerSpearmanSpace.append(o.learner.spearmanSpace);
        result.learnerSpearmanProposals.append(o.learner.spearmanProposals);
        result.trusted.append(o.learner.trusted);
        result.trustedWrong.append(o.learner.trustedWrong);
        result.toOptimum.append(evaluationsToReach(o.curve, optimum));
        result.toWithin1.append(evaluationsToReach(o.curve, nearOptimum(optimum, 0.01)));
        result.toWithin5.append(evaluationsToReach(o.curve, nearOptimum(optimum, 0.05)));
        result.scores.append(
            performanceScore(o.curve, randomRuntime, optimum, report.scoreFrom, report.scoreTo).value_or(std::nan("")));
        result.exhausted.append(o.evaluations < std::min(plan.budget, plan.space->size()));
    }
    return result;
}

} // namespace

Result<CompareReport> compareStrategies(const CompareOptions &options, const SetupOptions &setupIn)
{
    if (options.seeds <= 0 || options.seeds > 1000)
        return Error {QStringLiteral("--seeds takes 1 to 1000 searches per strategy, not %1").arg(options.seeds)};
    if (options.strategies.isEmpty())
        return Error {QStringLiteral("name at least one strategy")};
    Plan plan;
    plan.options = &options;
    plan.setup = setupIn;
    if (!plan.setup.world) {
        auto store = Store::open(options.storePath, Store::Mode::ExistingOnly);
        if (!store)
            return Error {store.error()};
        auto world = loadReplayWorld(**store, options.base.problem, replayHardwareFor(**store, options.base));
        if (!world)
            return Error {world.error()};
        plan.setup.world = std::make_shared<const ReplayWorld>(std::move(*world));
    }
    const ReplayWorld &world = *plan.setup.world;
    const QString family = options.base.mutator == MutatorKind::Family
        ? options.base.mutatorConfig.value(QStringLiteral("family")).toString()
        : QString();
    auto space = spaceFromWorld(world, family);
    if (!space)
        return Error {space.error()};
    plan.space = &*space;
    // The modes' seed costs an evaluation when the mutator brings its own (a family's default configuration); a search
    // that starts from the reference does not. The baselines get exactly what the modes may spend.
    auto seedCosts = seedIsEvaluated(options, plan.setup);
    if (!seedCosts)
        return Error {seedCosts.error()};
    // Every run keeps its anytime curve (one figure per evaluation): the budget is bounded before anything is kept.
    constexpr qint64 kMaxBudget = 1000000;
    const qint64 budget = qint64(options.base.steps) * options.base.gpuBudgetPerStep() + (*seedCosts ? 1 : 0);
    if (budget > kMaxBudget)
        return Error {QStringLiteral("a comparison spends at most %1 GPU evaluations per search, not %2 (steps × "
                                     "parents × measure)")
                          .arg(kMaxBudget)
                          .arg(budget)};
    plan.budget = int(budget);

    CompareReport report;
    const QList<double> randomRuntime = randomExpectedRuntime(*space, plan.budget);
    describeSpace(report, options, world, *space, plan.budget, randomRuntime);

    plan.forecaster = modesForecaster(options.base, world, report);
    SearchConfig base = options.base;
    base.forecaster = plan.forecaster;
    const QList<Strategy> runnable = runnableStrategies(options.strategies, base, *space, world, report);
    if (runnable.isEmpty())
        return Error {report.notes.join(QStringLiteral("; "))};

    QList<CompareJob> jobs;
    for (int s = 0; s < runnable.size(); ++s) {
        for (int k = 0; k < options.seeds; ++k)
            jobs.append({s, k, {}});
    }
    runCompareJobs(plan, runnable, jobs);
    if (options.cancel.isCancelled())
        return Error::cancelled();
    for (const CompareJob &job : std::as_const(jobs)) {
        if (!job.outcome.error.isEmpty())
            return Error {QStringLiteral("%1 search, seed %2: %3")
                              .arg(runnable.at(job.strategy).name())
                              .arg(options.base.seed + quint64(job.seed))
                              .arg(job.outcome.error)};
    }

    for (int s = 0; s < runnable.size(); ++s) {
        const StrategyResult result = strategyResultOf(s, runnable.at(s), jobs, plan, report, randomRuntime);
        const int ranOut = int(std::count(result.exhausted.begin(), result.exhausted.end(), true));
        if (ranOut > 0)
            report.notes << QStringLiteral("%1 made fewer GPU evaluations than the budget in %2 of %3 searches (its "
                                           "proposals repeated what was measured or ran out): its curve stays flat "
                                           "after its last evaluation")
                                .arg(result.strategy.name())
                                .arg(ranOut)
                                .arg(options.seeds);
        report.strategies.append(result);
    }
    return report;
}

} // namespace gpuf::search
