// CurlMulti: curl's socket callback keeps an epoll set (Linux) in step, one QSocketNotifier on that set wakes the
// thread, and epoll_wait names the sockets to hand to curl_multi_socket_action. One descriptor in the event loop
// instead of one per connection keeps each wake-up cheap with dozens of streams.
#include "core/llm/curl_multi.h"

#include <QSocketNotifier>

#include <array>
#include <cerrno>
#include <mutex>

#include <sys/epoll.h>
#include <unistd.h>

namespace gpuf::llm {

void ensureCurlGlobalInit()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool connectionRefused(CURL *easy)
{
    long error = 0;
    return curl_easy_getinfo(easy, CURLINFO_OS_ERRNO, &error) == CURLE_OK && error == ECONNREFUSED;
}

CurlMulti::CurlMulti(QObject *parent)
    : QObject(parent)
{
    ensureCurlGlobalInit();
    m_multi = curl_multi_init();
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &CurlMulti::socketCallback);
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &CurlMulti::timerCallback);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    if (m_epoll >= 0) {
        m_notifier = new QSocketNotifier(m_epoll, QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this] { ready(); });
    } else {
        qWarning("gpuf: epoll_create1 failed (errno %d); HTTP transfers will not progress", errno);
    }
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] { act(CURL_SOCKET_TIMEOUT, 0); });
    m_batch.setSingleShot(true);
    m_batch.setTimerType(Qt::PreciseTimer);
    connect(&m_batch, &QTimer::timeout, this, [this] { serve(); });
}

CurlMulti::~CurlMulti()
{
    for (const auto &[easy, done] : m_done)
        curl_multi_remove_handle(m_multi, easy);
    m_done.clear();
    curl_multi_cleanup(m_multi);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

void CurlMulti::setBatching(int busyTransfers, int windowMs)
{
    m_busyTransfers = busyTransfers;
    m_windowMs = windowMs;
}

bool CurlMulti::add(CURL *easy, Done done)
{
    if (curl_multi_add_handle(m_multi, easy) != CURLM_OK)
        return false;
    m_done.emplace(easy, std::move(done));
    return true;
}

void CurlMulti::remove(CURL *easy)
{
    if (m_done.erase(easy) == 0)
        return;
    // An unfinished transfer's connection cannot be reused, so removing it closes the socket right away.
    curl_multi_remove_handle(m_multi, easy);
}

int CurlMulti::socketCallback(CURL *, curl_socket_t socket, int what, void *self, void *)
{
    auto *multi = static_cast<CurlMulti *>(self);
    if (what == CURL_POLL_REMOVE)
        multi->unwatch(socket);
    else
        multi->watch(socket, what);
    return 0;
}

int CurlMulti::timerCallback(CURLM *, long timeoutMs, void *self)
{
    auto *multi = static_cast<CurlMulti *>(self);
    if (timeoutMs < 0)
        multi->m_timer.stop();
    else
        multi->m_timer.start(int(timeoutMs)); // 0: as soon as the event loop is back (never recurse into curl)
    return 0;
}

void CurlMulti::watch(curl_socket_t socket, int what)
{
    epoll_event event {};
    event.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    event.data.fd = socket;
    const bool known = m_watches.contains(socket);
    m_watches[socket] = what;
    if (epoll_ctl(m_epoll, known ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, socket, &event) != 0 && errno == EEXIST)
        epoll_ctl(m_epoll, EPOLL_CTL_MOD, socket, &event); // a descriptor curl reused before telling us
}

void CurlMulti::unwatch(curl_socket_t socket)
{
    if (m_watches.erase(socket) == 0)
        return;
    epoll_ctl(m_epoll, EPOLL_CTL_DEL, socket, nullptr); // curl says so before it closes the socket
}

void CurlMulti::ready()
{
    if (m_batch.isActive())
        return;
    if (m_windowMs <= 0 || m_done.size() <= std::size_t(m_busyTransfers)) {
        serve();
        return;
    }
    // Level-triggered: the set stays readable until curl reads, so stop listening until the window ends.
    m_notifier->setEnabled(false);
    m_batch.start(m_windowMs);
}

void CurlMulti::serve()
{
    m_notifier->setEnabled(true);
    std::array<epoll_event, 128> events;
    int running = 0;
    for (;;) {
        const int count = epoll_wait(m_epoll, events.data(), int(events.size()), 0);
        for (int i = 0; i < count; ++i) {
            const auto socket = curl_socket_t(events[i].data.fd);
            if (!m_watches.contains(socket))
                continue; // curl closed it earlier in this batch
            const uint32_t e = events[i].events;
            const int flags = ((e & (EPOLLIN | EPOLLHUP)) ? CURL_CSELECT_IN : 0)
                | ((e & EPOLLOUT) ? CURL_CSELECT_OUT : 0) | ((e & EPOLLERR) ? CURL_CSELECT_ERR : 0);
            curl_multi_socket_action(m_multi, socket, flags, &running);
        }
        if (count < int(events.size()))
            break;
    }
    if (m_afterActivity)
        m_afterActivity();
    dispatchFinished();
}

void CurlMulti::act(curl_socket_t socket, int events)
{
    int running = 0;
    curl_multi_socket_action(m_multi, socket, events, &running);
    if (m_afterActivity)
        m_afterActivity();
    dispatchFinished();
}

void CurlMulti::dispatchFinished()
{
    std::vector<std::pair<CURL *, CURLcode>> ended;
    int left = 0;
    while (CURLMsg *message = curl_multi_info_read(m_multi, &left)) {
        if (message->msg == CURLMSG_DONE)
            ended.emplace_back(message->easy_handle, message->data.result);
    }
    for (const auto &[easy, code] : ended) {
        const auto it = m_done.find(easy);
        if (it == m_done.end())
            continue; // removed by an earlier callback of this batch
        Done done = std::move(it->second);
        m_done.erase(it);
        curl_multi_remove_handle(m_multi, easy);
        done(code);
    }
}

} // namespace gpuf::llm
