// gpuf sweep (measure a kernel family's space on the local GPU, write a sweep plan for the device driver, import a
// recorded sweep) and the `families` verb of gpuf search (the shipped kernel families and their tunables), which
// the search command's sub-command table (cmd_search.cpp) reaches.
#include "app/cli/cli_engine.h"
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "app/cli/progress.h"
#include "core/interop/corpus.h"
#include "core/measure/cluster_profile.h"
#include "core/measure/measure_engine.h"
#include "core/measure/measure_plan.h"
#include "core/measure/worker_locator.h"
#include "core/mutators/shipped_families.h"
#include "core/mutators/sweep_file.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

namespace gpuf::cli {
namespace {

const QString kSample = QStringLiteral("sample");
const QString kPlan = QStringLiteral("plan");
const QString kImport = QStringLiteral("import");
const QString kFamiliesDir = QStringLiteral("families-dir");
const QString kCorpusDir = QStringLiteral("corpus-dir");

// Measurement options of a sweep: every case checked against the reference, then timed until 1% relative standard
// error (or 50 samples): enough to rank configurations, and a whole family fits in minutes.
QJsonObject sweepOptions()
{
    return QJsonObject {{QStringLiteral("max_samples"), 50}, {QStringLiteral("target_rse"), 0.01},
        {QStringLiteral("time_budget_ms"), 200}};
}

// optionNames() lists only options given, and asking a parser about an option it does not define only warns: so
// `gpuf search families` works whether or not the search command added these options.
QString familiesDir(const QCommandLineParser &parser)
{
    return parser.optionNames().contains(kFamiliesDir) ? parser.value(kFamiliesDir) : families::shippedFamiliesDir();
}

QString corpusDir(const QCommandLineParser &parser)
{
    return parser.optionNames().contains(kCorpusDir) ? parser.value(kCorpusDir) : families::shippedCorpusDir();
}

struct Selection
{
    families::KernelFamily family;
    QList<families::Configuration> valid;
    QList<families::Configuration> chosen;
    quint64 seed = 0;
};

Result<Selection> selectConfigurations(const Invocation &run)
{
    if (!run.isSet(kFamily))
        return Error {QStringLiteral("give --family NAME (gpuf search families lists them)")};
    auto family = families::findFamily(run.value(kFamily), familiesDir(run.parser()), corpusDir(run.parser()));
    if (!family)
        return Error {family.error()};
    auto given = run.checkOptions({kSample, kSeed});
    if (!given)
        return given.failure();
    const quint64 seed = given->uint64(kSeed, 1);
    auto valid = families::validConfigurations(*family);
    if (!valid)
        return Error {valid.error()};
    Selection s {*family, *valid, families::sampleConfigurations(*valid, given->integer(kSample, 0), seed), seed};
    return s;
}

int writePlan(Invocation &run)
{
    auto selection = selectConfigurations(run);
    if (!selection)
        return run.bad(selection.error());
    const QString path = run.value(kPlan);
    if (Status s = families::writeSweepPlan(path, selection->family, corpusDir(run.parser()), selection->chosen,
            int(selection->valid.size()), selection->seed);
        !s)
        return run.bad(s.error());
    if (run.json()) {
        run.printJson(QJsonObject {{QStringLiteral("plan"), path}, {kFamily, selection->family.name},
            {QStringLiteral("valid"), selection->valid.size()}, {QStringLiteral("planned"), selection->chosen.size()}});
    } else {
        run.out() << "plan of " << selection->chosen.size() << " of " << selection->valid.size() << " valid "
                  << selection->family.name << " configurations written to " << path << '\n';
    }
    return Success;
}

int importRecorded(Invocation &run, const QString &storePath)
{
    auto sweep = families::readSweep(run.value(kImport));
    if (!sweep)
        return run.bad(sweep.error());
    auto family = families::findFamily(sweep->family, familiesDir(run.parser()), corpusDir(run.parser()));
    if (!family)
        return run.bad(family.error());
    auto store = run.createStore(storePath);
    if (!store)
        return run.bad(store.error());
    auto report = families::importSweep(**store, *sweep, *family, corpusDir(run.parser()));
    if (!report)
        return run.bad(QStringLiteral("%1: %2").arg(run.value(kImport), report.error()));
    if (run.json()) {
        run.printJson(QJsonObject {{kFamily, sweep->family}, {QStringLiteral("hardware"), sweep->hardwareName()},
            {QStringLiteral("kernels"), report->kernels}, {QStringLiteral("measurements"), report->measurements}});
    } else {
        run.out() << report->text() << " (" << sweep->family << " on " << sweep->hardwareName() << ")\n";
    }
    return Success;
}

// Stores every chosen configuration as a kernel of the family's problem (importing the problem first when the store
// lacks it), in one transaction; the ids in the order of the configurations.
Result<QList<RowId>> storeKernels(Store &store, const Selection &selection, const QString &corpus)
{
    const families::KernelFamily &family = selection.family;
    ProblemRepo problems(store);
    auto problem = problems.findByName(family.problem);
    if (!problem)
        return Error {problem.error()};
    if (!problem->has_value() || (*problem)->referenceKernelId == 0) {
        if (auto imported = interop::importCorpus(store, corpus); !imported)
            return Error {imported.error()};
        problem = problems.findByName(family.problem);
        if (!problem || !problem->has_value())
            return Error {QStringLiteral("problem '%1' is not in %2").arg(family.problem, corpus)};
    }
    // The problem came in its own transaction (the corpus import's); the kernels come in one more.
    Transaction tx(store);
    if (Status s = tx.begin(); !s)
        return Error {s.error()};
    KernelRepo kernels(store);
    QList<RowId> ids;
    for (const families::Configuration &c : selection.chosen) {
        auto e = families::expand(family, c);
        if (!e)
            return Error {e.error()};
        Kernel k;
        k.problemId = (*problem)->id;
        k.name = e->name;
        k.language = QStringLiteral("cuda");
        k.source = e->source;
        k.origin = QStringLiteral("param");
        k.parameters = e->parameters;
        k.notes = e->notes;
        auto id = kernels.insertOrGet(k);
        if (!id)
            return Error {id.error()};
        ids.append(*id);
    }
    if (Status s = tx.commit(); !s)
        return Error {s.error()};
    return ids;
}

// The GPU the sweep measures on: the local one (through `worker`), or a cluster's (whose nodes say what they have
// when they run).
DeviceState sweepDevice(CliEngine &engine, const QString &cluster)
{
    if (cluster.isEmpty())
        return engine.probeDevice();
    DeviceState device;
    device.availability = DeviceState::Availability::Available;
    device.devices.append(DeviceDescription {});
    device.devices.first().name = QStringLiteral("cluster %1").arg(cluster);
    return device;
}

QList<MeasureJob> sweepJobs(const QList<RowId> &kernels, const QString &cluster)
{
    QList<MeasureJob> jobs;
    for (RowId id : kernels) {
        jobs.append(MeasureJob {id, 0, MeasureMode::Local, sweepOptions(), 0});
        if (!cluster.isEmpty()) {
            jobs.last().mode = MeasureMode::Cluster;
            jobs.last().cluster = cluster;
        }
    }
    return jobs;
}

// Measures the jobs, a progress line (or the bar) per finished kernel; the final snapshot.
MeasureSnapshot measureJobs(Invocation &run, CliEngine &engine, const QList<MeasureJob> &jobs)
{
    Progress progress(run.err());
    progress.start(int(jobs.size()));
    QSet<quint64> reported;
    engine->setStorePath(run.args().first());
    engine->enqueue(jobs);
    return engine.runUntil([&](const MeasureSnapshot &s) {
        for (const MeasureItem &item : s.items) {
            if (isFinished(item.state) && !reported.contains(item.id)) {
                reported.insert(item.id);
                progress.item(item.kernelLabel + QStringLiteral(": ")
                        + (item.outcome.isEmpty() ? measureItemStateName(item.state) : item.outcome),
                    item.outcome != QLatin1StringView("ok"));
            }
        }
        return CliEngine::isIdle(s);
    });
}

void printSwept(Invocation &run, const Selection &selection, const DeviceState &device, const MeasureSnapshot &done)
{
    qsizetype ok = 0;
    for (const MeasureItem &item : done.items)
        ok += item.outcome == QLatin1StringView("ok") ? 1 : 0;
    const QString gpu = device.devices.value(0).name;
    if (run.json()) {
        run.printJson(QJsonObject {{kFamily, selection.family.name}, {QStringLiteral("gpu"), gpu},
            {QStringLiteral("measured"), done.items.size()}, {QStringLiteral("ok"), ok},
            {QStringLiteral("failed"), done.items.size() - ok}});
    } else {
        run.out() << selection.family.name << ": " << done.items.size() << " configurations measured on " << gpu << ", "
                  << ok << " ok, " << (done.items.size() - ok) << " failed\n";
    }
}

int runMeasuredSweep(Invocation &run)
{
    auto selection = selectConfigurations(run);
    if (!selection)
        return run.bad(selection.error());
    // The GPU first: without one nothing is stored (not even the kernels). A cluster's GPUs are on its nodes: its
    // profile is checked here, and each node says what it has when it runs.
    const QString cluster = run.value(kCluster);
    QString worker;
    if (cluster.isEmpty()) {
        auto located = measure::locateMeasureWorker();
        if (!located)
            return run.bad(QStringLiteral("nothing measured: %1").arg(located.error()));
        worker = *located;
    } else if (run.isSet(kUnsandboxed)) {
        return run.bad(CliEngine::unsandboxedOnCluster(cluster));
    } else if (auto profile = usableClusterProfile(cluster); !profile) {
        return run.bad(profile.error());
    }
    CliEngine engine(worker, CliEngine::workerArguments(run.isSet(kUnsandboxed)));
    engine.sayNoticesOn(run.err(), QStringLiteral("sweep"));
    const DeviceState device = sweepDevice(engine, cluster);
    if (!device.isAvailable())
        return run.bad(QStringLiteral("nothing measured: no GPU available: %1").arg(device.reason));
    auto store = run.createStore(run.args().first());
    if (!store)
        return run.bad(store.error());
    auto ids = storeKernels(**store, *selection, corpusDir(run.parser()));
    store->reset();
    if (!ids)
        return run.bad(ids.error());
    const QList<MeasureJob> jobs = sweepJobs(*ids, cluster);
    run.err() << "sweep: " << selection->family.name << ": measuring " << jobs.size() << " of "
              << selection->valid.size() << " valid configurations on " << device.devices.value(0).name << '\n';
    run.err().flush();
    const MeasureSnapshot done = measureJobs(run, engine, jobs);
    engine.shutdown();
    printSwept(run, *selection, device, done);
    const bool allOk = std::all_of(done.items.cbegin(), done.items.cend(),
        [](const MeasureItem &item) { return item.outcome == QLatin1StringView("ok"); });
    return allOk ? int(Success) : int(BadInput);
}

int runSweep(Invocation &run)
{
    if (run.isSet(kPlan)) {
        if (!run.args().isEmpty())
            return run.usage(QStringLiteral("--plan writes a file and takes no STORE"));
        return writePlan(run);
    }
    if (run.args().size() != 1)
        return run.usage(QStringLiteral("give exactly one STORE"));
    if (run.isSet(kImport))
        return importRecorded(run, run.args().first());
    return runMeasuredSweep(run);
}

QJsonObject familyJson(const families::KernelFamily &f, qsizetype valid)
{
    QJsonArray tunables;
    for (const families::Tunable &t : f.tunables) {
        QJsonArray values;
        for (qint64 v : t.values)
            values.append(v);
        tunables.append(QJsonObject {{QStringLiteral("name"), t.name}, {QStringLiteral("values"), values},
            {QStringLiteral("default"), t.defaultValue}, {QStringLiteral("note"), t.note}});
    }
    QJsonArray constraints;
    for (const families::Constraint &c : f.constraints)
        constraints.append(QJsonObject {{QStringLiteral("expr"), c.expression}, {QStringLiteral("why"), c.why}});
    return QJsonObject {{QStringLiteral("name"), f.name}, {QStringLiteral("title"), f.title},
        {QStringLiteral("problem"), f.problem}, {QStringLiteral("reference"), f.referenceVariant},
        {QStringLiteral("description"), f.description}, {QStringLiteral("tunables"), tunables},
        {QStringLiteral("constraints"), constraints}, {QStringLiteral("combinations"), f.spaceSize()},
        {QStringLiteral("valid"), valid},
        {QStringLiteral("default"), families::configurationJson(f, families::defaultConfiguration(f))},
        {QStringLiteral("hash"), f.contentHash}};
}

} // namespace

int runSearchFamilies(Invocation &run)
{
    auto all = families::loadFamilies(familiesDir(run.parser()), corpusDir(run.parser()));
    if (!all)
        return run.bad(all.error());
    QJsonArray list;
    for (const families::KernelFamily &f : std::as_const(*all)) {
        auto valid = families::validConfigurations(f);
        if (!valid)
            return run.bad(valid.error());
        if (run.json()) {
            list.append(familyJson(f, valid->size()));
            continue;
        }
        run.out() << f.name << " (problem " << f.problem << "): " << valid->size() << " valid of " << f.spaceSize()
                  << " configurations\n  " << f.title << '\n';
        for (const families::Tunable &t : f.tunables) {
            QStringList values;
            for (qint64 v : t.values)
                values.append(QString::number(v));
            run.out() << "  " << t.name << " ∈ {" << values.join(QStringLiteral(", ")) << "}, default "
                      << t.defaultValue << ": " << t.note << '\n';
        }
    }
    if (run.json())
        run.printJson(QJsonObject {{QStringLiteral("families"), list}});
    return Success;
}

QList<Option> familySourceOptions()
{
    return {
        Option::text(kFamiliesDir, QStringLiteral("DIR"),
            QStringLiteral("read families from this folder instead of the shipped ones")),
        Option::text(kCorpusDir, QStringLiteral("DIR"),
            QStringLiteral("the corpus the families' problems come from (default: shipped)")),
    };
}

Command sweepCommand()
{
    Command c;
    c.name = QStringLiteral("sweep");
    c.summary = QStringLiteral("Measure a kernel family's configurations on the local GPU and store them; or write "
                               "a sweep plan (--plan) for gpuf-measure elsewhere; or import a recorded sweep.");
    c.usage = QStringLiteral("STORE");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("the gpuf store (created if missing)")}};
    c.options = {
        Option::text(kFamily, QStringLiteral("NAME"), QStringLiteral("the kernel family (gpuf search families)")),
        Option::integer(kSample, QStringLiteral("N"),
            QStringLiteral("measure N configurations drawn at random (default: all valid)"))
            .atLeast(1)
            .refusedAs(QStringLiteral("takes a positive number of configurations")),
        Option::uint64(kSeed, QStringLiteral("S"), QStringLiteral("seed of the sample and its order (default 1)")),
        Option::text(kPlan, QStringLiteral("FILE"),
            QStringLiteral("write the plan (every configuration's kernel spec) to FILE for "
                           "tests/gpu/sweep_families.py; measures nothing")),
        Option::text(kCluster, QStringLiteral("PROFILE"),
            QStringLiteral(
                "measure on the GPUs of this Slurm cluster profile (gpuf cluster profiles; docs/cluster.md)")),
        Option::text(kImport, QStringLiteral("FILE"),
            QStringLiteral("import a recorded sweep (gpuf-sweep/1, e.g. resources/sweeps) into STORE")),
        Option::flag(kUnsandboxed,
            QStringLiteral("run Python candidates even where their sandbox (bubblewrap) cannot be made; only for "
                           "candidates you trust (docs/python-problems.md)")),
    };
    c.options += familySourceOptions();
    c.invoke = runSweep;
    return c;
}

} // namespace gpuf::cli
