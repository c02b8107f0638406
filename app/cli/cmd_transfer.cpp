// gpuf import STORE FILE… and gpuf export STORE FILE: gpuf bundles, the paper's rows and search logs, and other
// auto-tuners' results (Kernel Tuner caches, T4) as tuning spaces, which also export back to T4.
#include "app/cli/command.h"
#include "core/interop/corpus.h"
#include "core/interop/interop.h"
#include "core/interop/tuning_import.h"
#include "core/mutators/shipped_families.h"
#include "core/search/space_export.h"
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

int importTuning(const QCommandLineParser &parser, Io &io, const QString &storePath, const QString &file)
{
    auto results = interop::readTuningResults(file);
    if (!results)
        return fail(io, BadInput, results.error() + QStringLiteral(" (nothing was imported)"));
    interop::TuningImportOptions options;
    options.sourceFile = file;
    options.name = parser.value(QStringLiteral("name"));
    options.hardware = parser.value(QStringLiteral("hardware"));
    options.reference = parser.value(QStringLiteral("reference"));
    if (parser.isSet(QStringLiteral("template"))) {
        options.templateFile = parser.value(QStringLiteral("template"));
        QFile f(options.templateFile);
        if (!f.open(QIODevice::ReadOnly))
            return fail(io, BadInput,
                QStringLiteral("import: cannot read the template %1: %2").arg(options.templateFile, f.errorString()));
        options.templateText = QString::fromUtf8(f.readAll());
    }
    auto store = Store::open(storePath, Store::Mode::CreateIfMissing);
    if (!store)
        return fail(io, BadInput, store.error());
    auto report = interop::importTuningResults(**store, *results, options);
    if (!report)
        return fail(io, BadInput, report.error() + QStringLiteral(" (nothing was imported)"));
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io,
            QJsonDocument(QJsonObject {{QStringLiteral("file"), file}, {QStringLiteral("space"), report->space},
                {QStringLiteral("hardware"), report->hardware},
                {QStringLiteral("configurations"), report->configurations},
                {QStringLiteral("failed"), report->failures}, {QStringLiteral("kernels_added"), report->kernelsAdded},
                {QStringLiteral("measurements_added"), report->measurementsAdded},
                {QStringLiteral("reference"), report->reference}, {QStringLiteral("template"), report->withTemplate}}));
    } else {
        io.out << report->text() << '\n';
    }
    return int(Success);
}

int exportT4(const QCommandLineParser &parser, Io &io, const QString &storePath, const QString &file)
{
    const QString space = parser.value(QStringLiteral("family"));
    if (space.isEmpty())
        return fail(io, UsageError, QStringLiteral("export --t4: name the space with --family NAME"));
    auto store = Store::open(storePath, Store::Mode::ReadOnly);
    if (!store)
        return fail(io, BadInput, store.error());
    // A family's problem is the corpus problem it optimises; an imported space is its own problem.
    QString problem = parser.value(QStringLiteral("problem"));
    if (problem.isEmpty()) {
        auto family = families::findFamily(space);
        problem = family ? family->problem : space;
    }
    auto results = search::recordedTuningResults(**store, problem, space, parser.value(QStringLiteral("hardware")));
    if (!results)
        return fail(io, BadInput, QStringLiteral("export --t4: ") + results.error());
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly)
        || out.write(interop::writeT4(*results,
               {{QStringLiteral("device"), results->hardware}, {QStringLiteral("compute_api"), QStringLiteral("CUDA")},
                   {QStringLiteral("autotuner"), QStringLiteral("gpuf")},
                   {QStringLiteral("autotuner_version"), QStringLiteral(GPUF_VERSION_STRING)},
                   {QStringLiteral("space"), space}}))
            < 0
        || !out.commit())
        return fail(io, BadInput, QStringLiteral("export --t4: cannot write %1: %2").arg(file, out.errorString()));
    io.out << QStringLiteral("exported %1 configurations of '%2' on %3 to %4 (T4)\n")
                  .arg(results->entries.size())
                  .arg(space, results->hardware, file);
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
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("the store (created when missing)"));
        parser.addPositionalArgument(QStringLiteral("FILE"),
            QStringLiteral("JSON Lines files, or one tuning result; the format of each is detected"),
            QStringLiteral("FILE…"));
        parser.addOption({QStringLiteral("hardware"),
            QStringLiteral("Tuning result: the GPU it was measured on (T4 files name none)."), QStringLiteral("NAME")});
        parser.addOption({QStringLiteral("name"),
            QStringLiteral("Tuning result: the space's name (default: the file's kernel name or base name)."),
            QStringLiteral("N")});
        parser.addOption({QStringLiteral("template"),
            QStringLiteral("Tuning result: the kernel source with the tunables as #defines put above it, as Kernel "
                           "Tuner builds it, so code-reading forecasters see each configuration's code."),
            QStringLiteral("FILE")});
        parser.addOption({QStringLiteral("reference"),
            QStringLiteral("Tuning result: the configuration speedups are measured against, e.g. \"block_size_x=16 "
                           "tile_size_x=2 …\" (default: the one of median time)."),
            QStringLiteral("CONFIG")});
    };
    c.run = [](const QCommandLineParser &parser, Io &io) {
        const QStringList args = parser.positionalArguments();
        if (args.size() < 2)
            return fail(io, UsageError, QStringLiteral("import: give a STORE and at least one FILE"));
        if (args.size() == 2 && interop::looksLikeTuningResults(args.at(1)))
            return importTuning(parser, io, args.first(), args.at(1));
        for (const char *option : {"hardware", "name", "template", "reference"}) {
            if (parser.isSet(QLatin1StringView(option)))
                return fail(io, UsageError,
                    QStringLiteral("import: --%1 is for one tuning result (a Kernel Tuner cache or T4 file)")
                        .arg(QLatin1StringView(option)));
        }
        auto store = Store::open(args.first(), Store::Mode::CreateIfMissing);
        if (!store)
            return fail(io, BadInput, store.error());
        auto report = interop::importFiles(**store, args.mid(1));
        if (!report)
            return fail(io, BadInput, report.error() + QStringLiteral(" (nothing was imported)"));
        if (parser.isSet(QStringLiteral("json")))
            printJson(io, QJsonDocument(reportJson(*report)));
        else
            io.out << report->text() << (report->text().endsWith(QLatin1Char('\n')) ? "" : "\n");
        return int(Success);
    };
    return c;
}

