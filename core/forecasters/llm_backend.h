// LlmBackend: the language-model forecaster over an OpenAI-compatible endpoint (DESIGN §5, paper-facts §2). It
// builds the two messages and the forced tool call, feeds a ChatClient running on a thread of its own, forwards the
// reasoning as it streams, and turns the answer into a Forecast (ok / parse_failed / error).
#pragma once

#include "core/forecasters/backend.h"
#include "core/forecasters/forecaster_config.h"

#include <QHash>
#include <QThread>

#include <memory>

namespace gpuf::llm {
class ChatClient;
struct ChatDelta;
struct ChatResult;
} // namespace gpuf::llm

namespace gpuf::forecasters {

class StreamedJsonField;

class LlmBackend : public ForecastBackend
{
    Q_OBJECT

public:
    struct Options
    {
        // Evaluation runs take a parse failure as the result; inside a search one more request is made
        // (paper-facts §2). Transport retries are the client's business either way.
        bool retryParseFailure = false;
    };

    LlmBackend(RowId forecasterId, LlmForecasterSettings settings, Options options, QObject *parent = nullptr);
    ~LlmBackend() override; // cancels what is open and stops the client's thread

    QString cacheKey(const ForecastRequest &request) const override;
    int concurrency() const override;
    void start(const ForecastRequest &request) override;
    void cancel(quint64 requestId) override;

    // The request body's parts for `request` (what is sent; tests and "what the forecaster saw").
    llm::ChatRequest chatRequest(const ForecastRequest &request, quint64 chatId) const;

private:
    struct Open
    {
        ForecastRequest request;
        quint64 chatId = 0;
        int attempt = 1;
        bool rationaleStarted = false;
        bool thinkingSeen = false;
        std::shared_ptr<StreamedJsonField> rationale; // the tool call's reasoning argument as it streams
    };

    void submit(Open &open);
    void onDelta(const llm::ChatDelta &delta);
    void onFinished(const llm::ChatResult &result);
    Forecast forecastFrom(const Open &open, const llm::ChatResult &result) const;

    RowId m_forecasterId = 0;
    LlmForecasterSettings m_settings;
    Options m_options;
    QThread m_thread;
    llm::ChatClient *m_client = nullptr; // lives on m_thread
    QHash<quint64, Open> m_open; // by request id
    QHash<quint64, quint64> m_requestOfChat; // chat id → request id
    quint64 m_nextChatId = 1;
};

} // namespace gpuf::forecasters
