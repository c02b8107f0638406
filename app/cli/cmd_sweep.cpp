// gpuf sweep (measure a kernel family's space on the local GPU, write a sweep plan for the device driver, import a
// recorded sweep) and the `families` verb of gpuf search (the shipped kernel families and their tunables), which
// the search command's sub-command table (cmd_search.cpp) reaches.
#include "app/cli/command.h"
#include "app/cli/option_names.h"
#include "core/interop/corpus.h"
#include "core/measure/cluster_profile.h"
#include "core/measure/measure_engine.h"
#include "core/measure/measure_plan.h"
#include "core/measure/worker_locator.h"
#include "core/mutators/shipped_families.h"
#include "core/mutators/sweep_file.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <unistd.h>

namespace gpuf::cli {
namespace {

const QString kSample = QStringLiteral("sample");
const QString kPlan = QStringLiteral("plan");
const QString kImport = QStringLiteral("import");
const QString kFamiliesDir = QStringLiteral("families-dir");
const QString kCorpusDir = QStringLiteral("corpus-dir");
const QString kCluster = QStringLiteral("cluster");

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

// A bar redrawn in place on a terminal; one line per finished kernel otherwise (logs, pipes, tests).
class Progress
{
public:
    Progress(QTextStream &err, int total)
        : m_err(err)
        , m_total(total)
        , m_terminal(isatty(fileno(stderr)) != 0)
    { }
    void finished(const MeasureItem &item)
    {
        ++m_done;
        m_failed += item.outcome == QLatin1StringView("ok") ? 0 : 1;
        if (!m_terminal) {
            m_err << "[" << m_done << "/" << m_total << "] " << item.kernelLabel << ": "
                  << (item.outcome.isEmpty() ? measureItemStateName(item.state) : item.outcome) << '\n';
            m_err.flush();
            return;
        }
        constexpr int width = 40;
        const int filled = m_total > 0 ? width * m_done / m_total : width;
        m_err << "\r[" << QString(filled, QLatin1Char('#')) << QString(width - filled, QLatin1Char('.')) << "] "
              << m_done << "/" << m_total << ", " << m_failed << " failed";
        if (m_done == m_total)
            m_err << '\n';
        m_err.flush();
    }

private:
    QTextStream &m_err;
    int m_total;
    int m_done = 0;
    int m_failed = 0;
    bool m_terminal;
};

struct Selection
{
    families::KernelFamily family;
    QList<families::Configuration> valid;
    QList<families::Configuration> chosen;
    quint64 seed = 0;
};

Result<Selection> selectConfigurations(const QCommandLineParser &parser)
{
    if (!parser.isSet(kFamily))
        return Error {QStringLiteral("give --family NAME (gpuf search families lists them)")};
    auto family = families::findFamily(parser.value(kFamily), familiesDir(parser), corpusDir(parser));
    if (!family)
        return Error {family.error()};
    int sample = 0;
    if (parser.isSet(kSample)) {
        bool ok = false;
        sample = parser.value(kSample).toInt(&ok);
        if (!ok || sample <= 0)
            return Error {QStringLiteral("--sample takes a positive number of configurations")};
    }
    quint64 seed = 1;
    if (parser.isSet(kSeed)) {
        bool ok = false;
        seed = parser.value(kSeed).toULongLong(&ok);
        if (!ok)
            return Error {QStringLiteral("--seed takes a non-negative integer")};
    }
    auto valid = families::validConfigurations(*family);
    if (!valid)
        return Error {valid.error()};
    Selection s {*family, *valid, families::sampleConfigurations(*valid, sample, seed), seed};
    return s;
}

int writePlan(const QCommandLineParser &parser, Io &io)
{
    auto selection = selectConfigurations(parser);
    if (!selection)
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(selection.error()));
    const QString path = parser.value(kPlan);
    if (Status s = families::writeSweepPlan(path, selection->family, corpusDir(parser), selection->chosen,
            int(selection->valid.size()), selection->seed);
        !s)
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(s.error()));
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io,
            QJsonDocument(QJsonObject {{QStringLiteral("plan"), path}, {kFamily, selection->family.name},
                {QStringLiteral("valid"), selection->valid.size()},
                {QStringLiteral("planned"), selection->chosen.size()}}));
    } else {
        io.out << "plan of " << selection->chosen.size() << " of " << selection->valid.size() << " valid "
               << selection->family.name << " configurations written to " << path << '\n';
    }
    return Success;
}

