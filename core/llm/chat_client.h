// ChatClient: one endpoint's chat-completions client. A QObject for its own QThread (the caller moves it there)
// that drives a libcurl multi handle from that thread's event loop and never blocks.
#pragma once

#include "core/llm/chat_types.h"

#include <QObject>

#include <memory>

namespace gpuf::llm {

class ChatClientPrivate;

// Requests beyond profile.concurrency wait in FIFO order. Every submitted request ends with exactly one finished()
// signal (also when cancelled or refused; not when the client is destroyed first); its deltas come before it, in
// order. Safe to call through queued connections from any thread once registerChatMetaTypes() ran (the constructor
// calls it).
//
// The total timeout counts from when a request leaves the queue, across its attempts and their backoff. The API
// key is looked up once (environment, then keychain: api_key.h) before the first request goes out and kept in
// memory for the client's life; a failed lookup fails the waiting requests, and the next submit looks again.
//
// With more than 4 requests in flight, the sockets are read in batches every 40 ms and a request's pieces of one
// batch come as one delta: dozens of streams then cost a few percent of a core instead of a wake-up per token.
class ChatClient : public QObject
{
    Q_OBJECT
public:
    explicit ChatClient(EndpointProfile profile, QObject *parent = nullptr);
    ~ChatClient() override;

    const EndpointProfile &profile() const;

public Q_SLOTS:
    void submit(const gpuf::llm::ChatRequest &request);
    // The connection of an in-flight request is dropped at once; finished(Cancelled) follows. Unknown ids are
    // ignored (the request may have finished already).
    void cancel(quint64 requestId);
    void cancelAll();

Q_SIGNALS:
    void delta(const gpuf::llm::ChatDelta &delta);
    void finished(const gpuf::llm::ChatResult &result);

private:
    friend class ChatClientPrivate;
    std::unique_ptr<ChatClientPrivate> d;
};

} // namespace gpuf::llm
