// ChatClient: the FIFO queue and concurrency limit, one libcurl easy handle per request (re-added per attempt),
// incremental SSE parsing in the write callback, idle and total timeouts, retries with backoff, cancellation.
#include "core/llm/chat_client.h"

#include "core/llm/api_key.h"
#include "core/llm/chat_accumulator.h"
#include "core/llm/chat_protocol.h"
#include "core/llm/curl_multi.h"
#include "core/llm/sse_parser.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTimer>
#include <QUrl>

#include <deque>
#include <optional>
#include <random>
#include <vector>

namespace gpuf::llm {

// Named rather than anonymous: ChatClientPrivate (declared in the header) holds these, and a class with linkage may
// not hold members of an anonymous namespace's types.
namespace client_detail {

constexpr qsizetype kMaxBodyBytes = qsizetype {64} * 1024 * 1024; // a chat answer this large is not a chat answer

// One submitted request across its attempts. Timers are children of the client so they follow it to its thread.
struct Job
{
    Job(ChatClientPrivate *owner, QObject *client, ChatRequest request)
        : owner(owner)
        , request(std::move(request))
        , idle(client)
        , retry(client)
    {
        idle.setSingleShot(true);
        retry.setSingleShot(true);
        // Coarse timers may fire 5% early: a Retry-After of 1 s must mean at least 1 s.
        idle.setTimerType(Qt::PreciseTimer);
        retry.setTimerType(Qt::PreciseTimer);
    }
    ~Job()
    {
        if (easy)
            curl_easy_cleanup(easy);
        curl_slist_free_all(headers);
    }

    ChatClientPrivate *owner;
    ChatRequest request;
    ChatResult result;
    CURL *easy = nullptr;
    curl_slist *headers = nullptr;
    QByteArray body; // CURLOPT_POSTFIELDS points into it
    QElapsedTimer started; // when the request left the queue
    QTimer idle;
    QTimer retry;
    // Per attempt:
    SseParser sse;
    ChatAccumulator accumulator;
    QList<SseEvent> events; // scratch, reused
    qint64 lastByteMs = 0; // on the client's clock
    qint64 bytes = 0;
    long httpStatus = 0;
    bool statusKnown = false;
    bool eventStream = false;
    bool sawDone = false;
    bool idleExpired = false;
    QByteArray retryAfter;
    QString protocolError; // set inside the write callback, which then stops the transfer
    char errorBuffer[CURL_ERROR_SIZE] = {};
};

QString totalTimeoutMessage(const Job &job)
{
    const int attempts = job.result.attempts;
    return QStringLiteral("total timeout after %1 (%2 %3)")
        .arg(formatSeconds(job.started.elapsed() / 1000.0))
        .arg(attempts)
        .arg(attempts == 1 ? QStringLiteral("attempt") : QStringLiteral("attempts"));
}

struct Outcome
{
    ChatStatus status = ChatStatus::Ok;
    QString error;
    bool retryable = false;
    std::optional<qint64> retryAfterMs;
};

} // namespace client_detail

using client_detail::Job;
using client_detail::kMaxBodyBytes;
using client_detail::Outcome;

class ChatClientPrivate
{
public:
    ChatClientPrivate(ChatClient *q, EndpointProfile profile);
    ~ChatClientPrivate();

    void pump();
    void resolveKey();
    void start(std::unique_ptr<Job> job);
    bool configure(Job &job);
    void attempt(Job &job);
    void onIdleTimer(Job &job);
    void ended(Job &job, CURLcode code);
    Outcome classify(Job &job, CURLcode code);
    bool receive(Job &job, QByteArrayView bytes);
    void header(Job &job, QByteArrayView line);
    void flushDeltas();
    void finish(Job &job, ChatStatus status, const QString &error);
    void finishQueued(std::unique_ptr<Job> job, ChatStatus status, const QString &error);
    void scrub(ChatResult &result) const;
    bool isOpen(quint64 id) const;

    static size_t onBody(char *data, size_t size, size_t count, void *job);
    static size_t onHeader(char *data, size_t size, size_t count, void *job);

