// gpuf forecaster add|list: the LLM forecasters kept in a store (an OpenAI-compatible endpoint, a model and a prompt
// profile each; never a key, only the name of the variable that holds it).
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "core/forecasters/forecaster_config.h"
#include "core/forecasters/forecaster_reads.h"
#include "core/llm/api_key.h"
#include "core/store/forecast_repo.h"
#include "core/store/store.h"

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

QList<Option> forecasterOptions()
{
    return {
        Option::text(kEndpoint, QStringLiteral("URL"),
            QStringLiteral("Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1.")),
        Option::text(kModel, QStringLiteral("MODEL"), QStringLiteral("Model name as the endpoint knows it.")),
        Option::text(kApiKeyEnv, QStringLiteral("VAR"),
            QStringLiteral("Name of the environment variable that holds the API key (the key is never stored).")),
        Option::text(kProfile, QStringLiteral("PROFILE"),
            QStringLiteral("Prompt profile: default (ground-truth bins) or paper."))
            .byDefault(QStringLiteral("default")),
        Option::flag(kNoStream, QStringLiteral("Ask for whole answers instead of streamed ones.")),
        Option::flag(kNoTools, QStringLiteral("The endpoint has no tool calling: ask for a JSON object instead.")),
        Option::integer(kConcurrency, QStringLiteral("N"), QStringLiteral("Requests in flight at most (default 8)."))
            .atLeast(1),
        Option::real(kTemperature, QStringLiteral("T"), QStringLiteral("Sampling temperature (default 1.0)."))
            .atLeast(0),
        Option::integer(kMaxTokens, QStringLiteral("N"), QStringLiteral("Most tokens per answer (default 16384)."))
            .atLeast(1),
        Option::text(kReasoningEffort, QStringLiteral("EFFORT"),
            QStringLiteral("low, medium or high, for models that take it.")),
    };
}

// The endpoint: an http(s) URL without credentials, and a model; empty when they are valid, else why not.
QString readEndpoint(const Invocation &run, llm::EndpointProfile &e)
{
    e.baseUrl = run.value(kEndpoint).trimmed();
    e.model = run.value(kModel).trimmed();
    const QUrl url(e.baseUrl, QUrl::StrictMode);
    if (e.baseUrl.isEmpty() || e.model.isEmpty())
        return QStringLiteral("--endpoint and --model are required");
    if (!url.isValid() || (url.scheme() != QLatin1StringView("http") && url.scheme() != QLatin1StringView("https"))
        || url.host().isEmpty())
        return QStringLiteral("--endpoint must be an http(s) URL (got '%1')").arg(e.baseUrl);
    if (!url.userInfo().isEmpty())
        return QStringLiteral("--endpoint must not carry credentials; use --api-key-env");
    e.apiKeyEnv = run.value(kApiKeyEnv);
    if (run.isSet(kApiKeyEnv)) {
        if (const QString problem = llm::apiKeyEnvProblem(e.apiKeyEnv); !problem.isEmpty())
            return QStringLiteral("--api-key-env: ") + problem;
    }
    return {};
}

// Reads the add options into settings; an empty string when they are valid, else why not.
QString readAddOptions(const Invocation &run, forecasters::LlmForecasterSettings &s)
{
    llm::EndpointProfile &e = s.endpoint;
    if (QString problem = readEndpoint(run, e); !problem.isEmpty())
        return problem;
    const auto profile = forecasters::promptProfileFromName(run.value(kProfile));
    if (!profile)
        return QStringLiteral("--profile is default or paper (got '%1')").arg(run.value(kProfile));
    s.prompt.profile = *profile;
    e.stream = !run.isSet(kNoStream);
    e.toolCalling = !run.isSet(kNoTools);
    s.prompt.toolCalling = e.toolCalling;
    auto given = run.checkOptions({kConcurrency, kMaxTokens, kTemperature});
    if (!given)
        return given.error();
    e.concurrency = given->integer(kConcurrency, e.concurrency);
    e.maxTokens = given->integer(kMaxTokens, e.maxTokens);
    e.temperature = given->real(kTemperature, e.temperature);
    e.reasoningEffort = run.value(kReasoningEffort);
    static const QStringList efforts {QStringLiteral("low"), QStringLiteral("medium"), QStringLiteral("high")};
    if (run.isSet(kReasoningEffort) && !efforts.contains(e.reasoningEffort))
        return QStringLiteral("--reasoning-effort is low, medium or high");
    return {};
}

