// CurlMulti: a libcurl multi handle driven by the owning thread's Qt event loop, so transfers run concurrently on
// one thread without ever blocking: curl's sockets sit in one epoll set watched by a QSocketNotifier, curl's
// timeout is a QTimer.
#pragma once

#include <QObject>
#include <QTimer>

#include <functional>
#include <unordered_map>

#include <curl/curl.h>

class QSocketNotifier;

namespace gpuf::llm {

class CurlMulti : public QObject
{
public:
    using Done = std::function<void(CURLcode)>;

    explicit CurlMulti(QObject *parent = nullptr);
    ~CurlMulti() override; // removes (does not clean up) the easy handles still added

    // Starts a transfer; `done` runs once when it ends, never from inside a curl call (so it may add or remove
    // handles). False when curl refuses the handle.
    bool add(CURL *easy, Done done);
    // Stops a transfer at once (its connection is closed, not reused); `done` does not run. Must not be called
    // from a curl callback (write, header): those run inside curl calls.
    void remove(CURL *easy);
    bool contains(CURL *easy) const { return m_done.contains(easy); }

    // Runs after each batch of curl activity, before the `done` callbacks of the transfers that ended in it: the
    // place to emit what the write callbacks collected (they run inside curl, where emitting is unsafe).
    void setAfterActivity(std::function<void()> afterActivity) { m_afterActivity = std::move(afterActivity); }

    // With more than `busyTransfers` transfers, sockets are served in batches at most every `windowMs` (0: at
    // once): many streams then wake the thread tens of times a second instead of once per token each, and a
    // stream's tokens of one window arrive in one read. Default: more than 4 transfers, 40 ms (25 deliveries a
    // second, more than any view of a reasoning stream refreshes).
    void setBatching(int busyTransfers, int windowMs);

private:
    static int socketCallback(CURL *easy, curl_socket_t socket, int what, void *self, void *socketData);
    static int timerCallback(CURLM *multi, long timeoutMs, void *self);
    void watch(curl_socket_t socket, int what);
    void unwatch(curl_socket_t socket);
    void ready();
    void serve();
    void act(curl_socket_t socket, int events);
    void dispatchFinished();

    CURLM *m_multi = nullptr;
    int m_epoll = -1;
    QSocketNotifier *m_notifier = nullptr; // on m_epoll: some curl socket is ready
    QTimer m_timer {this}; // curl's own timeout
    QTimer m_batch {this}; // the end of a batching window
    int m_busyTransfers = 4;
    int m_windowMs = 40; // see setBatching()
    std::unordered_map<curl_socket_t, int> m_watches; // socket → CURL_POLL_* curl asked for
    std::unordered_map<CURL *, Done> m_done;
    std::function<void()> m_afterActivity;
};

// Whether a failed connect was refused (ECONNREFUSED): curl's own message says only "Couldn't connect to server".
bool connectionRefused(CURL *easy);

// curl_global_init once per process (it is not thread-safe before 7.84 and costly to repeat).
void ensureCurlGlobalInit();

} // namespace gpuf::llm
