// An LLM forecaster's stored configuration; see forecaster_config.h.
#include "core/forecasters/forecaster_config.h"

#include "core/store/forecast_repo.h"

namespace gpuf::forecasters {
namespace {

namespace key {
const QString endpoint = QStringLiteral("endpoint");
const QString model = QStringLiteral("model");
const QString temperature = QStringLiteral("temperature");
const QString maxTokens = QStringLiteral("max_tokens");
const QString reasoningEffort = QStringLiteral("reasoning_effort");
const QString concurrency = QStringLiteral("concurrency");
const QString totalTimeout = QStringLiteral("total_timeout_ms");
const QString idleTimeout = QStringLiteral("idle_timeout_ms");
const QString connectTimeout = QStringLiteral("connect_timeout_ms");
const QString maxRetries = QStringLiteral("max_retries");
const QString stream = QStringLiteral("stream");
const QString toolCalling = QStringLiteral("tool_calling");
const QString apiKeyEnv = QStringLiteral("api_key_env");
const QString keychainEntry = QStringLiteral("keychain_entry");
const QString extraHeaders = QStringLiteral("extra_headers");
const QString promptProfile = QStringLiteral("prompt_profile");
const QString promptVersion = QStringLiteral("prompt_version");
} // namespace key

// Reads config[name] into `target` when present; a value of another type is an error naming the key.
class Reader
{
public:
    explicit Reader(const QJsonObject &config)
        : m_config(config)
    { }
    void string(const QString &name, QString &target) { read(name, target, QJsonValue::String); }
    void number(const QString &name, double &target) { read(name, target, QJsonValue::Double); }
    void boolean(const QString &name, bool &target) { read(name, target, QJsonValue::Bool); }
    void integer(const QString &name, int &target, int minimum)
    {
        double value = target;
        read(name, value, QJsonValue::Double);
        if (value != double(int(value)) || value < minimum) {
            fail(QStringLiteral("%1 must be an integer ≥ %2").arg(name).arg(minimum));
            return;
        }
        target = int(value);
    }
    void fail(const QString &message)
    {
        if (m_error.isEmpty())
            m_error = message;
    }
    const QString &error() const { return m_error; }

private:
    template<typename T>
    void read(const QString &name, T &target, QJsonValue::Type type)
    {
        const QJsonValue value = m_config.value(name);
        if (value.isUndefined() || value.isNull())
            return;
        if (value.type() != type) {
            fail(QStringLiteral("%1 has the wrong type").arg(name));
            return;
        }
        if constexpr (std::is_same_v<T, QString>)
            target = value.toString();
        else if constexpr (std::is_same_v<T, bool>)
            target = value.toBool();
        else
            target = value.toDouble();
    }

    const QJsonObject &m_config;
    QString m_error;
};

} // namespace

QJsonObject llmConfig(const LlmForecasterSettings &settings)
{
    const llm::EndpointProfile &e = settings.endpoint;
    QJsonObject config {{key::endpoint, e.baseUrl}, {key::model, e.model}, {key::temperature, e.temperature},
        {key::maxTokens, e.maxTokens}, {key::concurrency, e.concurrency}, {key::totalTimeout, e.totalTimeoutMs},
        {key::idleTimeout, e.idleTimeoutMs}, {key::connectTimeout, e.connectTimeoutMs}, {key::maxRetries, e.maxRetries},
        {key::stream, e.stream}, {key::toolCalling, e.toolCalling},
        {key::promptProfile, promptProfileName(settings.prompt.profile)},
        {key::promptVersion, QString(kPromptVersion)}};
    if (!e.reasoningEffort.isEmpty())
        config.insert(key::reasoningEffort, e.reasoningEffort);
    if (!e.apiKeyEnv.isEmpty())
        config.insert(key::apiKeyEnv, e.apiKeyEnv);
    if (!e.keychainEntry.isEmpty())
        config.insert(key::keychainEntry, e.keychainEntry);
    if (!e.extraHeaders.isEmpty()) {
        QJsonObject headers;
        for (const auto &[name, value] : e.extraHeaders)
            headers.insert(QString::fromLatin1(name), QString::fromLatin1(value));
        config.insert(key::extraHeaders, headers);
    }
    return config;
}

Result<LlmForecasterSettings> llmSettings(const QJsonObject &config, const QString &name)
{
    if (containsSecret(config))
        return Error {QStringLiteral("the configuration holds a secret; API keys are never stored")};
    LlmForecasterSettings s;
    llm::EndpointProfile &e = s.endpoint;
    e.name = name;
    Reader r(config);
    r.string(key::endpoint, e.baseUrl);
    r.string(key::model, e.model);
    r.number(key::temperature, e.temperature);
    r.integer(key::maxTokens, e.maxTokens, 1);
    r.string(key::reasoningEffort, e.reasoningEffort);
    r.integer(key::concurrency, e.concurrency, 1);
    r.integer(key::totalTimeout, e.totalTimeoutMs, 1);
    r.integer(key::idleTimeout, e.idleTimeoutMs, 1);
    r.integer(key::connectTimeout, e.connectTimeoutMs, 1);
    r.integer(key::maxRetries, e.maxRetries, 0);
    r.boolean(key::stream, e.stream);
    r.boolean(key::toolCalling, e.toolCalling);
    r.string(key::apiKeyEnv, e.apiKeyEnv);
    r.string(key::keychainEntry, e.keychainEntry);
    if (const QJsonValue headers = config.value(key::extraHeaders); headers.isObject()) {
        const QJsonObject object = headers.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (!it->isString())
                r.fail(QStringLiteral("%1.%2 must be a string").arg(key::extraHeaders, it.key()));
            e.extraHeaders.append({it.key().toLatin1(), it->toString().toLatin1()});
        }
    } else if (!headers.isUndefined() && !headers.isNull()) {
        r.fail(QStringLiteral("%1 has the wrong type").arg(key::extraHeaders));
    }
    QString profile = promptProfileName(PromptProfile::Default);
    r.string(key::promptProfile, profile);
    if (e.baseUrl.trimmed().isEmpty())
        r.fail(QStringLiteral("%1 is missing").arg(key::endpoint));
    if (e.model.trimmed().isEmpty())
        r.fail(QStringLiteral("%1 is missing").arg(key::model));
    const auto prompt = promptProfileFromName(profile);
    if (!prompt)
        r.fail(QStringLiteral("%1 '%2' is unknown (default or paper)").arg(key::promptProfile, profile));
    if (!r.error().isEmpty())
        return Error {r.error()};
    s.prompt.profile = *prompt;
    s.prompt.toolCalling = e.toolCalling;
    return s;
}

QJsonObject answerRelevantConfig(const LlmForecasterSettings &settings)
{
    const llm::EndpointProfile &e = settings.endpoint;
    return QJsonObject {{QStringLiteral("kind"), QStringLiteral("llm")}, {key::endpoint, e.baseUrl},
        {key::model, e.model}, {key::temperature, e.temperature}, {key::maxTokens, e.maxTokens},
        {key::reasoningEffort, e.reasoningEffort}, {key::toolCalling, e.toolCalling},
        {key::promptProfile, promptProfileName(settings.prompt.profile)}};
}

} // namespace gpuf::forecasters
