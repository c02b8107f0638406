// gpuf forecaster add|list and gpuf forecast: LLM forecasters kept in a store, and batch forecasting of every
// (reference, candidate) pair of a selection that has no cached forecast. The engine runs on this thread inside an
// event loop; the endpoint's client runs on a thread of its own.
#include "app/cli/command.h"
#include "app/cli/option_names.h"
#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/forecasters/forecast_engine.h"
#include "core/forecasters/forecast_gaps.h"
#include "core/forecasters/forecast_pairs.h"
#include "core/forecasters/forecaster_config.h"
#include "core/forecasters/forecaster_reads.h"
#include "core/measure/measure_engine.h"
#include "core/measure/measurement_mapping.h"
#include "core/measure/worker_locator.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>

namespace gpuf::cli {
namespace {

const QString kEndpoint = QStringLiteral("endpoint");
const QString kApiKeyEnv = QStringLiteral("api-key-env");
const QString kProfile = QStringLiteral("profile");
const QString kNoStream = QStringLiteral("no-stream");
const QString kNoTools = QStringLiteral("no-tools");
const QString kConcurrency = QStringLiteral("concurrency");
const QString kTemperature = QStringLiteral("temperature");
const QString kMaxTokens = QStringLiteral("max-tokens");
const QString kReasoningEffort = QStringLiteral("reasoning-effort");
const QString kSamples = QStringLiteral("samples");
const QString kRefresh = QStringLiteral("refresh");
const QString kPairs = QStringLiteral("pairs");

// --- gpuf forecaster add|list --------------------------------------------------------------------------------------

void addForecasterOptions(QCommandLineParser &parser)
{
    parser.addPositionalArgument(QStringLiteral("ACTION"), QStringLiteral("add | list"));
    parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("an existing store"));
    parser.addPositionalArgument(QStringLiteral("NAME"), QStringLiteral("the new forecaster's name (add)"));
    parser.addOption({kEndpoint, QStringLiteral("Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1."),
        QStringLiteral("URL")});
    parser.addOption({kModel, QStringLiteral("Model name as the endpoint knows it."), QStringLiteral("MODEL")});
    parser.addOption({kApiKeyEnv,
        QStringLiteral("Name of the environment variable that holds the API key (the key is never stored)."),
        QStringLiteral("VAR")});
    parser.addOption({kProfile, QStringLiteral("Prompt profile: default (ground-truth bins) or paper."),
        QStringLiteral("PROFILE"), QStringLiteral("default")});
    parser.addOption({kNoStream, QStringLiteral("Ask for whole answers instead of streamed ones.")});
    parser.addOption({kNoTools, QStringLiteral("The endpoint has no tool calling: ask for a JSON object instead.")});
    parser.addOption({kConcurrency, QStringLiteral("Requests in flight at most (default 8)."), QStringLiteral("N")});
    parser.addOption({kTemperature, QStringLiteral("Sampling temperature (default 1.0)."), QStringLiteral("T")});
    parser.addOption({kMaxTokens, QStringLiteral("Most tokens per answer (default 16384)."), QStringLiteral("N")});
    parser.addOption(
        {kReasoningEffort, QStringLiteral("low, medium or high, for models that take it."), QStringLiteral("EFFORT")});
}

// Reads the add options into settings; an empty string when they are valid, else why not.
QString readAddOptions(const QCommandLineParser &parser, forecasters::LlmForecasterSettings &s)
{
    llm::EndpointProfile &e = s.endpoint;
    e.baseUrl = parser.value(kEndpoint).trimmed();
    e.model = parser.value(kModel).trimmed();
    const QUrl url(e.baseUrl, QUrl::StrictMode);
    if (e.baseUrl.isEmpty() || e.model.isEmpty())
        return QStringLiteral("--endpoint and --model are required");
    if (!url.isValid() || (url.scheme() != QLatin1StringView("http") && url.scheme() != QLatin1StringView("https"))
        || url.host().isEmpty())
        return QStringLiteral("--endpoint must be an http(s) URL (got '%1')").arg(e.baseUrl);
    if (!url.userInfo().isEmpty())
        return QStringLiteral("--endpoint must not carry credentials; use --api-key-env");
    e.apiKeyEnv = parser.value(kApiKeyEnv);
    static const QRegularExpression variable(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (parser.isSet(kApiKeyEnv) && !variable.match(e.apiKeyEnv).hasMatch())
        return QStringLiteral("--api-key-env takes the NAME of an environment variable (letters, digits, _)");
    const auto profile = forecasters::promptProfileFromName(parser.value(kProfile));
    if (!profile)
        return QStringLiteral("--profile is default or paper (got '%1')").arg(parser.value(kProfile));
    s.prompt.profile = *profile;
    e.stream = !parser.isSet(kNoStream);
    e.toolCalling = !parser.isSet(kNoTools);
    s.prompt.toolCalling = e.toolCalling;
    bool ok = true;
    if (parser.isSet(kConcurrency) && ((e.concurrency = parser.value(kConcurrency).toInt(&ok)) < 1 || !ok))
        return QStringLiteral("--concurrency takes a positive integer");
    if (parser.isSet(kMaxTokens) && ((e.maxTokens = parser.value(kMaxTokens).toInt(&ok)) < 1 || !ok))
        return QStringLiteral("--max-tokens takes a positive integer");
    if (parser.isSet(kTemperature) && ((e.temperature = parser.value(kTemperature).toDouble(&ok)) < 0.0 || !ok))
        return QStringLiteral("--temperature takes a non-negative number");
    e.reasoningEffort = parser.value(kReasoningEffort);
    static const QStringList efforts {QStringLiteral("low"), QStringLiteral("medium"), QStringLiteral("high")};
    if (parser.isSet(kReasoningEffort) && !efforts.contains(e.reasoningEffort))
        return QStringLiteral("--reasoning-effort is low, medium or high");
    return {};
}

QJsonObject forecasterJson(const Forecaster &f)
{
    return QJsonObject {{QStringLiteral("id"), f.id}, {QStringLiteral("name"), f.name},
        {QStringLiteral("kind"), forecasterKindName(f.kind)}, {QStringLiteral("display_name"), f.displayName},
        {QStringLiteral("config"), f.config}};
}

int addForecaster(const QCommandLineParser &parser, Io &io, Store &store, const QString &name)
{
    forecasters::LlmForecasterSettings settings;
    if (const QString problem = readAddOptions(parser, settings); !problem.isEmpty())
        return fail(io, UsageError, QStringLiteral("forecaster add: ") + problem);
    ForecasterRepo repo(store);
    auto existing = repo.findByName(name);
    if (!existing)
        return fail(io, BadInput, QStringLiteral("forecaster add: ") + existing.error());
    if (existing->has_value())
        return fail(io, BadInput, QStringLiteral("forecaster add: '%1' exists already").arg(name));
    Forecaster f;
    f.name = name;
    f.displayName = name;
    f.kind = ForecasterKind::Llm;
    f.config = forecasters::llmConfig(settings);
    if (auto id = repo.ensure(f); !id)
        return fail(io, BadInput, QStringLiteral("forecaster add: ") + id.error());
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QJsonDocument(forecasterJson(f)));
        return Success;
    }
    io.out << "forecaster '" << name << "' added (id " << f.id << "): " << settings.endpoint.model << " at "
           << settings.endpoint.baseUrl << ", prompt " << forecasters::promptProfileName(settings.prompt.profile) << ' '
           << forecasters::kPromptVersion << '\n';
    return Success;
}