int importRecorded(const QCommandLineParser &parser, Io &io, const QString &storePath)
{
    auto sweep = families::readSweep(parser.value(kImport));
    if (!sweep)
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(sweep.error()));
    auto family = families::findFamily(sweep->family, familiesDir(parser), corpusDir(parser));
    if (!family)
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(family.error()));
    auto store = Store::open(storePath, Store::Mode::CreateIfMissing);
    if (!store)
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(store.error()));
    auto report = families::importSweep(**store, *sweep, *family, corpusDir(parser));
    if (!report)
        return fail(io, BadInput, QStringLiteral("sweep: %1: %2").arg(parser.value(kImport), report.error()));
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io,
            QJsonDocument(QJsonObject {{kFamily, sweep->family}, {QStringLiteral("hardware"), sweep->hardwareName()},
                {QStringLiteral("kernels"), report->kernels}, {QStringLiteral("measurements"), report->measurements}}));
    } else {
        io.out << report->text() << " (" << sweep->family << " on " << sweep->hardwareName() << ")\n";
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

int measureLocally(const QCommandLineParser &parser, Io &io, const QString &storePath)
{
    auto selection = selectConfigurations(parser);
    if (!selection)
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(selection.error()));
    // The GPU first: without one nothing is stored (not even the kernels). A cluster's GPUs are on its nodes: its
    // profile is checked here, and each node says what it has when it runs.
    const QString cluster = parser.value(kCluster);
    QString worker;
    if (cluster.isEmpty()) {
        auto located = measure::locateMeasureWorker();
        if (!located)
            return fail(io, BadInput, QStringLiteral("sweep: nothing measured: %1").arg(located.error()));
        worker = *located;
    } else if (auto profile = clusterProfile(cluster); !profile) {
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(profile.error()));
    }
    MeasureEngine engine(MeasureEngineConfig {worker, {}, 1, 0, 30000, 50, 3});
    QEventLoop loop;
    const auto waitFor = [&](const std::function<bool(const MeasureSnapshot &)> &done) {
        if (done(engine.snapshot()))
            return;
        QMetaObject::Connection c
            = QObject::connect(&engine, &MeasureEngine::snapshotReady, &loop, [&](const MeasureSnapshot &s) {
                  if (done(s))
                      loop.quit();
              });
        loop.exec();
        QObject::disconnect(c);
    };
    const auto shutdown = [&] {
        QObject::connect(&engine, &MeasureEngine::shutDown, &loop, &QEventLoop::quit, Qt::QueuedConnection);
        engine.shutdown();
        loop.exec();
    };
    DeviceState device;
    if (cluster.isEmpty()) {
        engine.probeDevice();
        waitFor([](const MeasureSnapshot &s) {
            return s.device.availability == DeviceState::Availability::Available
                || s.device.availability == DeviceState::Availability::Unavailable;
        });
        device = engine.snapshot().device;
    } else {
        device.availability = DeviceState::Availability::Available;
        device.devices.append(DeviceDescription {});
        device.devices.first().name = QStringLiteral("cluster %1").arg(cluster);
    }
    if (!device.isAvailable()) {
        shutdown();
        return fail(io, BadInput, QStringLiteral("sweep: nothing measured: no GPU available: %1").arg(device.reason));
    }
    auto store = Store::open(storePath, Store::Mode::CreateIfMissing);
    if (!store) {
        shutdown();
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(store.error()));
    }
    auto ids = storeKernels(**store, *selection, corpusDir(parser));
    store->reset();
    if (!ids) {
        shutdown();
        return fail(io, BadInput, QStringLiteral("sweep: %1").arg(ids.error()));
    }
    QList<MeasureJob> jobs;
    for (RowId id : std::as_const(*ids)) {
        jobs.append(MeasureJob {id, 0, MeasureMode::Local, sweepOptions(), 0});
        if (!cluster.isEmpty()) {
            jobs.last().mode = MeasureMode::Cluster;
            jobs.last().cluster = cluster;
        }
    }
    io.err << "sweep: " << selection->family.name << ": measuring " << jobs.size() << " of " << selection->valid.size()
           << " valid configurations on " << device.devices.value(0).name << '\n';
    io.err.flush();
    Progress progress(io.err, int(jobs.size()));
    QSet<quint64> reported;
    engine.setStorePath(storePath);
    engine.enqueue(jobs);
    waitFor([&](const MeasureSnapshot &s) {
        for (const MeasureItem &item : s.items) {
            if (isFinished(item.state) && !reported.contains(item.id)) {
                reported.insert(item.id);
                progress.finished(item);
            }
        }
        return s.queued == 0 && s.running == 0;
    });
    const MeasureSnapshot done = engine.snapshot();
    shutdown();
    int ok = 0;
    for (const MeasureItem &item : done.items)
        ok += item.outcome == QLatin1StringView("ok") ? 1 : 0;
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io,
            QJsonDocument(QJsonObject {{kFamily, selection->family.name},
                {QStringLiteral("gpu"), device.devices.value(0).name}, {QStringLiteral("measured"), done.items.size()},
                {QStringLiteral("ok"), ok}, {QStringLiteral("failed"), done.items.size() - ok}}));
    } else {
        io.out << selection->family.name << ": " << done.items.size() << " configurations measured on "
               << device.devices.value(0).name << ", " << ok << " ok, " << (done.items.size() - ok) << " failed\n";
    }
    return ok == done.items.size() ? int(Success) : int(BadInput);
}

