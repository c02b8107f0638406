// CurlMulti: curl's socket and timer callbacks mapped onto QSocketNotifier and QTimer.
#include "core/llm/curl_multi.h"

#include <QSocketNotifier>

#include <cerrno>
#include <mutex>

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
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] { act(CURL_SOCKET_TIMEOUT, 0); });
}

CurlMulti::~CurlMulti()
{
    for (const auto &[easy, done] : m_done)
        curl_multi_remove_handle(m_multi, easy);
    m_done.clear();
    curl_multi_cleanup(m_multi);
    for (const auto &[socket, w] : m_watches) {
        delete w.read;
        delete w.write;
    }
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
    Watch &w = m_watches[socket];
    const auto ensure = [&](QSocketNotifier *&notifier, QSocketNotifier::Type type, int events, bool wanted) {
        if (!wanted) {
            if (notifier)
                notifier->setEnabled(false);
            return;
        }
        if (!notifier) {
            notifier = new QSocketNotifier(qintptr(socket), type, this);
            connect(notifier, &QSocketNotifier::activated, this, [this, socket, events] { act(socket, events); });
        }
        notifier->setEnabled(true);
    };
    ensure(w.read, QSocketNotifier::Read, CURL_CSELECT_IN, what & CURL_POLL_IN);
    ensure(w.write, QSocketNotifier::Write, CURL_CSELECT_OUT, what & CURL_POLL_OUT);
}

void CurlMulti::unwatch(curl_socket_t socket)
{
    const auto it = m_watches.find(socket);
    if (it == m_watches.end())
        return;
    // Called from inside curl, possibly while one of these notifiers is emitting: disable now, delete later. The
    // descriptor may be reused at once by a new socket; a disabled notifier does not get in its way.
    for (QSocketNotifier *notifier : {it->second.read, it->second.write}) {
        if (notifier) {
            notifier->setEnabled(false);
            notifier->deleteLater();
        }
    }
    m_watches.erase(it);
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
