// OpenAiServer: request parsing, routing (chat completions, models) and the timed playback of scripted responses.
#include "tests/support/openai_server.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QMutexLocker>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <deque>
#include <limits>
#include <optional>

#include <sys/socket.h>

namespace gpuf::test {

QByteArray ScriptedResponse::body() const
{
    QByteArray all;
    for (const HttpChunk &chunk : chunks)
        all += chunk.data;
    return all;
}

QByteArray RecordedRequest::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QJsonObject RecordedRequest::json() const { return QJsonDocument::fromJson(body).object(); }

// State the test thread and the server thread both touch.
struct OpenAiServerState
{
    mutable QMutex mutex;
    std::deque<ScriptedResponse> queue;
    Responder responder;
    QStringList models {QStringLiteral("test-model")};
    std::optional<ScriptedResponse> modelsResponse;
    QList<RecordedRequest> requests;
    int open = 0;
    int maxOpen = 0;
    int connections = 0;
};

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 408:
        return "Request Timeout";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

ScriptedResponse plainError(int status, const QString &message)
{
    ScriptedResponse r;
    r.status = status;
    r.headers = {{"Content-Type", "application/json"}};
    const QJsonObject error {{QStringLiteral("message"), message}, {QStringLiteral("type"), QStringLiteral("test")}};
    r.chunks = {{QJsonDocument(QJsonObject {{QStringLiteral("error"), error}}).toJson(QJsonDocument::Compact), 0}};
    return r;
}

// One accepted connection: reads requests (keep-alive, one at a time) and plays each answer back on a timer.
class Connection : public QObject
{
public:
    Connection(QTcpSocket *socket, std::shared_ptr<OpenAiServerState> shared, QObject *parent)
        : QObject(parent)
        , m_socket(socket)
        , m_shared(std::move(shared))
    {
        m_socket->setParent(this);
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // as streaming servers do: no Nagle batching
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, [this] { step(); });
        connect(m_socket, &QTcpSocket::readyRead, this, [this] { readRequests(); });
        connect(m_socket, &QTcpSocket::disconnected, this, [this] { finish(); });
    }

private:
    void readRequests()
    {
        m_input += m_socket->readAll();
        while (!m_playing && parseOne()) { }
    }

    // Takes one complete request off m_input and starts its answer; false when more bytes are needed.
    bool parseOne()
    {
        const qsizetype end = m_input.indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        const QList<QByteArray> lines = m_input.left(end).split('\n');
        RecordedRequest request;
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        request.method = first.value(0);
        request.path = first.value(1);
        qsizetype length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon <= 0)
                continue;
            request.headers.append({lines[i].left(colon).trimmed(), lines[i].mid(colon + 1).trimmed()});
        }
        length = request.header("Content-Length").toLongLong();
        if (!m_continued && request.header("Expect").compare("100-continue", Qt::CaseInsensitive) == 0) {
            m_continued = true;
            m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        }
        if (m_input.size() < end + 4 + length)
            return false;
        request.body = m_input.mid(end + 4, length);
        m_input.remove(0, end + 4 + length);
        m_continued = false;
        m_closeAfter = request.header("Connection").compare("close", Qt::CaseInsensitive) == 0;
        start(request);
        return true;
    }

    void start(const RecordedRequest &request)
    {
        Responder responder;
        {
            QMutexLocker lock(&m_shared->mutex);
            m_shared->requests.append(request);
            m_shared->maxOpen = std::max(m_shared->maxOpen, ++m_shared->open);
            const bool chat = request.method == "POST" && request.path.endsWith("/chat/completions");
            const bool models = request.method == "GET" && request.path.endsWith("/models");
            if (chat && !m_shared->queue.empty()) {
                m_response = std::move(m_shared->queue.front());
                m_shared->queue.pop_front();
            } else if (chat && m_shared->responder) {
                responder = m_shared->responder;
            } else if (chat) {
                m_response = plainError(500, QStringLiteral("no scripted response"));
            } else if (models && m_shared->modelsResponse) {
                m_response = *m_shared->modelsResponse;
            } else if (models) {
                QJsonArray data;
                for (const QString &id : std::as_const(m_shared->models))
                    data.append(
                        QJsonObject {{QStringLiteral("id"), id}, {QStringLiteral("object"), QStringLiteral("model")}});
                m_response = ScriptedResponse {};
                m_response.headers = {{"Content-Type", "application/json"}};
                const QJsonObject list {
                    {QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), data}};
                m_response.chunks = {{QJsonDocument(list).toJson(QJsonDocument::Compact), 0}};
            } else {
                m_response = plainError(404, QStringLiteral("no route for ") + QString::fromLatin1(request.path));
            }
        }
        if (responder)
            m_response = responder(request); // outside the lock: it may be slow or call back into the server
        m_playing = true;
        m_requestOpen = true;
        m_next = -1; // the headers come first
        m_timer.start(m_response.headersDelayMs);
    }

    // Writes the next piece (headers, a chunk, the end or a fault); re-arms the timer for the piece after it.
    void step()
    {
        for (;;) {
            if (m_next == -1) {
                writeHeaders();
            } else if (m_next < m_response.chunks.size()) {
                const QByteArray &data = m_response.chunks[m_next].data;
                if (m_response.chunked)
                    m_socket->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
                else
                    m_socket->write(data);
            }
            if (m_response.fault != Fault::None && m_next == m_response.faultAfterChunk) {
                m_next = std::numeric_limits<int>::max();
                m_socket->flush();
                if (m_response.faultDelayMs > 0) {
                    m_faultPending = true;
                    m_timer.start(m_response.faultDelayMs);
                    return;
                }
                fault();
                return;
            }
            if (m_faultPending) {
                fault();
                return;
            }
            ++m_next;
            if (m_next >= m_response.chunks.size()) {
                endResponse();
                return;
            }
            const int delay = m_response.chunks[m_next].delayMs;
            if (delay > 0) {
                m_timer.start(delay);
                return;
            }
        }
    }

    void writeHeaders()
    {
        QByteArray head
            = "HTTP/1.1 " + QByteArray::number(m_response.status) + ' ' + reasonPhrase(m_response.status) + "\r\n";
        bool contentType = false;
        for (const auto &[key, value] : std::as_const(m_response.headers)) {
            head += key + ": " + value + "\r\n";
            contentType = contentType || key.compare("Content-Type", Qt::CaseInsensitive) == 0;
        }
        if (!contentType)
            head += "Content-Type: application/json\r\n";
        if (m_response.chunked)
            head += "Transfer-Encoding: chunked\r\n";
        else
            head += "Content-Length: " + QByteArray::number(m_response.body().size()) + "\r\n";
        if (m_closeAfter)
            head += "Connection: close\r\n";
        m_socket->write(head + "\r\n");
    }

    void fault()
    {
        m_faultPending = false;
        switch (m_response.fault) {
        case Fault::None:
        case Fault::Stall:
            return; // nothing more is written; the client's idle timer or cancel ends it
        case Fault::Close:
            m_socket->disconnectFromHost();
            return;
        case Fault::Reset: {
            const linger abortive {1, 0};
            ::setsockopt(int(m_socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
            m_socket->abort();
            finish();
            return;
        }
        }
    }

    void endResponse()
    {
        if (m_response.chunked)
            m_socket->write("0\r\n\r\n");
        closeRequest();
        m_playing = false;
        if (m_closeAfter) {
            m_socket->disconnectFromHost();
            return;
        }
        QMetaObject::invokeMethod(
            this, [this] { readRequests(); }, Qt::QueuedConnection);
    }

    void closeRequest()
    {
        if (!m_requestOpen)
            return;
        m_requestOpen = false;
        QMutexLocker lock(&m_shared->mutex);
        --m_shared->open;
    }

    void finish()
    {
        if (m_finished)
            return;
        m_finished = true;
        m_timer.stop();
        closeRequest();
        deleteLater();
    }

    QTcpSocket *m_socket;
    std::shared_ptr<OpenAiServerState> m_shared;
    QTimer m_timer {this};
    QByteArray m_input;
    ScriptedResponse m_response;
    int m_next = -1;
    bool m_playing = false;
    bool m_requestOpen = false;
    bool m_continued = false;
    bool m_closeAfter = false;
    bool m_faultPending = false;
    bool m_finished = false;
};

} // namespace

