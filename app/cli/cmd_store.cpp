// gpuf init STORE and gpuf stats STORE.
#include "app/cli/invocation.h"
#include "core/store/statistics.h"
#include "core/store/store.h"

#include <QJsonArray>
#include <QJsonObject>

namespace gpuf::cli {
namespace {

const QStringList kProblemFields {QStringLiteral("kernels"), QStringLiteral("measurements"),
    QStringLiteral("forecasts"), QStringLiteral("pair_labels")};
const QStringList kForecasterFields {QStringLiteral("forecasts")};
const QStringList kHardwareFields {
    QStringLiteral("measurements"), QStringLiteral("forecasts"), QStringLiteral("pair_labels")};

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

QJsonObject statsJson(const StoreStatistics &stats)
{
    const StoreCounts &t = stats.totals;
    return QJsonObject {
        {QStringLiteral("problems"), t.problems},
        {QStringLiteral("kernels"), t.kernels},
        {QStringLiteral("hardware"), t.hardware},
        {QStringLiteral("measurements"), t.measurements},
        {QStringLiteral("replayed_measurements"), stats.replayedMeasurements},
        {QStringLiteral("pair_labels"), t.pairLabels},
        {QStringLiteral("forecasters"), t.forecasters},
        {QStringLiteral("forecasts"), t.forecasts},
        {QStringLiteral("searches"), t.searches},
        {QStringLiteral("events"), t.events},
        {QStringLiteral("per_problem"), countsJson(stats.perProblem, kProblemFields)},
        {QStringLiteral("per_forecaster"), countsJson(stats.perForecaster, kForecasterFields)},
        {QStringLiteral("per_hardware"), countsJson(stats.perHardware, kHardwareFields)},
    };
}

void printStats(QTextStream &out, const QString &path, const StoreStatistics &stats)
{
    const StoreCounts &t = stats.totals;
    const QString measurements = stats.replayedMeasurements > 0
        ? QStringLiteral("%1 (%2 replayed ↺)").arg(t.measurements).arg(stats.replayedMeasurements)
        : QString::number(t.measurements);
    out << path << '\n'
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
    printTable(out, QStringLiteral("per problem:"), stats.perProblem, kProblemFields);
    printTable(out, QStringLiteral("per forecaster:"), stats.perForecaster, kForecasterFields);
    printTable(out, QStringLiteral("per hardware:"), stats.perHardware, kHardwareFields);
}

// A store's errors name its file: the sentence stands without the command's name.
int runInit(Invocation &run)
{
    if (run.args().size() != 1)
        return run.usage(QStringLiteral("give exactly one STORE"));
    const QString &path = run.args().first();
    // gpuf init is the one command asked to make a store: an empty file (a failed copy) may become one here.
    auto store = Store::open(path, Store::Mode::Create);
    if (!store)
        return run.report(BadInput, store.error());
    if (run.json())
        run.printJson(QJsonObject {
            {QStringLiteral("store"), path}, {QStringLiteral("schema_version"), (*store)->schemaVersion()}});
    else
        run.out() << "store ready: " << path << " (schema " << (*store)->schemaVersion() << ")\n";
    return int(Success);
}

int runStats(Invocation &run)
{
    if (run.args().size() != 1)
        return run.usage(QStringLiteral("give exactly one STORE"));
    auto store = run.readStore(run.args().first());
    if (!store)
        return run.report(BadInput, store.error());
    auto stats = storeStatistics(**store);
    if (!stats)
        return run.report(BadInput, stats.error());
    if (run.json())
        run.printJson(statsJson(*stats));
    else
        printStats(run.out(), run.args().first(), *stats);
    return int(Success);
}

} // namespace

Command initCommand()
{
    Command c;
    c.name = QStringLiteral("init");
    c.summary = QStringLiteral("Create an empty store (or check that STORE already is one).");
    c.usage = QStringLiteral("STORE");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("the store file to create")}};
    c.invoke = runInit;
    return c;
}

Command statsCommand()
{
    Command c;
    c.name = QStringLiteral("stats");
    c.summary = QStringLiteral("Count what a store holds, per problem, forecaster and hardware.");
    c.usage = QStringLiteral("STORE");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("an existing store")}};
    c.invoke = runStats;
    return c;
}

} // namespace gpuf::cli
