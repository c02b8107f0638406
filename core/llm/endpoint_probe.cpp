// EndpointProbe: GET {base}/models on the probe's own curl multi handle, then a tiny forced tool call through a
// non-streaming ChatClient, then the same request through a streaming one. Every check ends with a detail string.
#include "core/llm/endpoint_probe.h"

#include "core/llm/api_key.h"
#include "core/llm/chat_client.h"
#include "core/llm/chat_protocol.h"
#include "core/llm/curl_multi.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <mutex>

namespace gpuf::llm {

namespace {

constexpr QLatin1StringView kProbeTool {"report_number"};
constexpr quint64 kToolRequest = 1;
constexpr quint64 kStreamRequest = 2;

ChatRequest probeRequest(quint64 id, bool withTool)
{
    ChatRequest request;
    request.id = id;
    const QString ask = withTool
        ? QStringLiteral("This is a connection test. Call the tool report_number with value 7.")
        : QStringLiteral("This is a connection test. Answer with the single word OK.");
    request.messages
        = QJsonArray {QJsonObject {{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), ask}}};
    if (withTool) {
        const QJsonObject value {{QStringLiteral("type"), QStringLiteral("integer")},
            {QStringLiteral("description"), QStringLiteral("The number to report.")}};
        const QJsonObject parameters {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), QJsonObject {{QStringLiteral("value"), value}}},
            {QStringLiteral("required"), QJsonArray {QStringLiteral("value")}}};
        const QJsonObject function {{QStringLiteral("name"), kProbeTool},
            {QStringLiteral("description"), QStringLiteral("Reports a number.")},
            {QStringLiteral("parameters"), parameters}};
        request.tools = QJsonArray {
            QJsonObject {{QStringLiteral("type"), QStringLiteral("function")}, {QStringLiteral("function"), function}}};
        request.toolChoice = QJsonObject {{QStringLiteral("type"), QStringLiteral("function")},
            {QStringLiteral("function"), QJsonObject {{QStringLiteral("name"), kProbeTool}}}};
    }
    return request;
}

QString elided(const QString &text, qsizetype length)
{
    const QString simple = text.simplified();
    return simple.size() <= length ? simple : simple.left(length) + QStringLiteral("…");
}

ProbeCheck check(ProbeCheck::State state, const QString &detail) { return ProbeCheck {state, detail}; }

size_t appendBody(char *data, size_t size, size_t count, void *target)
{
    const size_t bytes = size * count;
    static_cast<QByteArray *>(target)->append(data, qsizetype(bytes));
    return bytes;
}

} // namespace

class EndpointProbePrivate
{
public:
    EndpointProbePrivate(EndpointProbe *q, EndpointProfile profile)
        : q(q)
        , profile(std::move(profile))
    { }
    ~EndpointProbePrivate() { stopModels(); }

    void set(EndpointProbe::Step step, ProbeCheck value);
    void startModels();
    void modelsEnded(CURLcode code);
    void stopModels();
    void startChat(bool stream, bool withTool);
    void chatEnded(const ChatResult &result);
    void end();

    EndpointProbe *q;
    EndpointProfile profile;
    ProbeReport report;
    bool running = false;
    QString key;
    CurlMulti *multi = nullptr;
    CURL *easy = nullptr;
    curl_slist *headers = nullptr;
    QByteArray url;
    QByteArray body;
    char errorBuffer[CURL_ERROR_SIZE] = {};
    QElapsedTimer timer;
    ChatClient *client = nullptr;
    int streamedDeltas = 0;
    double firstDeltaSeconds = -1.0;
};

void EndpointProbePrivate::set(EndpointProbe::Step step, ProbeCheck value)
{
    ProbeCheck *target = step == EndpointProbe::Step::Reachable ? &report.reachable
        : step == EndpointProbe::Step::ModelListed              ? &report.modelListed
        : step == EndpointProbe::Step::ToolCalling              ? &report.toolCalling
                                                                : &report.streaming;
    *target = std::move(value);
    Q_EMIT q->checkFinished(step, *target);
}