int listForecasters(const QCommandLineParser &parser, Io &io, Store &store)
{
    auto all = gpuf::listForecasters(store);
    if (!all)
        return fail(io, BadInput, QStringLiteral("forecaster list: ") + all.error());
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray rows;
        for (const Forecaster &f : std::as_const(*all))
            rows.append(forecasterJson(f));
        printJson(io, QJsonDocument(QJsonObject {{QStringLiteral("forecasters"), rows}}));
        return Success;
    }
    for (const Forecaster &f : std::as_const(*all)) {
        io.out << f.id << ' ' << f.name << " (" << forecasterKindName(f.kind) << ')';
        if (f.kind == ForecasterKind::Llm)
            io.out << ": " << f.config.value(QStringLiteral("model")).toString() << " at "
                   << f.config.value(QStringLiteral("endpoint")).toString();
        io.out << '\n';
    }
    return Success;
}

int runForecaster(const QCommandLineParser &parser, Io &io)
{
    const QStringList args = parser.positionalArguments();
    const QString action = args.value(0);
    if (action == QLatin1StringView("add") && args.size() != 3)
        return fail(io, UsageError, QStringLiteral("forecaster add: give a STORE and a NAME"));
    if (action == QLatin1StringView("list") && args.size() != 2)
        return fail(io, UsageError, QStringLiteral("forecaster list: give exactly one STORE"));
    if (action != QLatin1StringView("add") && action != QLatin1StringView("list"))
        return fail(io, UsageError, QStringLiteral("forecaster: the action is add or list"));
    auto store = Store::open(args.at(1), Store::Mode::ExistingOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("forecaster: ") + store.error());
    if (action == QLatin1StringView("list"))
        return listForecasters(parser, io, **store);
    return addForecaster(parser, io, **store, args.at(2));
}

