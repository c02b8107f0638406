// OpenAiServer: a scripted OpenAI-compatible HTTP/1.1 server on 127.0.0.1 (ephemeral port) for tests and benches:
// real sockets, real SSE, per-chunk delays and faults (stall, close, reset), and a log of every request received.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QThread;

namespace gpuf::test {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

struct HttpChunk
{
    QByteArray data;
    int delayMs = 0; // waited before this chunk is written
};

enum class Fault {
    None,
    Stall, // stop sending and keep the connection open until the client goes away
    Close, // orderly close (FIN)
    Reset, // abortive close (RST: SO_LINGER 0)
};

// One answer to POST {base}/chat/completions. Content-Length or Transfer-Encoding is added by the server.
struct ScriptedResponse
{
    int status = 200;
    HeaderList headers; // e.g. Content-Type, Retry-After
    QList<HttpChunk> chunks; // the body, written piece by piece
    bool chunked = false; // Transfer-Encoding: chunked, one HTTP chunk per entry (as streaming servers do)
    int headersDelayMs = 0; // waited before the status line
    Fault fault = Fault::None;
    int faultAfterChunk = -1; // the fault follows this chunk (index into chunks; -1: right after the headers)
    int faultDelayMs = 0; // waited between that chunk and the fault

    QByteArray body() const; // all chunks joined
};

struct RecordedRequest
{
    QByteArray method;
    QByteArray path; // e.g. "/v1/chat/completions"
    HeaderList headers; // as received, in order
    QByteArray body;

    QByteArray header(const QByteArray &name) const; // case-insensitive; empty when absent
    QJsonObject json() const; // the body parsed; empty when it is not a JSON object
};

// Answers a chat request when no scripted response is queued; runs on the server's thread.
using Responder = std::function<ScriptedResponse(const RecordedRequest &)>;

struct OpenAiServerState; // shared by the server's thread and the test's thread (openai_server.cpp)

class OpenAiServer
{
public:
    enum class Threading {
        CallerThread, // the server's sockets live on the constructing thread (its event loop must run)
        OwnThread, // the server runs its own QThread (benches: its CPU time stays off the client's thread)
    };

    explicit OpenAiServer(Threading threading = Threading::CallerThread);
    ~OpenAiServer();
    OpenAiServer(const OpenAiServer &) = delete;
    OpenAiServer &operator=(const OpenAiServer &) = delete;

    bool listen(); // binds 127.0.0.1 on an ephemeral port
    quint16 port() const;
    QString baseUrl() const; // "http://127.0.0.1:PORT/v1"

    // Everything below is thread-safe.
    void enqueue(ScriptedResponse response); // answers the next chat requests in FIFO order
    void setResponder(Responder responder); // when the queue is empty; default: a 500 "no scripted response"
    void setModels(QStringList ids); // GET {base}/models lists these; default {"test-model"}
    void setModelsResponse(ScriptedResponse response); // overrides GET {base}/models altogether

    QList<RecordedRequest> requests() const; // every request received, in arrival order
    int requestCount() const;
    int openRequests() const; // requests received whose answer is not finished yet
    int maxOpenRequests() const; // the most open at any moment
    int connectionCount() const; // TCP connections accepted so far

private:
    class Core;
    std::shared_ptr<OpenAiServerState> m_shared;
    std::unique_ptr<QThread> m_thread; // OwnThread only; declared before m_core so it outlives it
    std::unique_ptr<Core> m_core;
    quint16 m_port = 0;
};

} // namespace gpuf::test