int runSweep(const QCommandLineParser &parser, Io &io)
{
    const QStringList args = parser.positionalArguments();
    if (parser.isSet(kPlan)) {
        if (!args.isEmpty())
            return fail(io, UsageError, QStringLiteral("sweep: --plan writes a file and takes no STORE"));
        return writePlan(parser, io);
    }
    if (args.size() != 1)
        return fail(io, UsageError, QStringLiteral("sweep: give exactly one STORE"));
    if (parser.isSet(kImport))
        return importRecorded(parser, io, args.first());
    return measureLocally(parser, io, args.first());
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

int runSearchFamilies(const QCommandLineParser &parser, Io &io)
{
    const bool json = parser.optionNames().contains(QStringLiteral("json"));
    auto all = families::loadFamilies(familiesDir(parser), corpusDir(parser));
    if (!all)
        return fail(io, BadInput, QStringLiteral("search families: %1").arg(all.error()));
    QJsonArray list;
    for (const families::KernelFamily &f : std::as_const(*all)) {
        auto valid = families::validConfigurations(f);
        if (!valid)
            return fail(io, BadInput, QStringLiteral("search families: %1").arg(valid.error()));
        if (json) {
            list.append(familyJson(f, valid->size()));
            continue;
        }
        io.out << f.name << " (problem " << f.problem << "): " << valid->size() << " valid of " << f.spaceSize()
               << " configurations\n  " << f.title << '\n';
        for (const families::Tunable &t : f.tunables) {
            QStringList values;
            for (qint64 v : t.values)
                values.append(QString::number(v));
            io.out << "  " << t.name << " ∈ {" << values.join(QStringLiteral(", ")) << "}, default " << t.defaultValue
                   << ": " << t.note << '\n';
        }
    }
    if (json)
        printJson(io, QJsonDocument(QJsonObject {{QStringLiteral("families"), list}}));
    return Success;
}

void addFamilySourceOptions(QCommandLineParser &parser)
{
    parser.addOption({kFamiliesDir, QStringLiteral("read families from this folder instead of the shipped ones"),
        QStringLiteral("DIR")});
    parser.addOption({kCorpusDir, QStringLiteral("the corpus the families' problems come from (default: shipped)"),
        QStringLiteral("DIR")});
}

Command sweepCommand()
{
    Command c;
    c.name = QStringLiteral("sweep");
    c.summary = QStringLiteral("Measure a kernel family's configurations on the local GPU and store them; or write "
                               "a sweep plan (--plan) for gpuf-measure elsewhere; or import a recorded sweep.");
    c.usage = QStringLiteral("STORE");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("the gpuf store (created if missing)"));
        parser.addOption({kFamily, QStringLiteral("the kernel family (gpuf search families)"), QStringLiteral("NAME")});
        parser.addOption({kSample, QStringLiteral("measure N configurations drawn at random (default: all valid)"),
            QStringLiteral("N")});
        parser.addOption({kSeed, QStringLiteral("seed of the sample and its order (default 1)"), QStringLiteral("S")});
        parser.addOption({kPlan,
            QStringLiteral("write the plan (every configuration's kernel spec) to FILE for "
                           "tests/gpu/sweep_families.py; measures nothing"),
            QStringLiteral("FILE")});
        parser.addOption({kCluster,
            QStringLiteral(
                "measure on the GPUs of this Slurm cluster profile (gpuf cluster profiles; docs/cluster.md)"),
            QStringLiteral("PROFILE")});
        parser.addOption({kImport,
            QStringLiteral("import a recorded sweep (gpuf-sweep/1, e.g. resources/sweeps) "
                           "into STORE"),
            QStringLiteral("FILE")});
        addFamilySourceOptions(parser);
    };
    c.run = runSweep;
    return c;
}

} // namespace gpuf::cli