    ChatClient *q;
    EndpointProfile profile;
    CurlMulti *multi;
    QByteArray url;
    QString hostPort; // "127.0.0.1:8000", for messages
    QElapsedTimer clock;
    std::deque<std::unique_ptr<Job>> queued;
    std::vector<std::unique_ptr<Job>> active; // in flight or waiting to retry; at most profile.concurrency
    QList<ChatDelta> deltas; // collected inside curl calls, emitted right after them
    enum class KeyState { Unresolved, Resolving, Ready } keyState = KeyState::Unresolved;
    QString key;
    std::mt19937_64 random {QRandomGenerator::global()->generate64()};
};

ChatClientPrivate::ChatClientPrivate(ChatClient *q, EndpointProfile profile)
    : q(q)
    , profile(std::move(profile))
    , multi(new CurlMulti(q))
{
    QString base = this->profile.baseUrl.trimmed();
    while (base.endsWith(u'/'))
        base.chop(1);
    url = (base + QStringLiteral("/chat/completions")).toUtf8();
    const QUrl parsed(base);
    hostPort
        = parsed.host() + u':' + QString::number(parsed.port(parsed.scheme() == QLatin1StringView("https") ? 443 : 80));
    multi->setAfterActivity([this] { flushDeltas(); });
    clock.start();
    if (this->profile.apiKeyEnv.isEmpty() && this->profile.keychainEntry.isEmpty())
        keyState = KeyState::Ready; // no key to look up: requests go out at once
}

ChatClientPrivate::~ChatClientPrivate()
{
    for (const std::unique_ptr<Job> &job : active)
        multi->remove(job->easy);
}

bool ChatClientPrivate::isOpen(quint64 id) const
{
    for (const std::unique_ptr<Job> &job : active) {
        if (job->request.id == id)
            return true;
    }
    return false;
}

void ChatClientPrivate::pump()
{
    if (keyState != KeyState::Ready) {
        if (keyState == KeyState::Unresolved && !queued.empty())
            resolveKey();
        return;
    }
    while (!queued.empty() && active.size() < std::size_t(std::max(1, profile.concurrency))) {
        std::unique_ptr<Job> job = std::move(queued.front());
        queued.pop_front();
        start(std::move(job));
    }
}

void ChatClientPrivate::resolveKey()
{
    keyState = KeyState::Resolving;
    resolveApiKey(profile, q, [this](Result<QString> resolved) {
        if (resolved) {
            key = *resolved;
            keyState = KeyState::Ready;
            pump();
            return;
        }
        // Everything waiting fails with the reason; the next submit looks again (the variable may be set by then).
        keyState = KeyState::Unresolved;
        std::deque<std::unique_ptr<Job>> failing = std::move(queued);
        queued.clear();
        for (std::unique_ptr<Job> &job : failing)
            finishQueued(std::move(job), ChatStatus::TransportError, QStringLiteral("API key: ") + resolved.error());
    });
}

void ChatClientPrivate::start(std::unique_ptr<Job> job)
{
    Job &j = *job;
    active.push_back(std::move(job));
    j.started.start();
    QObject::connect(&j.idle, &QTimer::timeout, q, [this, &j] { onIdleTimer(j); });
    QObject::connect(&j.retry, &QTimer::timeout, q, [this, &j] { attempt(j); });
    if (!configure(j)) {
        finish(j, ChatStatus::TransportError, QStringLiteral("libcurl refused the request options"));
        return;
    }
    attempt(j);
}

bool ChatClientPrivate::configure(Job &job)
{
    job.body = buildRequestBody(profile, job.request, profile.stream);
    job.easy = curl_easy_init();
    if (!job.easy)
        return false;
    job.headers = curl_slist_append(job.headers, "Content-Type: application/json");
    job.headers
        = curl_slist_append(job.headers, profile.stream ? "Accept: text/event-stream" : "Accept: application/json");
    job.headers = curl_slist_append(job.headers, "Expect:"); // no 100-continue round trip for large prompts
    for (const auto &[name, value] : std::as_const(profile.extraHeaders))
        job.headers = curl_slist_append(job.headers, QByteArray(name.trimmed() + ": " + value.trimmed()).constData());
    if (!key.isEmpty()) // the key travels only here: never in the body, the result or a message
        job.headers = curl_slist_append(job.headers, QByteArray("Authorization: Bearer " + key.toUtf8()).constData());
    CURL *e = job.easy;
    bool ok = curl_easy_setopt(e, CURLOPT_URL, url.constData()) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_HTTPHEADER, job.headers) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(job.body.size())) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_POSTFIELDS, job.body.constData()) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &ChatClientPrivate::onBody) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_WRITEDATA, &job) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &ChatClientPrivate::onHeader) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_HEADERDATA, &job) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_ERRORBUFFER, job.errorBuffer) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L) == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1") == CURLE_OK;
    ok = ok && curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, long(std::max(1, profile.connectTimeoutMs))) == CURLE_OK;
    return ok;
}

