// ChatClient (skeleton: every request fails until the libcurl driver lands).
#include "core/llm/chat_client.h"

namespace gpuf::llm {

class ChatClientPrivate
{
public:
    EndpointProfile profile;
};

ChatClient::ChatClient(EndpointProfile profile, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<ChatClientPrivate>())
{
    registerChatMetaTypes();
    d->profile = std::move(profile);
}

ChatClient::~ChatClient() = default;

const EndpointProfile &ChatClient::profile() const { return d->profile; }

void ChatClient::submit(const ChatRequest &request)
{
    ChatResult result;
    result.requestId = request.id;
    result.status = ChatStatus::TransportError;
    result.error = QStringLiteral("not implemented yet");
    Q_EMIT finished(result);
}

void ChatClient::cancel(quint64) { }

void ChatClient::cancelAll() { }

} // namespace gpuf::llm
