// Names of chat statuses and metatype registration for the chat value types.
#include "core/llm/chat_types.h"

#include <mutex>

namespace gpuf::llm {

QString chatStatusName(ChatStatus status)
{
    switch (status) {
    case ChatStatus::Ok:
        return QStringLiteral("ok");
    case ChatStatus::Cancelled:
        return QStringLiteral("cancelled");
    case ChatStatus::TimedOut:
        return QStringLiteral("timed_out");
    case ChatStatus::HttpError:
        return QStringLiteral("http_error");
    case ChatStatus::TransportError:
        return QStringLiteral("transport_error");
    case ChatStatus::ProtocolError:
        return QStringLiteral("protocol_error");
    }
    return QStringLiteral("unknown");
}

void registerChatMetaTypes()
{
    static std::once_flag once;
    std::call_once(once, [] {
        qRegisterMetaType<gpuf::llm::EndpointProfile>();
        qRegisterMetaType<gpuf::llm::ChatRequest>();
        qRegisterMetaType<gpuf::llm::ChatDelta>();
        qRegisterMetaType<gpuf::llm::ChatResult>();
    });
}

} // namespace gpuf::llm
