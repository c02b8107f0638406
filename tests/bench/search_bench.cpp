// search_bench: the search engine's own cost. Prints one line per figure (`<name> <value> <unit>`):
// - engine overhead per candidate with a 10 000-node archive (events kept in memory; the same through a store);
// - the learner's cost (`learner`): engine CPU time per candidate of a surrogate search under the probability policy
//   with the certified setting (α = 0.1: the learner fitted on its latest 160 measurements, the temperature and the
//   conformal τ before every selection), beside the same search under the paper's rules (no learner, no
//   recalibration); their difference is what learning and recalibration cost per candidate (issue 25: < 2 ms);
// - resume of a 100 000-event log (load and fold);
// - `compare` on every shipped family's sweep and every shipped tuning space: each strategy's GPU evaluations to the
//   space's optimum (10 seeds) and its performance score.
// The mutator and evaluator of the first two are synthetic and answer at once, so what is timed is the engine.
#include "core/interop/corpus.h"
#include "core/interop/tuning_import.h"
#include "core/mutators/shipped_families.h"
#include "core/mutators/sweep_file.h"
#include "core/search/candidate_forecaster.h"
#include "core/search/compare.h"
#include "core/search/recorded_mutators.h"
#include "core/search/search_run.h"
#include "core/search/search_setup.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include "gpuf_config.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>

#include <cmath>
#include <cstdio>
#include <ctime>

using namespace gpuf;
using namespace gpuf::search;

