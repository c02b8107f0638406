// search_bench: the search engine's own cost. Prints one line per figure (`<name> <value> <unit>`):
// - engine overhead per candidate with a 10 000-node archive (events kept in memory; the same through a store);
// - resume of a 100 000-event log (load and fold);
// - `compare` on the corpus replay worlds: GPU evaluations the surrogate and selective modes need to reach the
//   standard mode's best, as a ratio of the standard mode's own.
// The mutator and evaluator of the first two are synthetic and answer at once, so what is timed is the engine.
#include "core/interop/corpus.h"
#include "core/search/compare.h"
#include "core/search/recorded_mutators.h"
#include "core/search/search_run.h"
#include "core/search/search_setup.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include "gpuf_config.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

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

void compareOnCorpus(const QString &dir)
{
    const QString path = dir + QStringLiteral("/world.gpuf");
    auto store = Store::open(path);
    if (!interop::importCorpus(**store, QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"),
            QStringLiteral(GPUF_SOURCE_DIR "/resources/measurements/corpus-h100-2026-11-21.jsonl")))
        return;
    for (const char *problem : {"sgemm", "reduce_sum", "row_softmax", "transpose", "layer_norm"}) {
        CompareOptions options;
        options.base.problem = QLatin1StringView(problem);
        options.base.forecaster = QStringLiteral("costmodel");
        options.base.steps = 10;
        options.base.parentsPerStep = 2;
        options.base.measurementsPerParent = 2;
        options.base.proposalsPerParent = 2;
        options.seeds = 10;
        auto report = compareModes(**store, options);
        if (!report) {
            std::printf("# compare %s: %s\n", problem, qPrintable(report->problem));
            continue;
        }
        double standard = 0;
        for (const ModeResult &m : report->modes) {
            double sum = 0;
            int reached = 0;
            for (int r : m.toReachStandard) {
                if (r >= 0) {
                    sum += r;
                    ++reached;
                }
            }
            const double mean = reached ? sum / reached : -1;
            if (m.mode == Mode::Standard)
                standard = mean;
            double best = 0;
            for (double b : m.finalBest)
                best += b / m.finalBest.size();
            std::printf("compare_%s_%s_best_speedup %.3f x\n", problem, qPrintable(modeName(m.mode)), best);
            std::printf("compare_%s_%s_evals_to_standard_best %.2f evals (%d/%lld seeds reached)\n", problem,
                qPrintable(modeName(m.mode)), mean, reached, qlonglong(m.toReachStandard.size()));
            if (m.mode != Mode::Standard && standard > 0 && mean >= 0)
                std::printf("compare_%s_%s_ratio %.3f\n", problem, qPrintable(modeName(m.mode)), mean / standard);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // Arguments pick figures (overhead, resume, compare); none: all of them.
    const QStringList args = app.arguments().mid(1);
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
    if (wanted("resume"))
        resumeLog(dir.path());
    if (wanted("compare"))
        compareOnCorpus(dir.path());
    return 0;
}