Command exportCommand()
{
    Command c;
    c.name = QStringLiteral("export");
    c.summary = QStringLiteral("Write the whole store as a gpuf bundle (JSON Lines), or one recorded tuning space as "
                               "T4 results (--t4).");
    c.usage = QStringLiteral("STORE FILE | STORE FILE --t4 --family F [--problem P] [--hardware NAME]");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("an existing store"));
        parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("the bundle (or T4 file) to write"));
        parser.addOption({QStringLiteral("t4"),
            QStringLiteral(
                "Write the recorded space of --family as T4 results (the Auto-Tuning Association's format).")});
        parser.addOption({QStringLiteral("family"), QStringLiteral("--t4: the kernel family or imported space."),
            QStringLiteral("F")});
        parser.addOption({QStringLiteral("problem"),
            QStringLiteral("--t4: the space's problem (default: a shipped family's problem, else the space's name)."),
            QStringLiteral("P")});
        parser.addOption({QStringLiteral("hardware"),
            QStringLiteral("--t4: whose recorded runtimes (default: the GPU with most of them)."),
            QStringLiteral("NAME")});
    };
    c.run = [](const QCommandLineParser &parser, Io &io) {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 2)
            return fail(io, UsageError, QStringLiteral("export: give a STORE and one FILE"));
        if (parser.isSet(QStringLiteral("t4")))
            return exportT4(parser, io, args.first(), args.at(1));
        auto store = Store::open(args.first(), Store::Mode::ReadOnly);
        if (!store)
            return fail(io, BadInput, store.error());
        if (Status s = interop::exportBundle(**store, args.at(1)); !s)
            return fail(io, BadInput, s.error());
        auto counts = (*store)->counts();
        if (parser.isSet(QStringLiteral("json"))) {
            printJson(io,
                QJsonDocument(QJsonObject {
                    {QStringLiteral("file"), args.at(1)}, {QStringLiteral("kernels"), counts ? counts->kernels : 0}}));
        } else {
            io.out << "exported " << args.first() << " to " << args.at(1) << '\n';
        }
        return int(Success);
    };
    return c;
}

Command corpusCommand()
{
    Command c;
    c.name = QStringLiteral("corpus");
    c.summary = QStringLiteral("Import a kernel corpus folder and, optionally, its measurement results.");
    c.usage = QStringLiteral("STORE DIR");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("the store (created when missing)"));
        parser.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("a corpus folder (docs/kernel-spec.md)"));
        parser.addOption({QStringLiteral("results"),
            QStringLiteral("measurement results written by tests/gpu/measure_corpus.py"), QStringLiteral("FILE")});
    };
    c.run = [](const QCommandLineParser &parser, Io &io) {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 2)
            return fail(io, UsageError, QStringLiteral("corpus: give a STORE and a corpus DIR"));
        auto store = Store::open(args.first(), Store::Mode::CreateIfMissing);
        if (!store)
            return fail(io, BadInput, store.error());
        auto report = interop::importCorpus(**store, args.at(1), parser.value(QStringLiteral("results")));
        if (!report)
            return fail(io, BadInput, report.error() + QStringLiteral(" (nothing was imported)"));
        if (parser.isSet(QStringLiteral("json"))) {
            printJson(io,
                QJsonDocument(QJsonObject {{QStringLiteral("problems"), report->problems},
                    {QStringLiteral("kernels"), report->kernels},
                    {QStringLiteral("measurements"), report->measurements}}));
        } else {
            io.out << report->text() << '\n';
        }
        return int(Success);
    };
    return c;
}

} // namespace gpuf::cli
