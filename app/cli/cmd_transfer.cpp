// gpuf import STORE FILE… and gpuf export STORE FILE: gpuf bundles, the paper's rows and search logs, and other
// auto-tuners' results (Kernel Tuner caches, T4) as tuning spaces, which also export back to T4.
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "core/interop/corpus.h"
#include "core/interop/interop.h"
#include "core/interop/tuning_import.h"
#include "core/measure/measure_plan.h"
#include "core/mutators/shipped_families.h"
#include "core/search/space_export.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/store.h"

#include "gpuf_config.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <QJsonArray>
#include <QJsonObject>

namespace gpuf::cli {
namespace {

QJsonObject reportJson(const interop::ImportReport &report)
{
    QJsonArray files;
    for (const interop::FileReport &f : report.files) {
        QJsonObject counts;
        for (auto it = f.counts.begin(); it != f.counts.end(); ++it) {
            counts.insert(it.key(),
                QJsonObject {{QStringLiteral("added"), it->added}, {QStringLiteral("deduplicated"), it->deduplicated}});
        }
        files.append(QJsonObject {{QStringLiteral("file"), f.file},
            {QStringLiteral("format"), interop::formatName(f.format)}, {QStringLiteral("records"), f.lines},
            {QStringLiteral("counts"), counts}, {QStringLiteral("warnings"), QJsonArray::fromStringList(f.warnings)}});
    }
    return QJsonObject {{QStringLiteral("files"), files}};
}

const QString kSpaceName = QStringLiteral("name");
const QString kTemplate = QStringLiteral("template");
const QString kReference = QStringLiteral("reference");
const QString kT4 = QStringLiteral("t4");
const QString kCase = QStringLiteral("case");
const QString kResults = QStringLiteral("results");

// A store's errors and an import's name their file: those sentences stand without the command's name.
int importTuning(Invocation &run, const QString &storePath, const QString &file)
{
    auto results = interop::readTuningResults(file);
    if (!results)
        return run.report(BadInput, results.error() + QStringLiteral(" (nothing was imported)"));
    interop::TuningImportOptions options;
    options.sourceFile = file;
    options.name = run.value(kSpaceName);
    options.hardware = run.value(kHardware);
    options.reference = run.value(kReference);
    if (run.isSet(kTemplate)) {
        options.templateFile = run.value(kTemplate);
        QFile f(options.templateFile);
        if (!f.open(QIODevice::ReadOnly))
            return run.bad(
                QStringLiteral("cannot read the template %1: %2").arg(options.templateFile, f.errorString()));
        options.templateText = QString::fromUtf8(f.readAll());
    }
    auto store = run.createStore(storePath);
    if (!store)
        return run.report(BadInput, store.error());
    auto report = interop::importTuningResults(**store, *results, options);
    if (!report)
        return run.report(BadInput, report.error() + QStringLiteral(" (nothing was imported)"));
    if (run.json()) {
        run.printJson(QJsonObject {{QStringLiteral("file"), file}, {QStringLiteral("space"), report->space},
            {QStringLiteral("hardware"), report->hardware}, {QStringLiteral("configurations"), report->configurations},
            {QStringLiteral("failed"), report->failures}, {QStringLiteral("kernels_added"), report->kernelsAdded},
            {QStringLiteral("measurements_added"), report->measurementsAdded},
            {QStringLiteral("reference"), report->reference}, {QStringLiteral("template"), report->withTemplate}});
    } else {
        run.out() << report->text() << '\n';
    }
    return int(Success);
}

int runImport(Invocation &run)
{
    const QStringList &args = run.args();
    if (args.size() < 2)
        return run.usage(QStringLiteral("give a STORE and at least one FILE"));
    if (args.size() == 2 && interop::looksLikeTuningResults(args.at(1)))
        return importTuning(run, args.first(), args.at(1));
    for (const QString &option : {kHardware, kSpaceName, kTemplate, kReference}) {
        if (run.isSet(option))
            return run.usage(
                QStringLiteral("--%1 is for one tuning result (a Kernel Tuner cache or T4 file)").arg(option));
    }
    auto store = run.createStore(args.first());
    if (!store)
        return run.report(BadInput, store.error());
    auto report = interop::importFiles(**store, args.mid(1));
    if (!report)
        return run.report(BadInput, report.error() + QStringLiteral(" (nothing was imported)"));
    if (run.json())
        run.printJson(reportJson(*report));
    else
        run.out() << report->text() << (report->text().endsWith(QLatin1Char('\n')) ? "" : "\n");
    return int(Success);
}

Status writeT4(const QString &file, const interop::TuningResults &results, const QString &space)
{
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly)
        || out.write(interop::writeT4(results,
               {{QStringLiteral("device"), results.hardware}, {QStringLiteral("compute_api"), QStringLiteral("CUDA")},
                   {QStringLiteral("autotuner"), QStringLiteral("gpuf")},
                   {QStringLiteral("autotuner_version"), QStringLiteral(GPUF_VERSION_STRING)},
                   {QStringLiteral("space"), space}}))
            < 0
        || !out.commit())
        return Error {QStringLiteral("cannot write %1: %2").arg(file, out.errorString())};
    return {};
}

