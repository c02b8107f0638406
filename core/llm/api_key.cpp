// API key lookup (skeleton).
#include "core/llm/api_key.h"

namespace gpuf::llm {

QString apiKeyFromEnvironment(const EndpointProfile &profile)
{
    if (profile.apiKeyEnv.isEmpty())
        return {};
    return qEnvironmentVariable(qPrintable(profile.apiKeyEnv));
}

void resolveApiKey(const EndpointProfile &profile, QObject *context, std::function<void(Result<QString>)> done)
{
    QMetaObject::invokeMethod(
        context, [key = apiKeyFromEnvironment(profile), done = std::move(done)] { done(key); }, Qt::QueuedConnection);
}

void storeApiKey(const QString &, const QString &, QObject *context, std::function<void(Status)> done)
{
    QMetaObject::invokeMethod(
        context, [done = std::move(done)] { done(Error {QStringLiteral("not implemented yet")}); },
        Qt::QueuedConnection);
}

void deleteApiKey(const QString &, QObject *context, std::function<void(Status)> done)
{
    QMetaObject::invokeMethod(
        context, [done = std::move(done)] { done(Error {QStringLiteral("not implemented yet")}); },
        Qt::QueuedConnection);
}

} // namespace gpuf::llm
