// The language-model forecaster; see llm_backend.h.
#include "core/forecasters/llm_backend.h"

#include "core/forecasters/forecast_parse.h"
#include "core/forecasters/streamed_field.h"
#include "core/llm/chat_client.h"

#include <QJsonDocument>

namespace gpuf::forecasters {

LlmBackend::LlmBackend(RowId forecasterId, LlmForecasterSettings settings, Options options, QObject *parent)
    : ForecastBackend(parent)
    , m_forecasterId(forecasterId)
    , m_settings(std::move(settings))
    , m_options(options)
{
    m_client = new llm::ChatClient(m_settings.endpoint);
    m_client->moveToThread(&m_thread);
    // Queued: the client emits on its own thread, this object handles the signals on the engine's.
    connect(m_client, &llm::ChatClient::delta, this, &LlmBackend::onDelta, Qt::QueuedConnection);
    connect(m_client, &llm::ChatClient::finished, this, &LlmBackend::onFinished, Qt::QueuedConnection);
    m_thread.setObjectName(QStringLiteral("gpuf-llm"));
    m_thread.start();
}

LlmBackend::~LlmBackend()
{
    // The client is deleted on its own thread (its sockets and timers live there), then the thread ends.
    QMetaObject::invokeMethod(
        m_client,
        [client = m_client] {
            client->cancelAll();
            delete client;
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

QString LlmBackend::cacheKey(const ForecastRequest &request) const
{
    // The forecaster's name is part of the key: two forecasters configured alike still keep forecasts of their own.
    QJsonObject configuration = answerRelevantConfig(m_settings);
    configuration.insert(QStringLiteral("forecaster"), m_settings.endpoint.name);
    return forecastCacheKey(configuration, QString(kPromptVersion), request);
}

int LlmBackend::concurrency() const { return std::max(1, m_settings.endpoint.concurrency); }

llm::ChatRequest LlmBackend::chatRequest(const ForecastRequest &request, quint64 chatId) const
{
    llm::ChatRequest chat;
    chat.id = chatId;
    chat.messages = promptMessages(request, m_settings.prompt);
    if (m_settings.prompt.toolCalling) {
        chat.tools = QJsonArray {toolDefinition()};
        chat.toolChoice = toolChoice();
    }
    return chat;
}

void LlmBackend::start(const ForecastRequest &request)
{
    if (m_open.contains(request.id)) {
        qWarning("LlmBackend: request %llu is already open", static_cast<unsigned long long>(request.id));
        return;
    }
    Open open;
    open.request = request;
    submit(m_open.insert(request.id, open).value());
}

void LlmBackend::submit(Open &open)
{
    open.chatId = m_nextChatId++;
    open.rationale = std::make_shared<StreamedJsonField>(QStringLiteral("reasoning"));
    open.rationaleStarted = false;
    m_requestOfChat.insert(open.chatId, open.request.id);
    QMetaObject::invokeMethod(
        m_client, [client = m_client, chat = chatRequest(open.request, open.chatId)] { client->submit(chat); },
        Qt::QueuedConnection);
}

void LlmBackend::cancel(quint64 requestId)
{
    const auto it = m_open.constFind(requestId);
    if (it == m_open.cend())
        return;
    const quint64 chatId = it->chatId;
    m_requestOfChat.remove(chatId);
    m_open.erase(it);
    QMetaObject::invokeMethod(
        m_client, [client = m_client, chatId] { client->cancel(chatId); }, Qt::QueuedConnection);
}

void LlmBackend::onDelta(const llm::ChatDelta &delta)
{
    const auto chat = m_requestOfChat.constFind(delta.requestId);
    if (chat == m_requestOfChat.cend())
        return; // cancelled
    const quint64 requestId = *chat;
    Open &open = m_open[requestId];
    switch (delta.kind) {
    case llm::DeltaKind::Reasoning:
    case llm::DeltaKind::Content: // prose before the call (or, without tools, around the JSON answer)
        open.thinkingSeen = true;
        Q_EMIT reasoningDelta(requestId, delta.text);
        return;
    case llm::DeltaKind::ToolArguments: {
        const QString text = open.rationale->feed(delta.text);
        if (text.isEmpty())
            return;
        // The rationale follows the thinking as a paragraph of its own.
        const QString lead = !open.rationaleStarted && open.thinkingSeen ? QStringLiteral("\n\n") : QString();
        open.rationaleStarted = true;
        Q_EMIT reasoningDelta(requestId, lead + text);
        return;
    }
    }
}

void LlmBackend::onFinished(const llm::ChatResult &result)
{
    const auto chat = m_requestOfChat.constFind(result.requestId);
    if (chat == m_requestOfChat.cend())
        return; // cancelled by the caller: nothing more is said about it
    const quint64 requestId = *chat;
    m_requestOfChat.erase(chat);
    Open &open = m_open[requestId];
    Forecast forecast = forecastFrom(open, result);
    if (forecast.status == ForecastStatus::ParseFailed && m_options.retryParseFailure && open.attempt == 1) {
        ++open.attempt;
        submit(open);
        return;
    }
    m_open.remove(requestId);
    Q_EMIT finished(requestId, forecast);
}

Forecast LlmBackend::forecastFrom(const Open &open, const llm::ChatResult &result) const
{
    Forecast f = forecastFor(open.request, m_forecasterId, cacheKey(open.request));
    f.messages = QString::fromUtf8(
        QJsonDocument(promptMessages(open.request, m_settings.prompt)).toJson(QJsonDocument::Compact));
    f.response = QString::fromUtf8(result.rawResponse);
    f.tokensIn = result.promptTokens;
    f.tokensOut = result.completionTokens;
    f.latencySeconds = result.latencySeconds;
    f.createdAt = QDateTime::currentDateTimeUtc();
    if (result.status != llm::ChatStatus::Ok) {
        f.status = ForecastStatus::Error;
        f.errorText = result.error.isEmpty() ? llm::chatStatusName(result.status)
                                             : llm::chatStatusName(result.status) + QStringLiteral(": ") + result.error;
        return f;
    }
    const Result<ParsedAnswer> parsed = parseChatAnswer(result, m_settings.prompt.toolCalling);
    if (!parsed) {
        f.status = ForecastStatus::ParseFailed;
        f.errorText = parsed.error();
        if (open.attempt > 1)
            f.errorText += QStringLiteral(" (after one retry)");
        return f;
    }
    f.status = ForecastStatus::Ok;
    f.probabilities = parsed->probabilities;
    f.predictedBin = parsed->predictedBin;
    f.rawProbabilitySum = parsed->rawSum;
    f.reasoning = parsed->reasoning;
    return f;
}

} // namespace gpuf::forecasters