int exportT4(Invocation &run, const QString &storePath, const QString &file)
{
    run.setPrefix(QStringLiteral("export --t4"));
    const QString space = run.value(kFamily);
    if (space.isEmpty())
        return run.usage(QStringLiteral("name the space with --family NAME"));
    auto store = run.readStore(storePath);
    if (!store)
        return run.report(BadInput, store.error());
    // A family's problem is the corpus problem it optimises; an imported space is its own problem.
    QString problem = run.value(kProblem);
    if (problem.isEmpty()) {
        auto family = families::findFamily(space);
        problem = family ? family->problem : space;
    }
    auto results = search::recordedTuningResults(**store, problem, space, run.value(kHardware));
    if (!results)
        return run.bad(results.error());
    if (Status s = writeT4(file, *results, space); !s)
        return run.bad(s.error());
    run.out() << QStringLiteral("exported %1 configurations of '%2' on %3 to %4 (T4)\n")
                     .arg(results->entries.size())
                     .arg(space, results->hardware, file);
    return int(Success);
}

// Why `name`, given with --`option` for a case's view, names no row of `repo` ("" when it is empty or names one).
template<typename Repo>
QString caseViewNameError(Repo repo, const QString &option, const QString &name, const char *what)
{
    if (name.isEmpty())
        return {};
    auto row = repo.findByName(name);
    if (!row)
        return row.error();
    if (!row->has_value())
        return QStringLiteral("--%1 %2: the store has no such %3").arg(option, name, QLatin1StringView(what));
    return {};
}

// gpuf export STORE FILE --case KERNEL: one pair (the kernel and its problem's reference) as a case file.
int exportCaseFile(Invocation &run, Store &store, const QString &file)
{
    auto candidate = measure::resolveKernelRef(store, run.value(kCase));
    if (!candidate)
        return run.report(BadInput, QStringLiteral("--case %1: %2").arg(run.value(kCase), candidate.error()));
    // The view the explorer shows the case in: the forecaster and GPU named here (each must be in the store).
    interop::CaseViewChoice view;
    view.forecaster = run.value(kForecaster);
    view.hardware = run.value(kHardware);
    if (const QString error = caseViewNameError(ForecasterRepo(store), kForecaster, view.forecaster, "forecaster");
        !error.isEmpty())
        return run.report(BadInput, error);
    if (const QString error = caseViewNameError(HardwareRepo(store), kHardware, view.hardware, "GPU"); !error.isEmpty())
        return run.report(BadInput, error);
    if (Status s = interop::exportCase(store, file, *candidate, view); !s)
        return run.report(BadInput, s.error());
    if (run.json())
        run.printJson(QJsonObject {{QStringLiteral("file"), file}, {QStringLiteral("candidate"), *candidate}});
    else
        run.out() << "exported the case of kernel " << *candidate << " to " << file << '\n';
    return int(Success);
}

int runExportCommand(Invocation &run)
{
    const QStringList &args = run.args();
    if (args.size() != 2)
        return run.usage(QStringLiteral("give a STORE and one FILE"));
    if (run.isSet(kT4))
        return exportT4(run, args.first(), args.at(1));
    auto store = run.readStore(args.first());
    if (!store)
        return run.report(BadInput, store.error());
    if (run.isSet(kCase))
        return exportCaseFile(run, **store, args.at(1));
    if (Status s = interop::exportBundle(**store, args.at(1)); !s)
        return run.report(BadInput, s.error());
    auto counts = (*store)->counts();
    if (run.json())
        run.printJson(QJsonObject {
            {QStringLiteral("file"), args.at(1)}, {QStringLiteral("kernels"), counts ? counts->kernels : 0}});
    else
        run.out() << "exported " << args.first() << " to " << args.at(1) << '\n';
    return int(Success);
}

