// gpuf forecast: batch forecasting of every (reference, candidate) pair of a selection that has no cached forecast,
// with a store's forecaster (an LLM's or the cost model). The engine runs on this thread inside an event loop; an
// endpoint's client runs on a thread of its own.
#include "app/cli/cli_engine.h"
#include "app/cli/invocation.h"
#include "app/cli/local_loop.h"
#include "app/cli/option_names.h"
#include "app/cli/progress.h"
#include "core/forecasters/forecast_engine.h"
#include "core/forecasters/forecast_gaps.h"
#include "core/forecasters/forecast_pairs.h"
#include "core/forecasters/forecaster_reads.h"
#include "core/measure/measurement_mapping.h"
#include "core/measure/worker_locator.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/store.h"

#include <QJsonObject>

namespace gpuf::cli {
namespace {

const QString kSamples = QStringLiteral("samples");
const QString kRefresh = QStringLiteral("refresh");
const QString kPairs = QStringLiteral("pairs");

QList<Option> forecastOptions()
{
    return {
        Option::text(kForecaster, QStringLiteral("NAME"), QStringLiteral("The forecaster to run (by name)."))
            .mandatory(),
        Option::text(
            kProblem, QStringLiteral("P"), QStringLiteral("Only this problem (by name). Default: every problem.")),
        Option::text(kHardware, QStringLiteral("HW"),
            QStringLiteral("Hardware shown to the forecaster: a preset (A100, L40S, H100, H200, B200) or 'local' (the "
                           "GPU gpuf-measure sees). Default: none.")),
        // As many as the explorer's Forecast dock offers: 2000000000 ran for ever at full CPU.
        Option::integer(
            kSamples, QStringLiteral("N"), QStringLiteral("Independent samples per pair, 1 to 16 (default 1)."))
            .byDefault(QStringLiteral("1"))
            .atLeast(1)
            .atMost(16),
        Option::flag(kRefresh, QStringLiteral("Forecast again even when a cached forecast exists.")),
        Option::text(kPairs, QStringLiteral("WHICH"),
            QStringLiteral("Which pairs: reference (each problem's reference against its other kernels), labelled (the "
                           "store's labelled pairs, e.g. an imported eval set's anchor/candidate or discovery "
                           "parent/child, each on its label's hardware) or all (both; the default)."))
            .byDefault(QStringLiteral("all")),
        Option::text(kModel, QStringLiteral("FILE"),
            QStringLiteral(
                "With --forecaster costmodel: the model file (gpuf train --out). Default: the built-in model.")),
    };
}

// The local GPU as gpuf-measure describes it, or exactly why there is none (worded as `gpuf device` words it).
Result<Hardware> localHardware()
{
    auto worker = measure::locateMeasureWorker();
    if (!worker)
        return Error {QStringLiteral("no GPU available: ") + worker.error()};
    const DeviceState device = CliEngine(*worker).probeDevice();
    if (!device.isAvailable())
        return Error {QStringLiteral("no GPU available: ") + device.reason};
    if (device.devices.isEmpty() || device.devices.first().deviceInfo.isEmpty())
        return Error {QStringLiteral("gpuf-measure did not describe its device")};
    return measure::hardwareFromDevice(device.devices.first().deviceInfo, {});
}

// --hardware: a preset, 'local' or none (each pair then shows its label's GPU, if it has one).
int readHardware(Invocation &run, std::optional<Hardware> &hardware)
{
    const QString hw = run.value(kHardware);
    if (hw == QLatin1StringView("local")) {
        auto local = localHardware();
        if (!local)
            return run.bad(QStringLiteral("--hardware local: ") + local.error());
        hardware = *local;
    } else if (!hw.isEmpty()) {
        hardware = hardwarePreset(hw);
        if (!hardware)
            return run.usage(QStringLiteral("unknown hardware '%1' (A100, L40S, H100, H200, B200 or local)").arg(hw));
    }
    return Success;
}

// One batch per hardware: a label's pair is shown its label's GPU, unless --hardware names one for every pair.
Result<QList<ForecastBatch>> batchesOf(
    Invocation &run, Store &store, const ForecastBatch &batch, const ForecastPairSelection &selection)
{
    if (run.isSet(kHardware)) {
        ForecastBatch all = batch;
        all.pairs = selection.allPairs();
        return QList<ForecastBatch> {all};
    }
    QList<ForecastBatch> batches;
    for (const HardwarePairs &group : selection.groups) {
        ForecastBatch b = batch;
        b.id = quint64(batches.size() + 1);
        b.pairs = group.pairs;
        if (group.hardwareId != 0) {
            auto hardware = HardwareRepo(store).find(group.hardwareId);
            if (!hardware)
                return hardware.failure();
            if (hardware->has_value())
                b.hardware = **hardware;
        }
        batches.append(b);
    }
    return batches;
}

ForecastSummary runBatch(Invocation &run, const ForecastBatch &batch, const ForecastEngineConfig &config)
{
    ForecastEngine engine(config);
    engine.setStorePath(run.args().first());
    Progress progress(run.err(), run.json());
    QObject::connect(&engine, &ForecastEngine::forecastStored, &engine, [&progress](const Forecast &f) {
        if (f.status != ForecastStatus::Ok)
            progress.line(QStringLiteral("kernel %1 vs %2 (sample %3): %4: %5")
                              .arg(f.candidateKernelId)
                              .arg(f.referenceKernelId)
                              .arg(f.repeat)
                              .arg(forecastStatusName(f.status), f.errorText));
    });
    ForecastSummary summary;
    // A batch answered wholly from the cache finishes inside enqueue().
    waitFor(
        engine, &ForecastEngine::batchFinished,
        [&summary](quint64, const ForecastSummary &s) {
            summary = s;
            return true;
        },
        [&] { engine.enqueue(batch); });
    return summary;
}

// Runs the batches one after the other: the sum of their summaries, or the first one's error.
ForecastSummary runBatches(Invocation &run, const QList<ForecastBatch> &batches)
{
    ForecastEngineConfig config;
    config.backend.costModelPath = run.value(kModel);
    ForecastSummary s;
    for (const ForecastBatch &b : batches) {
        const ForecastSummary part = runBatch(run, b, config);
        if (!part.error.isEmpty()) {
            s.error = part.error;
            break;
        }
        s.requested += part.requested;
        s.ok += part.ok;
        s.parseFailed += part.parseFailed;
        s.errors += part.errors;
        s.cached += part.cached;
    }
    return s;
}

void printSummary(Invocation &run, const ForecastSummary &s, const forecasters::GapReport &gaps)
{
    if (run.json()) {
        QJsonObject summary {{QStringLiteral("requested"), s.requested}, {QStringLiteral("ok"), s.ok},
            {QStringLiteral("parse_failed"), s.parseFailed}, {QStringLiteral("errors"), s.errors},
            {QStringLiteral("cached"), s.cached}};
        if (!gaps.isEmpty())
            summary.insert(QStringLiteral("unknown_features"), gaps.toJson());
        run.printJson(summary);
        return;
    }
    run.out() << s.requested << " forecast(s) requested: " << s.ok << " ok, " << s.parseFailed << " parse failed, "
              << s.errors << " error(s), " << s.cached << " cached\n";
    for (const QString &line : gaps.lines())
        run.out() << line << '\n';
}

// The forecaster named, the batches of its pairs, and their run.
int forecastWith(Invocation &run, std::unique_ptr<Store> store, const Forecaster &forecaster, int samples)
{
    ForecastBatch batch;
    batch.id = 1;
    batch.forecasterId = forecaster.id;
    batch.samples = samples;
    batch.refresh = run.isSet(kRefresh);
    if (const int code = readHardware(run, batch.hardware); code != Success)
        return code;
    const auto source = pairSourceFromName(run.value(kPairs));
    if (!source)
        return run.usage(QStringLiteral("--pairs is reference, labelled or all, not '%1'").arg(run.value(kPairs)));
    auto selection = selectForecastPairs(*store, *source, run.value(kProblem));
    if (!selection)
        return run.bad(selection.error());
    // An empty selection is an error, not "0 requested": a script must not take "nothing matched" for "all cached".
    if (selection->size() == 0)
        return run.bad(QStringLiteral("no pair to forecast (--pairs %1): %2")
                           .arg(pairSourceName(*source), selection->emptyReason(*source)));
    auto batches = batchesOf(run, *store, batch, *selection);
    if (!batches)
        return run.bad(batches.error());
    store.reset(); // the engine writes through its own connection
    const ForecastSummary s = runBatches(run, *batches);
    if (!s.error.isEmpty())
        return run.bad(s.error);
    // The cost model reads launch features: say which of its forecasts had to do without them.
    forecasters::GapReport gaps;
    if (forecaster.kind == ForecasterKind::CostModel) {
        if (auto reopened = run.existingStore(run.args().first())) {
            if (auto report = forecasters::forecastGaps(**reopened, selection->allPairs()))
                gaps = *report;
        }
    }
    printSummary(run, s, gaps);
    return s.errors > 0 ? int(BadInput) : int(Success);
}

int runForecast(Invocation &run)
{
    if (run.args().size() != 1)
        return run.usage(QStringLiteral("give exactly one STORE"));
    auto given = run.checkOptions();
    if (!given)
        return run.usage(given.error());
    auto store = run.existingStore(run.args().first());
    if (!store)
        return run.bad(store.error());
    // The built-in cost model is every store's forecaster: its row is created on first use.
    auto forecaster = resolveForecaster(**store, run.value(kForecaster), run.value(kModel));
    if (!forecaster)
        return run.bad(forecaster.error());
    if (!forecaster->has_value())
        return run.bad(QStringLiteral("no forecaster named '%1'").arg(run.value(kForecaster)));
    if (run.isSet(kModel) && (**forecaster).kind != ForecasterKind::CostModel)
        return run.usage(QStringLiteral("--model applies to cost-model forecasters only"));
    return forecastWith(run, std::move(*store), **forecaster, given->integer(kSamples));
}

} // namespace

Command forecastCommand()
{
    Command c;
    c.name = QStringLiteral("forecast");
    c.summary = QStringLiteral("Forecast the store's (reference, candidate) pairs without a cached forecast (--pairs "
                               "chooses which); exit 1 when a request failed (parse failures are results) or no pair "
                               "matches.");
    c.usage = QStringLiteral("STORE --forecaster NAME");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("an existing store")}};
    c.options = forecastOptions();
    c.invoke = runForecast;
    return c;
}

} // namespace gpuf::cli