void ChatClientPrivate::attempt(Job &job)
{
    const qint64 remaining = profile.totalTimeoutMs - job.started.elapsed();
    if (remaining <= 0) {
        finish(job, ChatStatus::TimedOut, totalTimeoutMessage(job));
        return;
    }
    ++job.result.attempts;
    job.sse.reset();
    job.accumulator = ChatAccumulator(job.request.id);
    job.result.rawResponse.clear();
    job.bytes = 0;
    job.httpStatus = 0;
    job.statusKnown = job.eventStream = job.sawDone = job.idleExpired = false;
    job.retryAfter.clear();
    job.protocolError.clear();
    job.errorBuffer[0] = '\0';
    curl_easy_setopt(job.easy, CURLOPT_TIMEOUT_MS, long(remaining));
    job.lastByteMs = clock.elapsed();
    if (!multi->add(job.easy, [this, &job](CURLcode code) { ended(job, code); })) {
        finish(job, ChatStatus::TransportError, QStringLiteral("libcurl refused to start the transfer"));
        return;
    }
    job.idle.start(std::max(1, profile.idleTimeoutMs));
}

// Fires at most once per idle period: re-armed for the rest of it when bytes came meanwhile, so a busy stream
// costs no timer restarts.
void ChatClientPrivate::onIdleTimer(Job &job)
{
    const qint64 quiet = clock.elapsed() - job.lastByteMs;
    if (quiet < profile.idleTimeoutMs) {
        job.idle.start(int(profile.idleTimeoutMs - quiet));
        return;
    }
    job.idleExpired = true;
    multi->remove(job.easy);
    ended(job, CURLE_OPERATION_TIMEDOUT);
}

size_t ChatClientPrivate::onBody(char *data, size_t size, size_t count, void *job)
{
    Job &j = *static_cast<Job *>(job);
    return j.owner->receive(j, QByteArrayView(data, qsizetype(size * count))) ? size * count : 0;
}

size_t ChatClientPrivate::onHeader(char *data, size_t size, size_t count, void *job)
{
    Job &j = *static_cast<Job *>(job);
    j.owner->header(j, QByteArrayView(data, qsizetype(size * count)));
    return size * count;
}

void ChatClientPrivate::header(Job &job, QByteArrayView line)
{
    job.lastByteMs = clock.elapsed();
    if (line.startsWith("HTTP/")) { // a new response (after 100 Continue or a redirect) starts over
        job.retryAfter.clear();
        job.statusKnown = false;
    } else if (line.size() > 12 && QByteArrayView(line.first(12)).compare("Retry-After:", Qt::CaseInsensitive) == 0) {
        job.retryAfter = line.sliced(12).trimmed().toByteArray();
    }
}

bool ChatClientPrivate::receive(Job &job, QByteArrayView bytes)
{
    job.lastByteMs = clock.elapsed();
    job.bytes += bytes.size();
    if (!job.statusKnown) {
        job.statusKnown = true;
        curl_easy_getinfo(job.easy, CURLINFO_RESPONSE_CODE, &job.httpStatus);
        const char *type = nullptr;
        curl_easy_getinfo(job.easy, CURLINFO_CONTENT_TYPE, &type);
        job.eventStream = job.httpStatus >= 200 && job.httpStatus < 300 && type
            && QByteArrayView(type).trimmed().startsWith("text/event-stream");
        job.result.streamed = job.eventStream;
    }
    if (job.result.rawResponse.size() + bytes.size() > kMaxBodyBytes) {
        job.protocolError = QStringLiteral("response larger than %1 MiB").arg(kMaxBodyBytes >> 20);
        return false;
    }
    job.result.rawResponse.append(bytes);
    if (!job.eventStream)
        return true; // parsed whole when it ends
    job.events.clear();
    job.sse.feed(bytes, job.events);
    for (const SseEvent &event : std::as_const(job.events)) {
        if (event.data == "[DONE]") {
            job.sawDone = true;
            continue;
        }
        if (const Status added = job.accumulator.addChunk(event.data, deltas); !added) {
            job.protocolError = added.error();
            return false;
        }
    }
    return true;
}