QJsonObject forecasterJson(const Forecaster &f)
{
    return QJsonObject {{QStringLiteral("id"), f.id}, {QStringLiteral("name"), f.name},
        {QStringLiteral("kind"), forecasterKindName(f.kind)}, {QStringLiteral("display_name"), f.displayName},
        {QStringLiteral("config"), f.config}};
}

int addForecaster(Invocation &run, Store &store, const QString &name)
{
    forecasters::LlmForecasterSettings settings;
    if (const QString problem = readAddOptions(run, settings); !problem.isEmpty())
        return run.usage(problem);
    ForecasterRepo repo(store);
    auto existing = repo.findByName(name);
    if (!existing)
        return run.bad(existing.error());
    if (existing->has_value())
        return run.bad(QStringLiteral("'%1' exists already").arg(name));
    Forecaster f;
    f.name = name;
    f.displayName = name;
    f.kind = ForecasterKind::Llm;
    f.config = forecasters::llmConfig(settings);
    if (auto id = repo.ensure(f); !id)
        return run.bad(id.error());
    if (run.json()) {
        run.printJson(forecasterJson(f));
        return Success;
    }
    run.out() << "forecaster '" << name << "' added (id " << f.id << "): " << settings.endpoint.model << " at "
              << settings.endpoint.baseUrl << ", prompt " << forecasters::promptProfileName(settings.prompt.profile)
              << ' ' << forecasters::kPromptVersion << '\n';
    return Success;
}

int printForecasters(Invocation &run, Store &store)
{
    auto all = gpuf::listForecasters(store);
    if (!all)
        return run.bad(all.error());
    if (run.json()) {
        QJsonArray rows;
        for (const Forecaster &f : std::as_const(*all))
            rows.append(forecasterJson(f));
        run.printJson(QJsonObject {{QStringLiteral("forecasters"), rows}});
        return Success;
    }
    for (const Forecaster &f : std::as_const(*all)) {
        run.out() << f.id << ' ' << f.name << " (" << forecasterKindName(f.kind) << ')';
        if (f.kind == ForecasterKind::Llm)
            run.out() << ": " << f.config.value(QStringLiteral("model")).toString() << " at "
                      << f.config.value(QStringLiteral("endpoint")).toString();
        run.out() << '\n';
    }
    return Success;
}

int runForecaster(Invocation &run)
{
    const QStringList &args = run.args();
    const QString action = args.value(0);
    const bool add = action == QLatin1StringView("add");
    if (!add && action != QLatin1StringView("list"))
        return run.usage(QStringLiteral("the action is add or list"));
    const QString verb = QStringLiteral("forecaster ") + action;
    if (args.size() != (add ? 3 : 2)) {
        run.setPrefix(verb);
        return run.usage(add ? QStringLiteral("give a STORE and a NAME") : QStringLiteral("give exactly one STORE"));
    }
    auto store = run.existingStore(args.at(1));
    if (!store)
        return run.bad(store.error());
    run.setPrefix(verb);
    return add ? addForecaster(run, **store, args.at(2)) : printForecasters(run, **store);
}

} // namespace

Command forecasterCommand()
{
    Command c;
    c.name = QStringLiteral("forecaster");
    c.summary = QStringLiteral("Add an LLM forecaster (an OpenAI-compatible endpoint) to a store, or list them.");
    c.usage = QStringLiteral("add STORE NAME --endpoint URL --model MODEL | list STORE");
    c.arguments = {{QStringLiteral("ACTION"), QStringLiteral("add | list")},
        {QStringLiteral("STORE"), QStringLiteral("an existing store")},
        {QStringLiteral("NAME"), QStringLiteral("the new forecaster's name (add)")}};
    c.options = forecasterOptions();
    c.invoke = runForecaster;
    return c;
}

} // namespace gpuf::cli