void EndpointProbePrivate::startModels()
{
    QString base = profile.baseUrl.trimmed();
    while (base.endsWith(u'/'))
        base.chop(1);
    url = (base + QStringLiteral("/models")).toUtf8();
    body.clear();
    errorBuffer[0] = '\0';
    easy = curl_easy_init();
    headers = curl_slist_append(nullptr, "Accept: application/json");
    for (const auto &[name, value] : std::as_const(profile.extraHeaders))
        headers = curl_slist_append(headers, QByteArray(name.trimmed() + ": " + value.trimmed()).constData());
    if (!key.isEmpty())
        headers = curl_slist_append(headers, QByteArray("Authorization: Bearer " + key.toUtf8()).constData());
    curl_easy_setopt(easy, CURLOPT_URL, url.constData());
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &appendBody);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1");
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, long(std::max(1, profile.connectTimeoutMs)));
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, long(std::clamp(profile.totalTimeoutMs, 1, 30000)));
    timer.start();
    if (!multi->add(easy, [this](CURLcode code) { modelsEnded(code); }))
        modelsEnded(CURLE_FAILED_INIT);
}

void EndpointProbePrivate::stopModels()
{
    if (multi && easy)
        multi->remove(easy);
    if (easy)
        curl_easy_cleanup(easy);
    curl_slist_free_all(headers);
    easy = nullptr;
    headers = nullptr;
}

void EndpointProbePrivate::modelsEnded(CURLcode code)
{
    using State = ProbeCheck::State;
    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    const QString host = QUrl(QString::fromUtf8(url)).authority();
    const QString elapsed = QStringLiteral("%1 ms").arg(timer.elapsed());
    const bool refused = code == CURLE_COULDNT_CONNECT && connectionRefused(easy);
    stopModels();
    if (code != CURLE_OK) {
        const QString detail = QString::fromUtf8(errorBuffer[0] ? errorBuffer : curl_easy_strerror(code));
        QString why = refused                  ? EndpointProbe::tr("connection refused to %1").arg(host)
            : code == CURLE_OPERATION_TIMEDOUT ? EndpointProbe::tr("no answer from %1 (%2)").arg(host, detail)
                                               : EndpointProbe::tr("%1 cannot be reached: %2").arg(host, detail);
        set(EndpointProbe::Step::Reachable, check(State::Failed, why));
        const QString skipped = EndpointProbe::tr("skipped: the endpoint cannot be reached");
        set(EndpointProbe::Step::ModelListed, check(State::Skipped, skipped));
        set(EndpointProbe::Step::ToolCalling, check(State::Skipped, skipped));
        set(EndpointProbe::Step::Streaming, check(State::Skipped, skipped));
        end();
        return;
    }
    set(EndpointProbe::Step::Reachable,
        check(State::Ok, EndpointProbe::tr("HTTP %1 from %2 in %3").arg(status).arg(host, elapsed)));
    if (status < 200 || status >= 300) {
        set(EndpointProbe::Step::ModelListed,
            check(State::Failed,
                EndpointProbe::tr("%1/models answered HTTP %2: %3")
                    .arg(profile.baseUrl)
                    .arg(status)
                    .arg(elided(QString::fromUtf8(body), 200))));
    } else {
        QStringList ids;
        const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1StringView("data")).toArray();
        for (const QJsonValue model : data)
            ids.append(model.toObject().value(QLatin1StringView("id")).toString());
        if (ids.contains(profile.model))
            set(EndpointProbe::Step::ModelListed,
                check(State::Ok,
                    EndpointProbe::tr("\"%1\" is listed (%n model(s) in all)", nullptr, int(ids.size()))
                        .arg(profile.model)));
        else
            set(EndpointProbe::Step::ModelListed,
                check(State::Failed,
                    EndpointProbe::tr("\"%1\" is not among the %n listed model(s): %2", nullptr, int(ids.size()))
                        .arg(profile.model, elided(ids.join(QStringLiteral(", ")), 200))));
    }
    startChat(false, true);
}

void EndpointProbePrivate::startChat(bool stream, bool withTool)
{
    EndpointProfile chat = profile;
    chat.stream = stream;
    chat.maxRetries = 0;
    chat.maxTokens = std::min(profile.maxTokens, 4096);
    chat.totalTimeoutMs = std::min(profile.totalTimeoutMs, 120000);
    chat.concurrency = 1;
    delete client;
    client = new ChatClient(chat, q);
    streamedDeltas = 0;
    firstDeltaSeconds = -1.0;
    timer.start();
    QObject::connect(client, &ChatClient::delta, q, [this](const ChatDelta &) {
        if (streamedDeltas++ == 0)
            firstDeltaSeconds = timer.elapsed() / 1000.0;
    });
    QObject::connect(client, &ChatClient::finished, q, [this](const ChatResult &result) {
        // The client may not be deleted inside its own signal: finish on the next turn of the event loop.
        QMetaObject::invokeMethod(
            q, [this, result] { chatEnded(result); }, Qt::QueuedConnection);
    });
    client->submit(probeRequest(stream ? kStreamRequest : kToolRequest, withTool));
}

