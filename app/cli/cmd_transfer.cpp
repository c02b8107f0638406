// gpuf import STORE FILE… and gpuf export STORE FILE.
#include "app/cli/command.h"
#include "core/interop/corpus.h"
#include "core/interop/interop.h"
#include "core/store/store.h"

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

} // namespace

Command importCommand()
{
    Command c;
    c.name = QStringLiteral("import");
    c.summary = QStringLiteral("Import gpuf bundles, published rows or search event logs (all or nothing).");
    c.usage = QStringLiteral("STORE FILE…");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("the store (created when missing)"));
        parser.addPositionalArgument(QStringLiteral("FILE"),
            QStringLiteral("JSON Lines files; the format of each is detected"), QStringLiteral("FILE…"));
    };
    c.run = [](const QCommandLineParser &parser, Io &io) {
        const QStringList args = parser.positionalArguments();
        if (args.size() < 2)
            return fail(io, UsageError, QStringLiteral("import: give a STORE and at least one FILE"));
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
    c.summary = QStringLiteral("Write the whole store as a gpuf bundle (JSON Lines).");
    c.usage = QStringLiteral("STORE FILE");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("an existing store"));
        parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("the bundle to write"));
    };
    c.run = [](const QCommandLineParser &parser, Io &io) {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 2)
            return fail(io, UsageError, QStringLiteral("export: give a STORE and one FILE"));
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