void ChatClientPrivate::flushDeltas()
{
    if (deltas.isEmpty())
        return;
    QList<ChatDelta> ready = std::exchange(deltas, {});
    // Pieces of one request and kind that arrived in the same batch travel as one signal.
    qsizetype kept = 0;
    for (qsizetype i = 1; i < ready.size(); ++i) {
        if (ready[i].requestId == ready[kept].requestId && ready[i].kind == ready[kept].kind)
            ready[kept].text += ready[i].text;
        else
            ready[++kept] = std::move(ready[i]);
    }
    ready.resize(kept + 1);
    for (ChatDelta &d : ready) {
        if (key.size() >= 4)
            d.text.replace(key, QStringLiteral("[API key]"));
        if (isOpen(d.requestId)) // a slot may have cancelled the request meanwhile
            Q_EMIT q->delta(d);
    }
}

void ChatClientPrivate::ended(Job &job, CURLcode code)
{
    job.idle.stop();
    Outcome outcome = classify(job, code);
    if (outcome.status == ChatStatus::Ok) {
        finish(job, ChatStatus::Ok, {});
        return;
    }
    // A stream the consumer has already seen pieces of is not started over: they would see them twice.
    if (outcome.retryable && !job.accumulator.deliveredAnything() && job.result.attempts <= profile.maxRetries) {
        const qint64 delay = outcome.retryAfterMs.value_or(backoffDelayMs(
            profile.backoffBaseMs, job.result.attempts, std::uniform_real_distribution<double>(0.0, 1.0)(random)));
        if (job.started.elapsed() + delay < profile.totalTimeoutMs) {
            job.retry.start(int(delay));
            return;
        }
        outcome.error += QStringLiteral("; waiting %1 for another attempt would pass the total timeout of %2")
                             .arg(formatSeconds(delay / 1000.0), formatSeconds(profile.totalTimeoutMs / 1000.0));
    }
    finish(job, outcome.status, outcome.error);
}

Outcome ChatClientPrivate::classify(Job &job, CURLcode code)
{
    if (job.idleExpired) {
        return {ChatStatus::TimedOut,
            QStringLiteral("no data for %1 (idle timeout)").arg(formatSeconds(profile.idleTimeoutMs / 1000.0)), true};
    }
    if (!job.protocolError.isEmpty())
        return {ChatStatus::ProtocolError, job.protocolError, false};
    const QString detail = QString::fromUtf8(job.errorBuffer[0] ? job.errorBuffer : curl_easy_strerror(code));
    switch (code) {
    case CURLE_OK:
        break;
    case CURLE_OPERATION_TIMEDOUT:
        if (job.started.elapsed() + 20 >= profile.totalTimeoutMs) {
            return {ChatStatus::TimedOut, totalTimeoutMessage(job), false};
        }
        return {ChatStatus::TimedOut,
            QStringLiteral("connect timeout after %1 to %2")
                .arg(formatSeconds(profile.connectTimeoutMs / 1000.0), hostPort),
            true};
    case CURLE_COULDNT_CONNECT:
        if (connectionRefused(job.easy))
            return {ChatStatus::TransportError, QStringLiteral("connection refused to ") + hostPort, true};
        return {ChatStatus::TransportError, QStringLiteral("could not connect to %1 (%2)").arg(hostPort, detail), true};
    case CURLE_COULDNT_RESOLVE_HOST:
        return {ChatStatus::TransportError,
            QStringLiteral("could not resolve the host of %1 (%2)").arg(hostPort, detail), true};
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: {
        const bool reset = detail.contains(QLatin1StringView("reset"), Qt::CaseInsensitive);
        return {ChatStatus::TransportError,
            QStringLiteral("connection %1 after %2 bytes (%3)")
                .arg(reset ? QStringLiteral("reset") : QStringLiteral("closed"))
                .arg(job.bytes)
                .arg(detail),
            true};
    }
    default:
        return {ChatStatus::TransportError, QStringLiteral("transfer to %1 failed: %2").arg(hostPort, detail),
            code != CURLE_PEER_FAILED_VERIFICATION && code != CURLE_SSL_CONNECT_ERROR
                && code != CURLE_UNSUPPORTED_PROTOCOL && code != CURLE_URL_MALFORMAT};
    }
    curl_easy_getinfo(job.easy, CURLINFO_RESPONSE_CODE, &job.httpStatus);
    const int status = int(job.httpStatus);
    if (status < 200 || status >= 300) {
        Outcome outcome {ChatStatus::HttpError,
            QStringLiteral("HTTP %1: %2").arg(status).arg(serverErrorMessage(job.result.rawResponse)),
            isRetryableHttpStatus(status)};
        outcome.retryAfterMs = parseRetryAfterMs(job.retryAfter, QDateTime::currentDateTimeUtc());
        return outcome;
    }
    if (job.eventStream) {
        job.accumulator.finish(&deltas);
        if (!job.sawDone && !job.accumulator.sawFinishReason()) {
            return {ChatStatus::TransportError,
                QStringLiteral("connection closed after %1 bytes before the stream ended").arg(job.bytes), true};
        }
        return {};
    }
    if (const Status parsed = job.accumulator.addWhole(job.result.rawResponse); !parsed)
        return {ChatStatus::ProtocolError, parsed.error(), false};
    return {};
}

