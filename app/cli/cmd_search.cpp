// gpuf search start|resume|pause|stop|status|list|export|compare|families: the kernel search without a display, on
// the command runner (invocation.h) as every command is. start and resume run the engine through the search host on
// its own thread and print progress on stderr (a bar on a terminal, a line per step otherwise); pause and stop append
// an event the running search folds in; compare runs the modes in memory and the baselines beside them on the same
// space (docs/search.md, "Comparing strategies").
#include "app/cli/cli_engine.h"
#include "app/cli/invocation.h"
#include "app/cli/local_loop.h"
#include "app/cli/option_names.h"
#include "app/cli/progress.h"
#include "app/cli/search_options.h"
#include "app/cli/search_progress.h"
#include "app/cli/search_report.h"
#include "core/domain/search_event_kind.h"
#include "core/search/compare.h"
#include "core/search/search_export.h"
#include "core/search/search_host.h"
#include "core/search/search_setup.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QJsonArray>
#include <QSaveFile>
#include <QThread>

#include <algorithm>

namespace gpuf::cli {
namespace {

using namespace gpuf::search;

// Runs the stored search named `name` on the search host's engine thread until it finishes, stops, pauses or fails
// (at --pace steps a second at most; with --paused it pauses before its next step); then prints its figures as the log
// holds them.
int runSearch(Invocation &run, const QString &storePath, const QString &name, const SetupOptions &setup)
{
    SearchHost host;
    host.setStorePath(storePath);
    host.setSetupOptions(setup);
    host.setPace(name, run.isSet(kPace) ? run.value(kPace).toDouble() : 0.0);
    Progress progress(run.err(), run.isSet(kQuiet));
    SearchProgress bar(progress);
    QString error;
    SearchSnapshot last;
    QObject::connect(&host, &SearchHost::snapshotChanged, &host, [&](const SearchSnapshot &s) {
        last = s;
        bar.snapshot(s);
    });
    QObject::connect(&host, &SearchHost::stepCompleted, &host, [&](const SearchSnapshot &s) {
        last = s;
        bar.step(s);
    });
    LocalLoop loop;
    loop.endOn(host, &SearchHost::failed, [&error](const QString &, const QString &message) {
        error = message;
        return true;
    });
    loop.endOn(host, &SearchHost::halted, [&last](const SearchSnapshot &s) {
        last = s;
        return true;
    });
    loop.run([&] {
        host.run(name);
        if (run.isSet(kPaused))
            host.pause(name); // queued behind the engine's start: written before a step begins
    });
    host.releaseAll();
    host.waitForReleased();
    bar.finish(last);
    if (!error.isEmpty())
        return run.bad(error);
    auto store = run.existingStore(storePath, Store::Check::Header);
    if (!store)
        return run.bad(store.error());
    auto state = foldStoredSearch(**store, name);
    if (!state)
        return run.bad(state.error());
    if (run.json())
        run.printJson(searchStatusJson(*state));
    else
        printSearchStatus(run.out(), *state, bestNodeName(**store, *state));
    return Success;
}

// --unsandboxed reaches this machine's gpuf-measure only: a cluster's nodes take it from their profile.
Status sandboxReachesTheGpu(const Invocation &run, const SearchConfig &config)
{
    if (run.isSet(kUnsandboxed) && config.gpu.kind == GpuSource::Kind::Cluster)
        return Error {CliEngine::unsandboxedOnCluster(config.clusterProfileName())};
    return {};
}

int runStart(Invocation &run, const QStringList &args, const OptionValues &given)
{
    if (!run.isSet(kName))
        return run.usage(QStringLiteral("--name NAME is required"));
    auto config = configFromOptions(run.parser(), given);
    if (!config)
        return run.bad(config.error());
    if (Status s = sandboxReachesTheGpu(run, *config); !s)
        return run.bad(s.error());
    {
        auto store = run.existingStore(args.first());
        if (!store)
            return run.bad(store.error());
        if (Status known = knownSpace(**store, *config); !known)
            return run.bad(known.error());
        SetupOptions setup = setupFrom(run.parser());
        // The local GPU's worker is asked before anything is written; what it says of Python candidates is said once.
        setup.notice = [&run](const QString &text) {
            run.err() << run.prefix() << ": " << text << '\n';
            run.err().flush();
        };
        auto id = createSearch(**store, run.value(kName), *config, setup);
        if (!id)
            return run.bad(id.error());
    }
    return runSearch(run, args.first(), run.value(kName), setupFrom(run.parser()));
}

// --steps is the whole budget: it may extend a search, not cut it below the steps done. Recorded as a configuration
// change, in one transaction with the stored configuration.
Status extendBudget(Store &store, RowId id, const SearchState &state, int steps)
{
    if (steps < state.completedSteps())
        return Error {QStringLiteral("'%1' has completed %2 steps already; --steps is the whole budget, so it takes at "
                                     "least %2 (more to run on)")
                          .arg(state.name)
                          .arg(state.completedSteps())};
    if (steps == state.config.steps)
        return {};
    SearchConfig changed = state.config;
    changed.steps = steps;
    if (Status s = changed.validate(); !s)
        return s;
    return appendControlEvent(store, id, SearchEventKind::ConfigChanged,
        {{QStringLiteral("changes"), QJsonObject {{QStringLiteral("steps"), steps}}}},
        [&] { return SearchRepo(store).updateConfig(id, changed.toJson()); });
}

// Options given to resume must match the stored configuration (only --steps may extend the budget).
int runResume(Invocation &run, const QStringList &args, const OptionValues &given)
{
    const QString &name = args.at(1);
    if (run.isSet(kPaused))
        return run.usage(QStringLiteral("--paused is for start: resume runs the search (gpuf search pause pauses it)"));
    {
        auto store = run.existingStore(args.first());
        if (!store)
            return run.bad(store.error());
        auto state = foldStoredSearch(**store, name);
        if (!state)
            return run.bad(state.error());
        if (state->stopped)
            return run.bad(QStringLiteral("'%1' was stopped; start a new search").arg(name));
        if (const QStringList differences = differencesFromOptions(run.parser(), state->config); !differences.isEmpty())
            return run.bad(QStringLiteral("'%1' runs under another configuration: %2; a search resumes only under its "
                                          "own (start a new one to change it)")
                               .arg(name, differences.join(QStringLiteral(", "))));
        if (Status s = sandboxReachesTheGpu(run, state->config); !s)
            return run.bad(s.error());
        auto search = SearchRepo(**store).findByName(name);
        if (!search || !search->has_value())
            return run.bad(QStringLiteral("no search named '%1'").arg(name));
        const RowId id = (*search)->id;
        if (Status s = extendBudget(**store, id, *state, given.integer(kSteps, state->config.steps)); !s)
            return run.bad(s.error());
        if (state->paused) {
            if (Status s = appendControlEvent(**store, id, SearchEventKind::SearchResumed, {}); !s)
                return run.bad(s.error());
        }
    }
    return runSearch(run, args.first(), name, setupFrom(run.parser()));
}

// pause and stop: one event in the search's log; a running search folds it in and acts on it.
int runControl(Invocation &run, const QStringList &args, bool pause)
{
    const QString &name = args.at(1);
    auto store = run.existingStore(args.first());
    if (!store)
        return run.bad(store.error());
    auto state = foldStoredSearch(**store, name);
    if (!state)
        return run.bad(state.error());
    if (state->finished || state->stopped) {
        run.out() << "search " << name << " is already " << (state->finished ? "finished" : "stopped") << '\n';
        return Success;
    }
    if (pause && state->paused) {
        run.out() << "search " << name << " is already paused\n";
        return Success;
    }
    auto search = SearchRepo(**store).findByName(name);
    if (!search || !search->has_value())
        return run.bad(QStringLiteral("no search named '%1'").arg(name));
    const QString verb = pause ? QStringLiteral("pause") : QStringLiteral("stop");
    Status s = appendControlEvent(**store, (*search)->id,
        pause ? SearchEventKind::SearchPaused : SearchEventKind::SearchStopped,
        {{QStringLiteral("by"), QString(QStringLiteral("gpuf search ") + verb)}});
    if (!s)
        return run.bad(s.error());
    run.out() << "search " << name << (pause ? " paused" : " stopped")
              << " (a running search finishes the requests in flight, then halts)\n";
    return Success;
}

int runStatus(Invocation &run, const QStringList &args, const OptionValues &)
{
    auto store = run.readStore(args.first());
    if (!store)
        return run.bad(store.error());
    auto state = foldStoredSearch(**store, args.at(1));
    if (!state)
        return run.bad(state.error());
    if (run.json())
        run.printJson(searchStatusJson(*state));
    else
        printSearchStatus(run.out(), *state, bestNodeName(**store, *state));
    return Success;
}

// One line of `gpuf search list`: the name, mode and status, then the figures or why the log cannot be read.
void printListRow(QTextStream &out, const Search &s, const QJsonObject &row, const Result<SearchState> &state)
{
    out << s.name.leftJustified(24) << ' ' << s.mode.leftJustified(10) << ' '
        << row.value(QStringLiteral("status")).toString().leftJustified(9);
    if (state) {
        out << " step " << row.value(QStringLiteral("step")).toInt() << "/"
            << row.value(QStringLiteral("steps")).toInt() << ", "
            << row.value(QStringLiteral("gpu_evaluations")).toInt() << " GPU evaluation(s)";
        if (row.value(QStringLiteral("replayed_evaluations")).toInt() > 0)
            out << " (replay)";
        if (state->bestReward)
            out << ", best " << QString::number(*state->bestReward, 'f', 3) << "×";
    } else {
        out << " " << state.error();
    }
    out << '\n';
}

int runList(Invocation &run, const QStringList &args, const OptionValues &)
{
    auto store = run.readStore(args.first());
    if (!store)
        return run.bad(store.error());
    auto searches = SearchRepo(**store).list();
    if (!searches)
        return run.bad(searches.error());
    QJsonArray rows;
    for (const Search &s : std::as_const(*searches)) {
        auto state = foldStoredSearch(**store, s.name);
        QJsonObject row {{QStringLiteral("name"), s.name}, {QStringLiteral("mode"), s.mode}};
        if (state) {
            row = searchStatusJson(*state);
        } else {
            row.insert(QStringLiteral("status"), QStringLiteral("unreadable"));
            row.insert(QStringLiteral("error"), state.error());
        }
        rows.append(row);
        if (!run.json())
            printListRow(run.out(), s, row, state);
    }
    if (run.json())
        run.printJson(rows);
    run.out().flush();
    return Success;
}

int runExport(Invocation &run, const QStringList &args, const OptionValues &)
{
    if (!run.isSet(kOut))
        return run.usage(QStringLiteral("--out FILE is required"));
    auto store = run.readStore(args.first());
    if (!store)
        return run.bad(store.error());
    if (auto state = foldStoredSearch(**store, args.at(1)); !state)
        return run.bad(state.error());
    if (Status s = exportEventLog(**store, args.at(1), run.value(kOut)); !s)
        return run.bad(s.error());
    run.out() << "wrote " << run.value(kOut) << '\n';
    return Success;
}

// The equal-budget comparison's options: the base configuration (replayed), the seeds, the factor, the strategies.
Result<CompareOptions> compareOptionsFrom(const Invocation &run, const QString &storePath, const OptionValues &given)
{
    auto config = configFromOptions(run.parser(), given);
    if (!config)
        return config.failure();
    config->gpu = GpuSource::replay();
    if (config->forecaster.isEmpty())
        config->forecaster = QStringLiteral("costmodel");
    CompareOptions options;
    options.base = *config;
    options.storePath = storePath;
    options.seeds = given.integer(kSeeds, 10);
    options.proposalFactor = given.integer(kFactor, 4);
    options.jobs = given.integer(kJobs, std::clamp(QThread::idealThreadCount(), 1, 256));
    if (run.isSet(kStrategies)) {
        auto strategies = strategiesFromNames(run.value(kStrategies));
        if (!strategies)
            return Error {QStringLiteral("--strategies: ") + strategies.error()};
        options.strategies = *strategies;
    }
    return options;
}

int runCompare(Invocation &run, const QStringList &args, const OptionValues &given)
{
    auto options = compareOptionsFrom(run, args.first(), given);
    if (!options)
        return run.bad(options.error());
    Progress progress(run.err(), run.isSet(kQuiet));
    options->progress = [&progress](int done, int total, const QString &line) { progress.count(done, total, line); };
    {
        auto store = run.readStore(options->storePath);
        if (!store)
            return run.bad(store.error());
        if (Status known = knownSpace(**store, options->base); !known)
            return run.bad(known.error());
    }
    auto report = compareStrategies(*options, setupFrom(run.parser()));
    if (!report)
        return run.bad(report.error());
    if (run.isSet(kCsv)) {
        QSaveFile file(run.value(kCsv));
        if (!file.open(QIODevice::WriteOnly) || file.write(report->toCsv().toUtf8()) < 0 || !file.commit())
            return run.bad(QStringLiteral("cannot write %1: %2").arg(run.value(kCsv), file.errorString()));
    }
    if (run.json())
        run.printJson(report->toJson());
    else
        run.out() << report->text();
    run.out().flush();
    return Success;
}

// A sub-command of `gpuf search`: its name, the arguments it takes after it (-1: any) and its logic.
struct Verb
{
    QString name;
    int arguments;
    int (*run)(Invocation &, const QStringList &, const OptionValues &);
};

const QList<Verb> &verbs()
{
    static const QList<Verb> all {
        {QStringLiteral("start"), 1, runStart},
        {QStringLiteral("resume"), 2, runResume},
        {QStringLiteral("pause"), 2,
            [](Invocation &run, const QStringList &args, const OptionValues &) { return runControl(run, args, true); }},
        {QStringLiteral("stop"), 2,
            [](Invocation &run, const QStringList &args, const OptionValues &) {
                return runControl(run, args, false);
            }},
        {QStringLiteral("status"), 2, runStatus},
        {QStringLiteral("list"), 1, runList},
        {QStringLiteral("export"), 2, runExport},
        {QStringLiteral("compare"), 1, runCompare},
        {QStringLiteral("families"), -1,
            [](Invocation &run, const QStringList &, const OptionValues &) { return runSearchFamilies(run); }},
    };
    return all;
}

int runSearchCommand(Invocation &run)
{
    QStringList names;
    for (const Verb &v : verbs())
        names << v.name;
    if (run.args().isEmpty())
        return run.usage(QStringLiteral("give a sub-command (%1)").arg(names.join(QLatin1Char('|'))));
    const auto verb = std::find_if(
        verbs().cbegin(), verbs().cend(), [&run](const Verb &v) { return v.name == run.args().first(); });
    if (verb == verbs().cend())
        return run.usage(
            QStringLiteral("unknown sub-command '%1' (%2)").arg(run.args().first(), names.join(QLatin1Char('|'))));
    run.setPrefix(QStringLiteral("search ") + verb->name);
    const QStringList args = run.args().mid(1);
    if (verb->arguments >= 0 && args.size() != verb->arguments)
        return run.usage(
            verb->arguments == 1 ? QStringLiteral("give exactly one STORE") : QStringLiteral("give STORE and NAME"));
    auto given = run.checkOptions();
    if (!given)
        return run.bad(given.error()); // a count or rate out of range is bad input here, as SearchConfig's own checks
    return verb->run(run, args, *given);
}

} // namespace

Command searchCommand()
{
    Command c;
    c.name = QStringLiteral("search");
    c.summary = QStringLiteral("Run, resume, pause, stop, show, export and compare kernel searches (PUCT; standard, "
                               "surrogate-filtered and selective modes).");
    c.usage = QStringLiteral("start STORE --name N --problem P [--mode M] … | resume STORE NAME | pause STORE NAME | "
                             "stop STORE NAME | status STORE NAME | list STORE | export STORE NAME --out FILE | "
                             "compare STORE --family F|--problem P [--strategies LIST] [--seeds N] [--csv FILE]");
    c.options = searchOptions();
    c.invoke = runSearchCommand;
    return c;
}

} // namespace gpuf::cli
