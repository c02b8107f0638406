// gpuf search start|resume|pause|stop|status|list|export|compare: the kernel search without a display. start and
// resume run the engine on its own thread and print progress on stderr (a bar on a terminal, a line per step
// otherwise); pause and stop append an event the running search folds in; compare runs the modes in memory and the
// baselines beside them on the same space (docs/search.md, "Comparing strategies").
#include "app/cli/command.h"
#include "app/cli/option_names.h"
#include "app/cli/search_options.h"
#include "app/cli/search_progress.h"
#include "core/domain/search_event_kind.h"
#include "core/mutators/shipped_families.h"
#include "core/search/certified_trust.h"
#include "core/search/compare.h"
#include "core/search/node_names.h"
#include "core/search/recorded_mutators.h"
#include "core/search/search_export.h"
#include "core/search/search_host.h"
#include "core/search/search_setup.h"
#include "core/store/problem_repo.h"
#include "core/store/recorded_spaces.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSaveFile>
#include <QThread>

namespace gpuf::cli {
namespace {

using namespace gpuf::search;

QJsonObject statusJson(const SearchState &state)
{
    const SearchSnapshot s = snapshotOf(state);
    QJsonObject best;
    if (const Candidate *c = state.candidate(state.bestNode)) {
        best = {{QStringLiteral("node_id"), c->nodeId}, {QStringLiteral("kernel_id"), c->kernelId},
            {QStringLiteral("content_hash"), c->contentHash}, {QStringLiteral("speedup"), c->reward.value_or(0.0)},
            {QStringLiteral("step"), c->step}, {QStringLiteral("replay"), c->feedback.replayed},
            {QStringLiteral("seed"), c->seedNode}};
    }
    return {{QStringLiteral("name"), state.name}, {QStringLiteral("mode"), s.mode},
        {QStringLiteral("status"), runStatusName(s.status)}, {QStringLiteral("step"), s.step},
        {QStringLiteral("steps"), s.steps}, {QStringLiteral("gpu_evaluations"), s.gpuEvaluations},
        {QStringLiteral("unsuccessful_evaluations"), s.unsuccessfulEvaluations},
        {QStringLiteral("evaluation_failures"), s.evaluationFailures},
        {QStringLiteral("forecast_failures"), s.forecastFailures},
        {QStringLiteral("replayed_evaluations"), s.replayedEvaluations}, {QStringLiteral("forecasts"), s.forecasts},
        {QStringLiteral("deferred"), s.deferred}, {QStringLiteral("queued"), s.queued},
        {QStringLiteral("archive_size"), s.archiveSize}, {QStringLiteral("events"), s.events},
        {QStringLiteral("best_speedup"), s.bestSpeedup ? QJsonValue(*s.bestSpeedup) : QJsonValue()},
        {QStringLiteral("best_kernel"), best.isEmpty() ? QJsonValue() : QJsonValue(best)},
        {QStringLiteral("gpu"), state.config.gpu.name()}, {QStringLiteral("hardware"), state.config.hardware},
        {QStringLiteral("finish_reason"), s.finishReason.isEmpty() ? QJsonValue() : QJsonValue(s.finishReason)},
        {QStringLiteral("exhausted"), s.exhausted},
        {QStringLiteral("certified"), state.certified.isEmpty() ? QJsonValue() : QJsonValue(state.certified)},
        {QStringLiteral("drift_alarm"), state.driftAlarm.isEmpty() ? QJsonValue() : QJsonValue(state.driftAlarm)}};
}

// The best node's readable name: its configuration, or its kernel's stored name; empty when it has neither.
QString bestNodeName(Store &store, const SearchState &state)
{
    const Candidate *c = state.candidate(state.bestNode);
    if (!c)
        return {};
    QString name;
    if (c->kernelId > 0) {
        if (auto kernel = KernelRepo(store).find(c->kernelId); kernel && *kernel)
            name = (*kernel)->name;
    }
    return nodeDisplayName(c->parameters, name);
}

void printStatus(Io &io, const SearchState &state, const QString &bestName)
{
    const SearchSnapshot s = snapshotOf(state);
    io.out << "search " << state.name << " (" << s.mode << ", " << runStatusName(s.status) << "): step " << s.step
           << "/" << s.steps << ", " << s.gpuEvaluations << " GPU evaluation(s)";
    if (s.replayedEvaluations > 0)
        io.out << " (" << s.replayedEvaluations << " replayed ↺)";
    if (s.evaluationFailures > 0)
        io.out << ", " << s.evaluationFailures << " could not run";
    io.out << ", " << s.forecasts << " forecast(s)";
    if (s.forecastFailures > 0)
        io.out << " (" << s.forecastFailures << " failed)";
    io.out << ", " << s.deferred << " deferred";
    if (s.queued > 0)
        io.out << " (" << s.queued << " queued)";
    io.out << ", archive " << s.archiveSize << '\n';
    if (s.exhausted)
        io.out << "the proposals ran out: " << s.finishReason << '\n';
    if (s.bestSpeedup) {
        const Candidate *c = state.candidate(state.bestNode);
        io.out << "best " << QString::number(*s.bestSpeedup, 'f', 3) << "×";
        if (c && c->feedback.replayed)
            io.out << " (replay)";
        if (c && !bestName.isEmpty())
            io.out << ": " << bestName << " (kernel " << c->kernelId << ", node " << c->nodeId << ")";
        else if (c)
            io.out << ": kernel " << c->kernelId << " (" << c->contentHash.left(12) << "), node " << c->nodeId;
        io.out << '\n';
    }
    for (const QString &line : trustStatusLines(state))
        io.out << line << '\n';
    io.out.flush();
}

// Runs the stored search named `name` on the search host's engine thread until it finishes, stops, pauses or fails.
int runSearch(Io &io, const QString &storePath, const QString &name, const SetupOptions &setup, bool quiet, bool json)
{
    SearchHost host;
    host.setStorePath(storePath);
    host.setSetupOptions(setup);
    SearchProgress progress(io.err, quiet);
    QEventLoop loop;
    QString error;
    SearchSnapshot last;
    QObject::connect(&host, &SearchHost::snapshotChanged, &loop, [&](const SearchSnapshot &s) {
        last = s;
        progress.snapshot(s);
    });
    QObject::connect(&host, &SearchHost::stepCompleted, &loop, [&](const SearchSnapshot &s) {
        last = s;
        progress.step(s);
    });
    QObject::connect(&host, &SearchHost::failed, &loop, [&](const QString &, const QString &message) {
        error = message;
        loop.quit();
    });
    QObject::connect(&host, &SearchHost::halted, &loop, [&](const SearchSnapshot &s) {
        last = s;
        loop.quit();
    });
    host.run(name);
    loop.exec();
    host.releaseAll();
    host.waitForReleased();
    progress.finish(last);
    if (!error.isEmpty())
        return fail(io, BadInput, QStringLiteral("search: ") + error);
    auto store = Store::open(storePath, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store)
        return fail(io, BadInput, QStringLiteral("search: ") + store.error());
    auto state = foldStoredSearch(**store, name);
    if (!state)
        return fail(io, BadInput, QStringLiteral("search: ") + state.error());
    if (json)
        printJson(io, QJsonDocument(statusJson(*state)));
    else
        printStatus(io, *state, bestNodeName(**store, *state));
    return Success;
}

int runStart(const QStringList &args, const QCommandLineParser &p, Io &io)
{
    if (args.size() != 1)
        return fail(io, UsageError, QStringLiteral("search start: give exactly one STORE"));
    if (!p.isSet(kName))
        return fail(io, UsageError, QStringLiteral("search start: --name NAME is required"));
    auto config = configFromOptions(p);
    if (!config)
        return fail(io, BadInput, QStringLiteral("search start: ") + config.error());
    {
        auto store = Store::open(args.first(), Store::Mode::ExistingOnly);
        if (!store)
            return fail(io, BadInput, QStringLiteral("search start: ") + store.error());
        if (Status known = knownSpace(**store, *config); !known)
            return fail(io, BadInput, QStringLiteral("search start: ") + known.error());
        auto id = createSearch(**store, p.value(kName), *config, setupFrom(p));
        if (!id)
            return fail(io, BadInput, QStringLiteral("search start: ") + id.error());
    }
    return runSearch(io, args.first(), p.value(kName), setupFrom(p), p.isSet(kQuiet), p.isSet(QStringLiteral("json")));
}

// Options given to resume must match the stored configuration (only --steps may extend the budget).
int runResume(const QStringList &args, const QCommandLineParser &p, Io &io)
{
    if (args.size() != 2)
        return fail(io, UsageError, QStringLiteral("search resume: give STORE and NAME"));
    const QString &name = args.at(1);
    {
        auto store = Store::open(args.first(), Store::Mode::ExistingOnly);
        if (!store)
            return fail(io, BadInput, QStringLiteral("search resume: ") + store.error());
        auto state = foldStoredSearch(**store, name);
        if (!state)
            return fail(io, BadInput, QStringLiteral("search resume: ") + state.error());
        if (state->stopped)
            return fail(io, BadInput, QStringLiteral("search resume: '%1' was stopped; start a new search").arg(name));
        if (const QStringList differences = differencesFromOptions(p, state->config); !differences.isEmpty())
            return fail(io, BadInput,
                QStringLiteral("search resume: '%1' runs under another configuration: %2; a search resumes only"
                               " under its own (start a new one to change it)")
                    .arg(name, differences.join(QStringLiteral(", "))));
        SearchRepo searches(**store);
        auto search = searches.findByName(name);
        if (!search || !search->has_value())
            return fail(io, BadInput, QStringLiteral("search resume: no search named '%1'").arg(name));
        const RowId id = (*search)->id;
        auto steps = positiveInt(p, kSteps, state->config.steps);
        if (!steps)
            return fail(io, BadInput, QStringLiteral("search resume: ") + steps.error());
        if (*steps < state->completedSteps())
            return fail(io, BadInput,
                QStringLiteral("search resume: '%1' has completed %2 steps already; --steps is the whole budget, so "
                               "it takes at least %2 (more to run on)")
                    .arg(name)
                    .arg(state->completedSteps()));
        if (*steps != state->config.steps) {
            SearchConfig changed = state->config;
            changed.steps = *steps;
            Status s = appendControlEvent(**store, id, SearchEventKind::ConfigChanged,
                {{QStringLiteral("changes"), QJsonObject {{QStringLiteral("steps"), *steps}}}},
                [&] { return searches.updateConfig(id, changed.toJson()); });
            if (!s)
                return fail(io, BadInput, QStringLiteral("search resume: ") + s.error());
        }
        if (state->paused) {
            if (Status s = appendControlEvent(**store, id, SearchEventKind::SearchResumed, {}); !s)
                return fail(io, BadInput, QStringLiteral("search resume: ") + s.error());
        }
    }
    return runSearch(io, args.first(), name, setupFrom(p), p.isSet(kQuiet), p.isSet(QStringLiteral("json")));
}

// pause and stop: one event in the search's log; a running search folds it in and acts on it.
int runControl(const QString &verb, const QStringList &args, Io &io)
{
    if (args.size() != 2)
        return fail(io, UsageError, QStringLiteral("search %1: give STORE and NAME").arg(verb));
    auto store = Store::open(args.first(), Store::Mode::ExistingOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("search %1: ").arg(verb) + store.error());
    auto state = foldStoredSearch(**store, args.at(1));
    if (!state)
        return fail(io, BadInput, QStringLiteral("search %1: ").arg(verb) + state.error());
    if (state->finished || state->stopped) {
        io.out << "search " << args.at(1) << " is already " << (state->finished ? "finished" : "stopped") << '\n';
        return Success;
    }
    if (verb == QLatin1StringView("pause") && state->paused) {
        io.out << "search " << args.at(1) << " is already paused\n";
        return Success;
    }
    auto search = SearchRepo(**store).findByName(args.at(1));
    if (!search || !search->has_value())
        return fail(io, BadInput, QStringLiteral("search %1: no search named '%2'").arg(verb, args.at(1)));
    Status s = appendControlEvent(**store, (*search)->id,
        verb == QLatin1StringView("pause") ? SearchEventKind::SearchPaused : SearchEventKind::SearchStopped,
        {{QStringLiteral("by"), QStringLiteral("gpuf search %1").arg(verb)}});
    if (!s)
        return fail(io, BadInput, QStringLiteral("search %1: ").arg(verb) + s.error());
    io.out << "search " << args.at(1) << (verb == QLatin1StringView("pause") ? " paused" : " stopped")
           << " (a running search finishes the requests in flight, then halts)\n";
    return Success;
}

int runStatus(const QStringList &args, const QCommandLineParser &p, Io &io)
{
    if (args.size() != 2)
        return fail(io, UsageError, QStringLiteral("search status: give STORE and NAME"));
    auto store = Store::open(args.first(), Store::Mode::ReadOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("search status: ") + store.error());
    auto state = foldStoredSearch(**store, args.at(1));
    if (!state)
        return fail(io, BadInput, QStringLiteral("search status: ") + state.error());
    if (p.isSet(QStringLiteral("json")))
        printJson(io, QJsonDocument(statusJson(*state)));
    else
        printStatus(io, *state, bestNodeName(**store, *state));
    return Success;
}

int runList(const QStringList &args, const QCommandLineParser &p, Io &io)
{
    if (args.size() != 1)
        return fail(io, UsageError, QStringLiteral("search list: give exactly one STORE"));
    auto store = Store::open(args.first(), Store::Mode::ReadOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("search list: ") + store.error());
    auto searches = SearchRepo(**store).list();
    if (!searches)
        return fail(io, BadInput, QStringLiteral("search list: ") + searches.error());
    QJsonArray rows;
    for (const Search &s : std::as_const(*searches)) {
        auto state = foldStoredSearch(**store, s.name);
        QJsonObject row {{QStringLiteral("name"), s.name}, {QStringLiteral("mode"), s.mode}};
        if (state) {
            row = statusJson(*state);
        } else {
            row.insert(QStringLiteral("status"), QStringLiteral("unreadable"));
            row.insert(QStringLiteral("error"), state.error());
        }
        rows.append(row);
        if (!p.isSet(QStringLiteral("json"))) {
            io.out << s.name.leftJustified(24) << ' ' << s.mode.leftJustified(10) << ' '
                   << row.value(QStringLiteral("status")).toString().leftJustified(9);
            if (state) {
                io.out << " step " << row.value(QStringLiteral("step")).toInt() << "/"
                       << row.value(QStringLiteral("steps")).toInt() << ", "
                       << row.value(QStringLiteral("gpu_evaluations")).toInt() << " GPU evaluation(s)";
                if (row.value(QStringLiteral("replayed_evaluations")).toInt() > 0)
                    io.out << " (replay)";
                if (state->bestReward)
                    io.out << ", best " << QString::number(*state->bestReward, 'f', 3) << "×";
            } else {
                io.out << " " << state.error();
            }
            io.out << '\n';
        }
    }
    if (p.isSet(QStringLiteral("json")))
        printJson(io, QJsonDocument(rows));
    io.out.flush();
    return Success;
}

int runExport(const QStringList &args, const QCommandLineParser &p, Io &io)
{
    if (args.size() != 2)
        return fail(io, UsageError, QStringLiteral("search export: give STORE and NAME"));
    if (!p.isSet(kOut))
        return fail(io, UsageError, QStringLiteral("search export: --out FILE is required"));
    auto store = Store::open(args.first(), Store::Mode::ReadOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("search export: ") + store.error());
    if (auto state = foldStoredSearch(**store, args.at(1)); !state)
        return fail(io, BadInput, QStringLiteral("search export: ") + state.error());
    if (Status s = exportEventLog(**store, args.at(1), p.value(kOut)); !s)
        return fail(io, BadInput, QStringLiteral("search export: ") + s.error());
    io.out << "wrote " << p.value(kOut) << '\n';
    return Success;
}

int runCompare(const QStringList &args, const QCommandLineParser &p, Io &io)
{
    if (args.size() != 1)
        return fail(io, UsageError, QStringLiteral("search compare: give exactly one STORE"));
    auto config = configFromOptions(p);
    if (!config)
        return fail(io, BadInput, QStringLiteral("search compare: ") + config.error());
    config->gpu = GpuSource::replay();
    if (config->forecaster.isEmpty())
        config->forecaster = QStringLiteral("costmodel");
    CompareOptions options;
    options.base = *config;
    options.storePath = args.first();
    auto seeds = positiveInt(p, kSeeds, 10);
    auto factor = positiveInt(p, kFactor, 4);
    auto jobs = positiveInt(p, kJobs, std::max(1, QThread::idealThreadCount()));
    for (const auto *r : {&seeds, &factor, &jobs}) {
        if (!*r)
            return fail(io, BadInput, QStringLiteral("search compare: ") + r->error());
    }
    if (*seeds > 1000 || *jobs > 256)
        return fail(io, BadInput, QStringLiteral("search compare: --seeds takes at most 1000 and --jobs at most 256"));
    options.seeds = *seeds;
    options.proposalFactor = *factor;
    options.jobs = *jobs;
    if (p.isSet(kStrategies)) {
        auto strategies = strategiesFromNames(p.value(kStrategies));
        if (!strategies)
            return fail(io, BadInput, QStringLiteral("search compare: --strategies: ") + strategies.error());
        options.strategies = *strategies;
    }
    if (!p.isSet(kQuiet))
        options.progress = [&io](int done, int total, const QString &line) {
            io.err << QStringLiteral("[%1/%2] ").arg(done).arg(total) << line << '\n';
            io.err.flush();
        };
    if (!QFileInfo::exists(options.storePath))
        return fail(io, BadInput, QStringLiteral("search compare: no store at %1").arg(options.storePath));
    {
        auto store = Store::open(options.storePath, Store::Mode::ReadOnly);
        if (!store)
            return fail(io, BadInput, QStringLiteral("search compare: ") + store.error());
        if (Status known = knownSpace(**store, options.base); !known)
            return fail(io, BadInput, QStringLiteral("search compare: ") + known.error());
    }
    auto report = compareStrategies(options, setupFrom(p));
    if (!report)
        return fail(io, BadInput, QStringLiteral("search compare: ") + report.error());
    if (p.isSet(kCsv)) {
        QSaveFile file(p.value(kCsv));
        if (!file.open(QIODevice::WriteOnly) || file.write(report->toCsv().toUtf8()) < 0 || !file.commit())
            return fail(io, BadInput,
                QStringLiteral("search compare: cannot write %1: %2").arg(p.value(kCsv), file.errorString()));
    }
    if (p.isSet(QStringLiteral("json")))
        printJson(io, QJsonDocument(report->toJson()));
    else
        io.out << report->text();
    io.out.flush();
    return Success;
}

struct Subcommand
{
    QString name;
    std::function<int(const QStringList &, const QCommandLineParser &, Io &)> run;
};

// The sub-commands of `gpuf search`.
const QList<Subcommand> &subcommands()
{
    static const QList<Subcommand> all {
        {QStringLiteral("start"), runStart},
        {QStringLiteral("resume"), runResume},
        {QStringLiteral("pause"),
            [](const QStringList &a, const QCommandLineParser &, Io &io) {
                return runControl(QStringLiteral("pause"), a, io);
            }},
        {QStringLiteral("stop"),
            [](const QStringList &a, const QCommandLineParser &, Io &io) {
                return runControl(QStringLiteral("stop"), a, io);
            }},
        {QStringLiteral("status"), runStatus},
        {QStringLiteral("list"), runList},
        {QStringLiteral("export"), runExport},
        {QStringLiteral("compare"), runCompare},
        {QStringLiteral("families"),
            [](const QStringList &, const QCommandLineParser &p, Io &io) { return runSearchFamilies(p, io); }},
    };
    return all;
}

int runSearchCommand(const QCommandLineParser &p, Io &io)
{
    const QStringList args = p.positionalArguments();
    QStringList names;
    for (const Subcommand &s : subcommands())
        names << s.name;
    if (args.isEmpty())
        return fail(
            io, UsageError, QStringLiteral("search: give a sub-command (%1)").arg(names.join(QLatin1Char('|'))));
    for (const Subcommand &s : subcommands()) {
        if (s.name == args.first())
            return s.run(args.mid(1), p, io);
    }
    return fail(io, UsageError,
        QStringLiteral("search: unknown sub-command '%1' (%2)").arg(args.first(), names.join(QLatin1Char('|'))));
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
    c.addOptions = addSearchOptions;
    c.run = runSearchCommand;
    return c;
}

} // namespace gpuf::cli