// --- gpuf forecast ------------------------------------------------------------------------------------------------

void addForecastOptions(QCommandLineParser &parser)
{
    parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("an existing store"));
    parser.addOption({kForecaster, QStringLiteral("The forecaster to run (by name)."), QStringLiteral("NAME")});
    parser.addOption(
        {kProblem, QStringLiteral("Only this problem (by name). Default: every problem."), QStringLiteral("P")});
    parser.addOption({kHardware,
        QStringLiteral("Hardware shown to the forecaster: a preset (A100, L40S, H100, H200, B200) or 'local' (the "
                       "GPU gpuf-measure sees). Default: none."),
        QStringLiteral("HW")});
    parser.addOption({kSamples, QStringLiteral("Independent samples per pair (default 1)."), QStringLiteral("N"),
        QStringLiteral("1")});
    parser.addOption({kRefresh, QStringLiteral("Forecast again even when a cached forecast exists.")});
    parser.addOption({kPairs,
        QStringLiteral("Which pairs: reference (each problem's reference against its other kernels), labelled (the "
                       "store's labelled pairs, e.g. an imported eval set's anchor/candidate or discovery "
                       "parent/child, each on its label's hardware) or all (both; the default)."),
        QStringLiteral("WHICH"), QStringLiteral("all")});
    parser.addOption({kModel,
        QStringLiteral("With --forecaster costmodel: the model file (gpuf train --out). Default: the built-in model."),
        QStringLiteral("FILE")});
}

// The local GPU as gpuf-measure describes it, or exactly why there is none.
Result<Hardware> localHardware()
{
    auto worker = measure::locateMeasureWorker();
    if (!worker) // worded as `gpuf device` words it
        return Error {QStringLiteral("no GPU available: ") + worker.error()};
    MeasureEngine engine(MeasureEngineConfig {*worker, {}, 1, 0, 30000, 50, 3});
    const auto settled = [](const MeasureSnapshot &s) {
        return s.device.availability == DeviceState::Availability::Available
            || s.device.availability == DeviceState::Availability::Unavailable;
    };
    engine.probeDevice();
    if (!settled(engine.snapshot())) {
        QEventLoop loop;
        QObject::connect(&engine, &MeasureEngine::snapshotReady, &loop, [&](const MeasureSnapshot &s) {
            if (settled(s))
                loop.quit();
        });
        loop.exec();
    }
    const DeviceState device = engine.snapshot().device;
    QEventLoop stopped;
    QObject::connect(&engine, &MeasureEngine::shutDown, &stopped, &QEventLoop::quit, Qt::QueuedConnection);
    engine.shutdown();
    stopped.exec();
    if (!device.isAvailable())
        return Error {QStringLiteral("no GPU available: ") + device.reason};
    if (device.devices.isEmpty() || device.devices.first().deviceInfo.isEmpty())
        return Error {QStringLiteral("gpuf-measure did not describe its device")};
    return measure::hardwareFromDevice(device.devices.first().deviceInfo, {});
}