void ChatClientPrivate::finish(Job &job, ChatStatus status, const QString &error)
{
    job.idle.stop();
    job.retry.stop();
    multi->remove(job.easy);
    flushDeltas();
    std::unique_ptr<Job> owned;
    for (auto it = active.begin(); it != active.end(); ++it) {
        if (it->get() == &job) {
            owned = std::move(*it);
            active.erase(it);
            break;
        }
    }
    ChatResult result = std::move(job.result);
    result.requestId = job.request.id;
    result.status = status;
    result.error = error;
    if (job.easy)
        curl_easy_getinfo(job.easy, CURLINFO_RESPONSE_CODE, &job.httpStatus);
    result.httpStatus = int(job.httpStatus);
    job.accumulator.fill(result);
    result.latencySeconds = job.started.isValid() ? job.started.nsecsElapsed() / 1e9 : 0.0;
    result.requestBody = job.body;
    scrub(result);
    owned.reset();
    Q_EMIT q->finished(result);
    pump();
}

void ChatClientPrivate::finishQueued(std::unique_ptr<Job> job, ChatStatus status, const QString &error)
{
    ChatResult result;
    result.requestId = job->request.id;
    result.status = status;
    result.error = error;
    job.reset();
    scrub(result);
    Q_EMIT q->finished(result);
}

// Defence in depth: the key goes only into a header, but a server could echo it back and an error could quote it.
void ChatClientPrivate::scrub(ChatResult &result) const
{
    if (key.size() < 4)
        return;
    const QString hidden = QStringLiteral("[API key]");
    const QByteArray keyBytes = key.toUtf8();
    for (QString *text : {&result.error, &result.content, &result.reasoning, &result.finishReason})
        text->replace(key, hidden);
    for (ToolCall &call : result.toolCalls) {
        call.id.replace(key, hidden);
        call.name.replace(key, hidden);
        call.arguments.replace(key, hidden);
    }
    result.rawResponse.replace(keyBytes, hidden.toUtf8());
    result.requestBody.replace(keyBytes, hidden.toUtf8());
}

ChatClient::ChatClient(EndpointProfile profile, QObject *parent)
    : QObject(parent)
{
    registerChatMetaTypes();
    d = std::make_unique<ChatClientPrivate>(this, std::move(profile));
}

ChatClient::~ChatClient() = default;

const EndpointProfile &ChatClient::profile() const { return d->profile; }

void ChatClient::submit(const ChatRequest &request)
{
    auto job = std::make_unique<Job>(d.get(), this, request);
    if (const Status usable = checkProfile(d->profile); !usable) {
        d->finishQueued(std::move(job), ChatStatus::TransportError, usable.error());
        return;
    }
    d->queued.push_back(std::move(job));
    d->pump();
}

void ChatClient::cancel(quint64 requestId)
{
    for (auto it = d->queued.begin(); it != d->queued.end(); ++it) {
        if ((*it)->request.id == requestId) {
            std::unique_ptr<Job> job = std::move(*it);
            d->queued.erase(it);
            d->finishQueued(std::move(job), ChatStatus::Cancelled, QStringLiteral("cancelled before it was sent"));
            return;
        }
    }
    for (const std::unique_ptr<Job> &job : d->active) {
        if (job->request.id == requestId) {
            Job &j = *job;
            d->finish(j, ChatStatus::Cancelled,
                QStringLiteral("cancelled after %1").arg(formatSeconds(j.started.elapsed() / 1000.0)));
            return;
        }
    }
}

void ChatClient::cancelAll()
{
    while (!d->queued.empty()) {
        std::unique_ptr<Job> job = std::move(d->queued.front());
        d->queued.pop_front();
        d->finishQueued(std::move(job), ChatStatus::Cancelled, QStringLiteral("cancelled before it was sent"));
    }
    // finish() starts queued requests; there are none left, so this ends.
    while (!d->active.empty())
        cancel(d->active.front()->request.id);
}

} // namespace gpuf::llm