class OpenAiServer::Core : public QObject
{
public:
    explicit Core(std::shared_ptr<OpenAiServerState> shared)
        : m_shared(std::move(shared))
    { }

    quint16 listen()
    {
        m_server = new QTcpServer(this);
        connect(m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server->nextPendingConnection()) {
                {
                    QMutexLocker lock(&m_shared->mutex);
                    ++m_shared->connections;
                }
                new Connection(socket, m_shared, this);
            }
        });
        if (!m_server->listen(QHostAddress::LocalHost, 0))
            return 0;
        return m_server->serverPort();
    }

    // Runs on the core's thread: everything with timers or sockets is deleted there, then the core comes home.
    void shutdown(QThread *home)
    {
        const QObjectList children = this->children();
        for (QObject *child : children)
            delete child;
        m_server = nullptr;
        if (home != thread())
            moveToThread(home);
    }

private:
    std::shared_ptr<OpenAiServerState> m_shared;
    QTcpServer *m_server = nullptr;
};

OpenAiServer::OpenAiServer(Threading threading)
    : m_shared(std::make_shared<OpenAiServerState>())
    , m_core(std::make_unique<Core>(m_shared))
{
    if (threading == Threading::OwnThread) {
        m_thread = std::make_unique<QThread>();
        m_thread->setObjectName(QStringLiteral("openai-server"));
        m_core->moveToThread(m_thread.get());
        m_thread->start();
    }
}

OpenAiServer::~OpenAiServer()
{
    if (m_thread) {
        QThread *home = QThread::currentThread();
        QMetaObject::invokeMethod(
            m_core.get(), [this, home] { m_core->shutdown(home); }, Qt::BlockingQueuedConnection);
        m_thread->quit();
        m_thread->wait();
    } else {
        m_core->shutdown(QThread::currentThread());
    }
}

bool OpenAiServer::listen()
{
    if (m_thread)
        QMetaObject::invokeMethod(
            m_core.get(), [this] { m_port = m_core->listen(); }, Qt::BlockingQueuedConnection);
    else
        m_port = m_core->listen();
    return m_port != 0;
}

quint16 OpenAiServer::port() const { return m_port; }

QString OpenAiServer::baseUrl() const { return QStringLiteral("http://127.0.0.1:%1/v1").arg(m_port); }

void OpenAiServer::enqueue(ScriptedResponse response)
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->queue.push_back(std::move(response));
}

void OpenAiServer::setResponder(Responder responder)
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->responder = std::move(responder);
}

void OpenAiServer::setModels(QStringList ids)
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->models = std::move(ids);
}

void OpenAiServer::setModelsResponse(ScriptedResponse response)
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->modelsResponse = std::move(response);
}

QList<RecordedRequest> OpenAiServer::requests() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->requests;
}

int OpenAiServer::requestCount() const
{
    QMutexLocker lock(&m_shared->mutex);
    return int(m_shared->requests.size());
}

int OpenAiServer::openRequests() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->open;
}

int OpenAiServer::maxOpenRequests() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->maxOpen;
}

int OpenAiServer::connectionCount() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->connections;
}

} // namespace gpuf::test