int runCorpus(Invocation &run)
{
    const QStringList &args = run.args();
    if (args.size() != 2)
        return run.usage(QStringLiteral("give a STORE and a corpus DIR"));
    auto store = run.createStore(args.first());
    if (!store)
        return run.report(BadInput, store.error());
    auto report = interop::importCorpus(**store, args.at(1), run.value(kResults));
    if (!report)
        return run.report(BadInput, report.error() + QStringLiteral(" (nothing was imported)"));
    if (run.json())
        run.printJson(QJsonObject {{QStringLiteral("problems"), report->problems},
            {QStringLiteral("kernels"), report->kernels}, {QStringLiteral("measurements"), report->measurements}});
    else
        run.out() << report->text() << '\n';
    return int(Success);
}

} // namespace

Command importCommand()
{
    Command c;
    c.name = QStringLiteral("import");
    c.summary = QStringLiteral("Import gpuf bundles, published rows or search event logs (all or nothing), or another "
                               "auto-tuner's results (a Kernel Tuner cache or T4 file, .gz too) as a tuning space.");
    c.usage = QStringLiteral("STORE FILE… | STORE TUNING-FILE [--hardware NAME] [--name N] [--template FILE] "
                             "[--reference CONFIG]");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("the store (created when missing)")},
        {QStringLiteral("FILE"),
            QStringLiteral("JSON Lines files, or one tuning result; the format of each is detected"),
            QStringLiteral("FILE…")}};
    c.options = {
        Option::text(kHardware, QStringLiteral("NAME"),
            QStringLiteral("Tuning result: the GPU it was measured on (T4 files name none).")),
        Option::text(kSpaceName, QStringLiteral("N"),
            QStringLiteral("Tuning result: the space's name (default: the file's kernel name or base name).")),
        Option::text(kTemplate, QStringLiteral("FILE"),
            QStringLiteral("Tuning result: the kernel source with the tunables as #defines put above it, as Kernel "
                           "Tuner builds it, so code-reading forecasters see each configuration's code.")),
        Option::text(kReference, QStringLiteral("CONFIG"),
            QStringLiteral("Tuning result: the configuration speedups are measured against, e.g. \"block_size_x=16 "
                           "tile_size_x=2 …\" (default: the one of median time).")),
    };
    c.invoke = runImport;
    return c;
}

Command exportCommand()
{
    Command c;
    c.name = QStringLiteral("export");
    c.summary = QStringLiteral("Write the whole store as a gpuf bundle (JSON Lines), one pair as a case file (--case), "
                               "or one recorded tuning space as T4 results (--t4).");
    c.usage = QStringLiteral(
        "STORE FILE | STORE FILE --case KERNEL [--forecaster NAME] [--hardware NAME] | STORE FILE --t4 --family F "
        "[--problem P] [--hardware NAME]");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("an existing store")},
        {QStringLiteral("FILE"), QStringLiteral("the bundle (or T4 file) to write")}};
    c.options = {
        Option::text(kCase, QStringLiteral("KERNEL"),
            QStringLiteral("Write only this kernel (an id or a hash prefix) and its problem's reference: both "
                           "kernels, their measurements and verdicts, the pair's forecasts with reasoning and labels "
                           "(a case file; gpuf import adds what a store lacks, gpuf-explorer FILE opens it).")),
        Option::text(kForecaster, QStringLiteral("NAME"),
            QStringLiteral("--case: the forecaster the explorer shows the case with (default: the window's).")),
        Option::flag(kT4,
            QStringLiteral(
                "Write the recorded space of --family as T4 results (the Auto-Tuning Association's format).")),
        Option::text(kFamily, QStringLiteral("F"), QStringLiteral("--t4: the kernel family or imported space.")),
        Option::text(kProblem, QStringLiteral("P"),
            QStringLiteral("--t4: the space's problem (default: a shipped family's problem, else the space's name).")),
        Option::text(kHardware, QStringLiteral("NAME"),
            QStringLiteral("--t4: whose recorded runtimes (default: the GPU with most of them); --case: the GPU the "
                           "explorer shows the case with.")),
    };
    c.invoke = runExportCommand;
    return c;
}

Command corpusCommand()
{
    Command c;
    c.name = QStringLiteral("corpus");
    c.summary = QStringLiteral("Import a kernel corpus folder and, optionally, its measurement results.");
    c.usage = QStringLiteral("STORE DIR");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("the store (created when missing)")},
        {QStringLiteral("DIR"), QStringLiteral("a corpus folder (docs/kernel-spec.md)")}};
    c.options = {Option::text(kResults, QStringLiteral("FILE"),
        QStringLiteral("measurement results written by tests/gpu/measure_corpus.py"))};
    c.invoke = runCorpus;
    return c;
}

} // namespace gpuf::cli