void EndpointProbePrivate::chatEnded(const ChatResult &result)
{
    using State = ProbeCheck::State;
    if (!running)
        return;
    const QString seconds = formatSeconds(result.latencySeconds);
    if (result.requestId == kToolRequest) {
        const auto call = std::find_if(
            result.toolCalls.begin(), result.toolCalls.end(), [](const ToolCall &c) { return c.name == kProbeTool; });
        if (result.status != ChatStatus::Ok)
            set(EndpointProbe::Step::ToolCalling, check(State::Failed, result.error));
        else if (call != result.toolCalls.end())
            set(EndpointProbe::Step::ToolCalling,
                check(State::Ok,
                    EndpointProbe::tr("the model called %1(%2) in %3")
                        .arg(kProbeTool, elided(call->arguments, 80), seconds)));
        else if (!result.toolCalls.isEmpty())
            set(EndpointProbe::Step::ToolCalling,
                check(State::Failed,
                    EndpointProbe::tr("the model called \"%1\" instead of the forced tool")
                        .arg(result.toolCalls.first().name)));
        else
            set(EndpointProbe::Step::ToolCalling,
                check(State::Failed,
                    EndpointProbe::tr("the model answered without calling the tool (finish reason \"%1\"): %2")
                        .arg(result.finishReason, elided(result.content, 120))));
        startChat(true, report.toolCalling.ok());
        return;
    }
    if (result.status != ChatStatus::Ok)
        set(EndpointProbe::Step::Streaming, check(State::Failed, result.error));
    else if (!result.streamed)
        set(EndpointProbe::Step::Streaming,
            check(State::Failed,
                EndpointProbe::tr("the server answered with one JSON body instead of server-sent events")));
    else
        set(EndpointProbe::Step::Streaming,
            check(State::Ok,
                EndpointProbe::tr("%n streamed piece(s), the first after %1, all in %2", nullptr, streamedDeltas)
                    .arg(formatSeconds(std::max(0.0, firstDeltaSeconds)), seconds)));
    end();
}

void EndpointProbePrivate::end()
{
    running = false;
    if (client) {
        client->deleteLater();
        client = nullptr;
    }
    Q_EMIT q->finished(report);
}

EndpointProbe::EndpointProbe(EndpointProfile profile, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<EndpointProbePrivate>(this, std::move(profile)))
{
    static std::once_flag once;
    std::call_once(once, [] {
        qRegisterMetaType<gpuf::llm::ProbeCheck>();
        qRegisterMetaType<gpuf::llm::ProbeReport>();
    });
    d->multi = new CurlMulti(this);
}

EndpointProbe::~EndpointProbe() = default;

void EndpointProbe::start()
{
    if (d->running)
        return;
    d->running = true;
    d->report = ProbeReport {};
    if (const Status usable = checkProfile(d->profile); !usable) {
        QMetaObject::invokeMethod(
            this,
            [this, why = usable.error()] {
                d->set(Step::Reachable, check(ProbeCheck::State::Failed, why));
                for (Step step : {Step::ModelListed, Step::ToolCalling, Step::Streaming})
                    d->set(step, check(ProbeCheck::State::Skipped, tr("skipped: the profile is incomplete")));
                d->end();
            },
            Qt::QueuedConnection);
        return;
    }
    resolveApiKey(d->profile, this, [this](Result<QString> key) {
        if (!d->running)
            return;
        if (!key) {
            d->set(Step::Reachable, check(ProbeCheck::State::Failed, QStringLiteral("API key: ") + key.error()));
            for (Step step : {Step::ModelListed, Step::ToolCalling, Step::Streaming})
                d->set(step, check(ProbeCheck::State::Skipped, tr("skipped: no API key")));
            d->end();
            return;
        }
        d->key = *key;
        d->startModels();
    });
}

void EndpointProbe::cancel()
{
    if (!d->running)
        return;
    d->stopModels();
    if (d->client)
        d->client->disconnect(this);
    for (ProbeCheck *c : {&d->report.reachable, &d->report.modelListed, &d->report.toolCalling, &d->report.streaming}) {
        if (c->state == ProbeCheck::State::Pending)
            *c = check(ProbeCheck::State::Skipped, tr("cancelled"));
    }
    d->end();
}

bool EndpointProbe::isRunning() const { return d->running; }

const ProbeReport &EndpointProbe::report() const { return d->report; }

} // namespace gpuf::llm