ForecastSummary runBatch(
    const QString &storePath, const ForecastBatch &batch, Io &io, bool json, const ForecastEngineConfig &config)
{
    ForecastEngine engine(config);
    engine.setStorePath(storePath);
    std::optional<ForecastSummary> summary;
    QEventLoop loop;
    QObject::connect(&engine, &ForecastEngine::batchFinished, &loop, [&](quint64, const ForecastSummary &s) {
        summary = s;
        loop.quit();
    });
    if (!json) {
        QObject::connect(&engine, &ForecastEngine::forecastStored, &loop, [&io](const Forecast &f) {
            if (f.status == ForecastStatus::Ok)
                return;
            io.err << "kernel " << f.candidateKernelId << " vs " << f.referenceKernelId << " (sample " << f.repeat
                   << "): " << forecastStatusName(f.status) << ": " << f.errorText << '\n';
            io.err.flush();
        });
    }
    engine.enqueue(batch);
    if (!summary) // a batch answered wholly from the cache finishes inside enqueue()
        loop.exec();
    return *summary;
}

int runForecast(const QCommandLineParser &parser, Io &io)
{
    const QStringList args = parser.positionalArguments();
    if (args.size() != 1)
        return fail(io, UsageError, QStringLiteral("forecast: give exactly one STORE"));
    if (!parser.isSet(kForecaster))
        return fail(io, UsageError, QStringLiteral("forecast: --forecaster NAME is required"));
    bool ok = false;
    const int samples = parser.value(kSamples).toInt(&ok);
    if (!ok || samples < 1)
        return fail(io, UsageError, QStringLiteral("forecast: --samples takes a positive integer"));
    auto store = Store::open(args.first(), Store::Mode::ExistingOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("forecast: ") + store.error());
    // The built-in cost model is every store's forecaster: its row is created on first use.
    auto forecaster = resolveForecaster(**store, parser.value(kForecaster), parser.value(kModel));
    if (!forecaster)
        return fail(io, BadInput, QStringLiteral("forecast: ") + forecaster.error());
    if (!forecaster->has_value())
        return fail(io, BadInput, QStringLiteral("forecast: no forecaster named '%1'").arg(parser.value(kForecaster)));
    ForecastBatch batch;
    batch.id = 1;
    if (parser.isSet(kModel) && (**forecaster).kind != ForecasterKind::CostModel)
        return fail(io, UsageError, QStringLiteral("forecast: --model applies to cost-model forecasters only"));
    batch.forecasterId = (**forecaster).id;
    batch.samples = samples;
    batch.refresh = parser.isSet(kRefresh);
    if (const QString hw = parser.value(kHardware); hw == QLatin1StringView("local")) {
        auto local = localHardware();
        if (!local)
            return fail(io, BadInput, QStringLiteral("forecast: --hardware local: ") + local.error());
        batch.hardware = *local;
    } else if (!hw.isEmpty()) {
        batch.hardware = hardwarePreset(hw);
        if (!batch.hardware)
            return fail(io, UsageError,
                QStringLiteral("forecast: unknown hardware '%1' (A100, L40S, H100, H200, B200 or local)").arg(hw));
    }
    const auto source = pairSourceFromName(parser.value(kPairs));
    if (!source)
        return fail(io, UsageError,
            QStringLiteral("forecast: --pairs is reference, labelled or all, not '%1'").arg(parser.value(kPairs)));
    auto selection = selectForecastPairs(**store, *source, parser.value(kProblem));
    if (!selection)
        return fail(io, BadInput, QStringLiteral("forecast: ") + selection.error());
    // An empty selection is an error, not "0 requested": a script must not take "nothing matched" for "all cached".
    if (selection->size() == 0)
        return fail(io, BadInput,
            QStringLiteral("forecast: no pair to forecast (--pairs %1): %2")
                .arg(pairSourceName(*source), selection->emptyReason(*source)));
    // One batch per hardware: a label's pair is shown its label's GPU, unless --hardware names one for every pair.
    QList<ForecastBatch> batches;
    if (parser.isSet(kHardware)) {
        batch.pairs = selection->allPairs();
        batches.append(batch);
    } else {
        for (const HardwarePairs &group : std::as_const(selection->groups)) {
            ForecastBatch b = batch;
            b.id = quint64(batches.size() + 1);
            b.pairs = group.pairs;
            if (group.hardwareId != 0) {
                auto hardware = HardwareRepo(**store).find(group.hardwareId);
                if (!hardware)
                    return fail(io, BadInput, QStringLiteral("forecast: ") + hardware.error());
                if (hardware->has_value())
                    b.hardware = **hardware;
            }
            batches.append(b);
        }
    }
    store->reset(); // the engine writes through its own connection

    const bool json = parser.isSet(QStringLiteral("json"));
    ForecastEngineConfig config;
    config.backend.costModelPath = parser.value(kModel);
    ForecastSummary s;
    for (const ForecastBatch &b : std::as_const(batches)) {
        const ForecastSummary part = runBatch(args.first(), b, io, json, config);
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
    if (!s.error.isEmpty())
        return fail(io, BadInput, QStringLiteral("forecast: ") + s.error);
    // The cost model reads launch features: say which of its forecasts had to do without them.
    forecasters::GapReport gaps;
    if ((**forecaster).kind == ForecasterKind::CostModel) {
        if (auto reopened = Store::open(args.first(), Store::Mode::ExistingOnly)) {
            if (auto report = forecasters::forecastGaps(**reopened, selection->allPairs()))
                gaps = *report;
        }
    }
    if (json) {
        QJsonObject summary {{QStringLiteral("requested"), s.requested}, {QStringLiteral("ok"), s.ok},
            {QStringLiteral("parse_failed"), s.parseFailed}, {QStringLiteral("errors"), s.errors},
            {QStringLiteral("cached"), s.cached}};
        if (!gaps.isEmpty())
            summary.insert(QStringLiteral("unknown_features"), gaps.toJson());
        printJson(io, QJsonDocument(summary));
    } else {
        io.out << s.requested << " forecast(s) requested: " << s.ok << " ok, " << s.parseFailed << " parse failed, "
               << s.errors << " error(s), " << s.cached << " cached\n";
        for (const QString &line : gaps.lines())
            io.out << line << '\n';
    }
    return s.errors > 0 ? int(BadInput) : int(Success);
}

} // namespace

Command forecasterCommand()
{
    Command c;
    c.name = QStringLiteral("forecaster");
    c.summary = QStringLiteral("Add an LLM forecaster (an OpenAI-compatible endpoint) to a store, or list them.");
    c.usage = QStringLiteral("add STORE NAME --endpoint URL --model MODEL | list STORE");
    c.addOptions = addForecasterOptions;
    c.run = runForecaster;
    return c;
}

Command forecastCommand()
{
    Command c;
    c.name = QStringLiteral("forecast");
    c.summary = QStringLiteral("Forecast the store's (reference, candidate) pairs without a cached forecast (--pairs "
                               "chooses which); exit 1 when a request failed (parse failures are results) or no pair "
                               "matches.");
    c.usage = QStringLiteral("STORE --forecaster NAME");
    c.addOptions = addForecastOptions;
    c.run = runForecast;
    return c;
}

} // namespace gpuf::cli