namespace {

void report(const char *name, double value, const char *unit)
{
    std::printf("%s %.4g %s\n", name, value, unit);
    std::fflush(stdout);
}

// Unique code per request; nothing to compute.
class SyntheticMutator : public Mutator
{
public:
    QString kind() const override { return QStringLiteral("synthetic"); }
    QJsonObject configuration() const override { return {}; }
    Status prepare(const MutatorSetup &) override { return {}; }
    void request(const QList<MutationRequest> &requests, Done done) override
    {
        for (const MutationRequest &r : requests)
            done(MutationResult {r.requestId,
                Proposal {QStringLiteral("__global__ void k() { /* %1 */ }").arg(r.seed), QStringLiteral("cuda"), {},
                    QStringLiteral("manual"), {}, {}},
                {}, {}});
    }
    void cancel() override { }
};

// A reward from the code's hash: deterministic, spread over [0.5, 3.5).
class SyntheticEvaluator : public Evaluator
{
public:
    QString kind() const override { return QStringLiteral("replay"); }
    void request(const QList<EvaluationRequest> &requests, Done done) override
    {
        for (const EvaluationRequest &r : requests) {
            EvaluationResult result;
            result.requestId = r.requestId;
            result.feedback.kind = EvaluationFeedback::Kind::Success;
            result.feedback.aggregatedSpeedup = 0.5 + double(mix64(qHash(r.contentHash)) % 3000) / 1000.0;
            result.feedback.replayed = true;
            done(result);
        }
    }
    void cancel() override { }
};

// A family-like space: three tunables of eight values each, drawn from the request's seed; the code names them, so a
// configuration proposed twice is a duplicate.
class TunableMutator : public Mutator
{
public:
    QString kind() const override { return QStringLiteral("synthetic"); }
    QJsonObject configuration() const override { return {}; }
    Status prepare(const MutatorSetup &) override { return {}; }
    void request(const QList<MutationRequest> &requests, Done done) override
    {
        for (const MutationRequest &r : requests) {
            const quint64 h = mix64(r.seed);
            const int a = int(h % 8), b = int((h >> 8) % 8), c = int((h >> 16) % 8);
            const QJsonObject tunables {
                {QStringLiteral("A"), 1 << a}, {QStringLiteral("B"), 1 << b}, {QStringLiteral("C"), c}};
            done(MutationResult {r.requestId,
                Proposal {QStringLiteral("__global__ void k() { /* A=%1 B=%2 C=%3 */ }").arg(a).arg(b).arg(c),
                    QStringLiteral("cuda"),
                    {{QStringLiteral("family"), QStringLiteral("synthetic")}, {QStringLiteral("tunables"), tunables}},
                    QStringLiteral("param"), {}, {}},
                {}, {}});
        }
    }
    void cancel() override { }
};

// Bins from the code's hash, answered at once.
class SyntheticForecaster : public CandidateForecaster
{
public:
    QString name() const override { return QStringLiteral("synthetic"); }
    RowId forecasterId() const override { return 0; }
    void request(const QList<ForecastAsk> &asks, Done done) override
    {
        for (const ForecastAsk &ask : asks) {
            ForecastAnswer a;
            a.requestId = ask.requestId;
            const quint64 h = mix64(qHash(ask.candidate.source));
            double sum = 0.0;
            for (size_t b = 0; b < 8; ++b) {
                a.forecast.probabilities[b] = 1.0 + double((h >> (4 * b)) % 16);
                sum += a.forecast.probabilities[b];
            }
            int top = 0;
            for (size_t b = 0; b < 8; ++b) {
                a.forecast.probabilities[b] /= sum;
                a.expectedBin += double(b + 1) * a.forecast.probabilities[b];
                if (a.forecast.probabilities[b] > a.forecast.probabilities[size_t(top)])
                    top = int(b);
            }
            a.predictedBin = top + 1;
            a.forecast.predictedBin = a.predictedBin;
            a.confidence = a.forecast.probabilities[size_t(top)];
            done(a);
        }
    }
    void cancel() override { }
};

SearchConfig syntheticConfig()
{
    SearchConfig c;
    c.mode = Mode::Standard;
    c.steps = 1000000;
    c.parentsPerStep = 60;
    c.proposalsPerParent = 4;
    c.measurementsPerParent = 4;
    c.keepPerParent = 4;
    c.capacity = 20000;
    c.seed = 1;
    c.problem = QStringLiteral("synthetic");
    return c;
}

RunParts syntheticParts()
{
    RunParts parts;
    parts.mutator = std::make_unique<SyntheticMutator>();
    parts.evaluator = std::make_unique<SyntheticEvaluator>();
    return parts;
}

SeedSpec syntheticSeed()
{
    SeedSpec seed;
    seed.proposal = Proposal {
        QStringLiteral("__global__ void seed() {}"), QStringLiteral("cuda"), {}, QStringLiteral("seed"), {}, {}};
    seed.reward = 1.0;
    return seed;
}

// Grows the archive to `nodes` with 60 parents a step, then times `steps` steps of 2 parents × 4 proposals.
void overheadPerCandidate(const char *name, std::unique_ptr<EventSink> sink, int nodes, int steps)
{
    if (!SearchRun::initialize(*sink, QStringLiteral("bench"), syntheticConfig(), {syntheticSeed()}))
        return;
    SearchRun run(std::move(sink), syntheticParts());
    if (!run.open())
        return;
    while (int(run.state().archive.nodes.size()) < nodes)
        (void)run.pump(3); // start, select, complete: one step
    (void)run.changeConfig({{QStringLiteral("parents_per_step"), 2}});
    const int before = run.state().completedSteps();
    const qsizetype candidatesBefore = qsizetype(run.state().candidates.size());
    QElapsedTimer timer;
    timer.start();
    const std::clock_t cpu = std::clock();
    while (run.state().completedSteps() < before + steps)
        (void)run.pump(1);
    const double ms = timer.nsecsElapsed() / 1e6;
    const double cpuMs = double(std::clock() - cpu) * 1000.0 / CLOCKS_PER_SEC;
    const qsizetype candidates = qsizetype(run.state().candidates.size()) - candidatesBefore;
    std::printf("# %s: archive %zu nodes, %lld candidates in %d steps\n", name, run.state().archive.nodes.size(),
        qlonglong(candidates), steps);
    // CPU time is what the engine costs; wall time also counts the other programs of a shared machine.
    report(name, cpuMs / double(candidates), "ms/candidate (CPU)");
    std::printf("# %s wall %.4g ms/candidate\n", name, ms / double(candidates));
}

// A surrogate search on the tunable space (it skips nothing, so its measurements grow every step): once it has measured
// 200 configurations (the learner's 160 and more), the engine's CPU time per proposal over 15 steps.
double learnerOverhead(const char *name, Policy policy)
{
    SearchConfig config = syntheticConfig();
    config.mode = Mode::Surrogate;
    config.policy = policy;
    config.alpha = 0.1;
    config.parentsPerStep = 2;
    config.proposalsPerParent = 16;
    config.keepPerParent = 2;
    config.forecaster = QStringLiteral("synthetic");
    auto sink = std::make_unique<MemorySink>();
    if (!SearchRun::initialize(*sink, QStringLiteral("learner"), config, {syntheticSeed()}))
        return std::nan("");
    RunParts parts;
    parts.mutator = std::make_unique<TunableMutator>();
    parts.evaluator = std::make_unique<SyntheticEvaluator>();
    parts.forecaster = std::make_unique<SyntheticForecaster>();
    SearchRun run(std::move(sink), std::move(parts));
    if (!run.open())
        return std::nan("");
    while (run.state().gpuEvaluations < 200 && run.state().completedSteps() < 2000)
        (void)run.pump(1);
    const int before = run.state().completedSteps();
    const qsizetype candidatesBefore = qsizetype(run.state().candidates.size());
    const std::clock_t cpu = std::clock();
    while (run.state().completedSteps() < before + 15)
        (void)run.pump(1);
    const double cpuMs = double(std::clock() - cpu) * 1000.0 / CLOCKS_PER_SEC;
    const qsizetype candidates = qsizetype(run.state().candidates.size()) - candidatesBefore;
    std::printf("# %s: %d GPU evaluations before, %lld candidates in 15 steps\n", name, run.state().gpuEvaluations,
        qlonglong(candidates));
    report(name, cpuMs / double(candidates), "ms/candidate (CPU)");
    return cpuMs / double(candidates);
}

void resumeLog(const QString &dir)
{
    const QString path = dir + QStringLiteral("/resume.gpuf");
    RowId searchId = 0;
    {
        auto store = Store::open(path);
        Search search;
        search.name = QStringLiteral("big");
        search.mode = QStringLiteral("standard");
        searchId = SearchRepo(**store).ensure(search).value();
        auto sink = std::make_unique<StoreSink>(**store, searchId);
        SearchConfig config = syntheticConfig();
        config.parentsPerStep = 8;
        if (!SearchRun::initialize(*sink, QStringLiteral("big"), config, {syntheticSeed()}))
            return;
        SearchRun run(std::move(sink), syntheticParts());
        if (!run.open())
            return;
        while (run.state().events < 100000)
            (void)run.pump(3);
        std::printf("# resume: a log of %lld events, %d steps, archive %zu nodes\n", qlonglong(run.state().events),
            run.state().completedSteps(), run.state().archive.nodes.size());
    }
    QElapsedTimer timer;
    timer.start();
    const std::clock_t cpu = std::clock();
    auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    auto state = foldStoredSearch(**store, QStringLiteral("big"));
    const double ms = timer.nsecsElapsed() / 1e6;
    const double cpuMs = double(std::clock() - cpu) * 1000.0 / CLOCKS_PER_SEC;
    if (!state) {
        std::printf("# resume failed: %s\n", qPrintable(state.error()));
        return;
    }
    report("search_resume_100k_events", ms, "ms (wall)");
    report("search_resume_100k_events_cpu", cpuMs, "ms (CPU)");
}

// Every strategy on one space: evaluations to the optimum (mean over the seeds that reached it, and how many did)
// and the performance score, one line each.
void compareSpace(const QString &storePath, const QString &label, const SearchConfig &base)
{
    CompareOptions options;
    options.base = base;
    options.storePath = storePath;
    options.seeds = 10;
    options.jobs = std::max(1, QThread::idealThreadCount());
    options.strategies = *strategiesFromNames(QStringLiteral("standard,surrogate,selective,random,greedy,genetic"));
    auto report = compareStrategies(options);
    if (!report) {
        std::printf("# compare %s: %s\n", qPrintable(label), qPrintable(report.error()));
        return;
    }
    std::printf("# %s: %d configurations, optimum %.3fx, budget %d, random expects %.1f evaluations to the optimum\n",
        qPrintable(label), report->spaceSize, report->optimum, report->budget, report->randomToOptimum);
    for (const StrategyResult &s : std::as_const(report->strategies)) {
        QList<double> reached, scores;
        for (int r : s.toOptimum) {
            if (r >= 0)
                reached << r;
        }
        for (double v : s.scores) {
            if (std::isfinite(v))
                scores << v;
        }
        const QString name = QStringLiteral("compare_%1_%2").arg(label, s.strategy.name());
        std::printf("%s_evals_to_optimum %.1f evals (%lld/%lld seeds reached)\n", qPrintable(name),
            reached.isEmpty() ? -1.0 : meanInterval(reached).mean, qlonglong(reached.size()),
            qlonglong(s.toOptimum.size()));
        std::printf("%s_score %.3f\n", qPrintable(name), meanInterval(scores).mean);
    }
    for (const QString &note : std::as_const(report->notes))
        std::printf("# %s: %s\n", qPrintable(label), qPrintable(note));
}

// Every shipped family on its H100 sweep (and a wider family's H200 sweep where only that was measured), and every
// shipped tuning space of the benchmark hub, at the CLI's default budget (40 steps × 2 parents × 4).
void compareOnSpaces(const QString &dir)
{
    const QString path = dir + QStringLiteral("/spaces.gpuf");
    QList<std::pair<QString, QString>> spaces; // (family, problem)
    {
        auto store = Store::open(path);
        const QDir sweeps(QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps"));
        QSet<QString> done;
        // H100 first: a family measured on both is compared on its H100 sweep (the GPU with most runs).
        QStringList files = sweeps.entryList({QStringLiteral("*-h100-*.jsonl")}, QDir::Files, QDir::Name)
            + sweeps.entryList({QStringLiteral("*-h200-*.jsonl")}, QDir::Files, QDir::Name);
        for (const QString &file : std::as_const(files)) {
            auto sweep = families::readSweep(sweeps.filePath(file));
            if (!sweep || done.contains(sweep->family))
                continue;
            auto family = families::findFamily(sweep->family);
            if (!family || !families::importSweep(**store, *sweep, *family, families::shippedCorpusDir())) {
                std::printf("# %s: not imported\n", qPrintable(file));
                continue;
            }
            done.insert(sweep->family);
            spaces.append({sweep->family, family->problem});
        }
        const QDir tuning(QStringLiteral(GPUF_SOURCE_DIR "/resources/tuning"));
        for (const QString &file : tuning.entryList({QStringLiteral("*.json.gz")}, QDir::Files, QDir::Name)) {
            auto results = interop::readTuningResults(tuning.filePath(file));
            if (!results) {
                std::printf("# %s: %s\n", qPrintable(file), qPrintable(results.error()));
                continue;
            }
            interop::TuningImportOptions options;
            options.sourceFile = file;
            options.name = file.section(QLatin1Char('-'), 0, 0);
            options.hardware = results->hardware.isEmpty() ? QStringLiteral("NVIDIA A100-PCIE-40GB") : QString();
            auto report = interop::importTuningResults(**store, *results, options);
            if (!report) {
                std::printf("# %s: %s\n", qPrintable(file), qPrintable(report.error()));
                continue;
            }
            spaces.append({report->space, report->space});
        }
    }
    for (const auto &[family, problem] : std::as_const(spaces)) {
        SearchConfig base;
        base.problem = problem;
        base.mutator = MutatorKind::Family;
        base.mutatorConfig = {{QStringLiteral("family"), family}};
        base.forecaster = QStringLiteral("costmodel");
        compareSpace(path, family, base);
    }
}

} // namespace

// NOLINTNEXTLINE(bugprone-exception-escape): a bench whose temporary store cannot be opened ends on the exception.
int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // Arguments pick figures (overhead, resume, compare); none: all of them.
    const QStringList args = QCoreApplication::arguments().mid(1);
    auto wanted = [&args](const char *figure) { return args.isEmpty() || args.contains(QLatin1StringView(figure)); };
    QTemporaryDir dir;
    if (wanted("overhead")) {
        overheadPerCandidate(
            "search_overhead_per_candidate_10k_archive_memory", std::make_unique<MemorySink>(), 10000, 50);
        auto store = Store::open(dir.path() + QStringLiteral("/overhead.gpuf"));
        Search search;
        search.name = QStringLiteral("bench");
        search.mode = QStringLiteral("standard");
        const RowId id = SearchRepo(**store).ensure(search).value();
        overheadPerCandidate(
            "search_overhead_per_candidate_10k_archive_store", std::make_unique<StoreSink>(**store, id), 10000, 50);
    }
    if (wanted("learner")) {
        const double learning
            = learnerOverhead("search_learner_overhead_per_candidate_probability_alpha", Policy::Probability);
        const double paper = learnerOverhead("search_learner_overhead_per_candidate_paper_alpha", Policy::Paper);
        report("search_learning_and_recalibration_per_candidate", learning - paper, "ms/candidate (CPU)");
    }
    if (wanted("resume"))
        resumeLog(dir.path());
    if (wanted("compare"))
        compareOnSpaces(dir.path());
    return 0;
}
