// gpuf init STORE and gpuf stats STORE.
#include "app/cli/command.h"
#include "core/store/statistics.h"
#include "core/store/store.h"

#include <QJsonArray>
#include <QJsonObject>

namespace gpuf::cli {
namespace {

QJsonArray countsJson(const QList<NamedCounts> &rows, const QStringList &fields)
{
    QJsonArray out;
    for (const NamedCounts &c : rows) {
        QJsonObject o {{QStringLiteral("name"), c.name}};
        if (fields.contains(QLatin1StringView("kernels")))
            o.insert(QStringLiteral("kernels"), c.kernels);
        if (fields.contains(QLatin1StringView("measurements"))) {
            o.insert(QStringLiteral("measurements"), c.measurements);
            o.insert(QStringLiteral("replayed_measurements"), c.replayedMeasurements);
        }
        if (fields.contains(QLatin1StringView("forecasts")))
            o.insert(QStringLiteral("forecasts"), c.forecasts);
        if (fields.contains(QLatin1StringView("pair_labels")))
            o.insert(QStringLiteral("pair_labels"), c.pairLabels);
        out.append(o);
    }
    return out;
}

void printTable(QTextStream &out, const QString &title, const QList<NamedCounts> &rows, const QStringList &fields)
{
    out << '\n' << title << '\n';
    if (rows.isEmpty()) {
        out << "  (none)\n";
        return;
    }
    for (const NamedCounts &c : rows) {
        out << "  " << c.name.leftJustified(32);
        if (fields.contains(QLatin1StringView("kernels")))
            out << QStringLiteral(" kernels %1").arg(c.kernels, 7);
        if (fields.contains(QLatin1StringView("measurements"))) {
            out << QStringLiteral(" measurements %1").arg(c.measurements, 7);
            // Replays of stored runtimes are counted apart: they were not run here.
            if (c.replayedMeasurements > 0)
                out << QStringLiteral(" (%1 replayed ↺)").arg(c.replayedMeasurements);
        }
        if (fields.contains(QLatin1StringView("forecasts")))
            out << QStringLiteral(" forecasts %1").arg(c.forecasts, 7);
        if (fields.contains(QLatin1StringView("pair_labels")))
            out << QStringLiteral(" labels %1").arg(c.pairLabels, 7);
        out << '\n';
    }
}

} // namespace

Command initCommand()
{
    Command c;
    c.name = QStringLiteral("init");
    c.summary = QStringLiteral("Create an empty store (or check that STORE already is one).");
    c.usage = QStringLiteral("STORE");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("the store file to create"));
    };
    c.run = [](const QCommandLineParser &parser, Io &io) {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 1)
            return fail(io, UsageError, QStringLiteral("init: give exactly one STORE"));
        auto store = Store::open(args.first(), Store::Mode::CreateIfMissing);
        if (!store)
            return fail(io, BadInput, store.error());
        if (parser.isSet(QStringLiteral("json"))) {
            printJson(io,
                QJsonDocument(QJsonObject {{QStringLiteral("store"), args.first()},
                    {QStringLiteral("schema_version"), (*store)->schemaVersion()}}));
        } else {
            io.out << "store ready: " << args.first() << " (schema " << (*store)->schemaVersion() << ")\n";
        }
        return int(Success);
    };
    return c;
}

Command statsCommand()
{
    Command c;
    c.name = QStringLiteral("stats");
    c.summary = QStringLiteral("Count what a store holds, per problem, forecaster and hardware.");
    c.usage = QStringLiteral("STORE");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("an existing store"));
    };
    c.run = [](const QCommandLineParser &parser, Io &io) {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 1)
            return fail(io, UsageError, QStringLiteral("stats: give exactly one STORE"));
        auto store = Store::open(args.first(), Store::Mode::ReadOnly);
        if (!store)
            return fail(io, BadInput, store.error());
        auto stats = storeStatistics(**store);
        if (!stats)
            return fail(io, BadInput, stats.error());
        const StoreCounts &t = stats->totals;
        const QStringList problemFields {QStringLiteral("kernels"), QStringLiteral("measurements"),
            QStringLiteral("forecasts"), QStringLiteral("pair_labels")};
        const QStringList forecasterFields {QStringLiteral("forecasts")};
        const QStringList hardwareFields {
            QStringLiteral("measurements"), QStringLiteral("forecasts"), QStringLiteral("pair_labels")};
        if (parser.isSet(QStringLiteral("json"))) {
            printJson(io,
                QJsonDocument(QJsonObject {
                    {QStringLiteral("problems"), t.problems},
                    {QStringLiteral("kernels"), t.kernels},
                    {QStringLiteral("hardware"), t.hardware},
                    {QStringLiteral("measurements"), t.measurements},
                    {QStringLiteral("replayed_measurements"), stats->replayedMeasurements},
                    {QStringLiteral("pair_labels"), t.pairLabels},
                    {QStringLiteral("forecasters"), t.forecasters},
                    {QStringLiteral("forecasts"), t.forecasts},
                    {QStringLiteral("searches"), t.searches},
                    {QStringLiteral("events"), t.events},
                    {QStringLiteral("per_problem"), countsJson(stats->perProblem, problemFields)},
                    {QStringLiteral("per_forecaster"), countsJson(stats->perForecaster, forecasterFields)},
                    {QStringLiteral("per_hardware"), countsJson(stats->perHardware, hardwareFields)},
                }));
            return int(Success);
        }
        const QString measurements = stats->replayedMeasurements > 0
            ? QStringLiteral("%1 (%2 replayed ↺)").arg(t.measurements).arg(stats->replayedMeasurements)
            : QString::number(t.measurements);
        io.out << args.first() << '\n'
               << QStringLiteral("  problems %1  kernels %2  hardware %3  measurements %4  pair labels %5\n"
                                 "  forecasters %6  forecasts %7  searches %8  events %9\n")
                      .arg(t.problems)
                      .arg(t.kernels)
                      .arg(t.hardware)
                      .arg(measurements)
                      .arg(t.pairLabels)
                      .arg(t.forecasters)
                      .arg(t.forecasts)
                      .arg(t.searches)
                      .arg(t.events);
        printTable(io.out, QStringLiteral("per problem:"), stats->perProblem, problemFields);
        printTable(io.out, QStringLiteral("per forecaster:"), stats->perForecaster, forecasterFields);
        printTable(io.out, QStringLiteral("per hardware:"), stats->perHardware, hardwareFields);
        return int(Success);
    };
    return c;
}

} // namespace gpuf::cli
