// Request bodies, profile checks and the retry schedule.
#include "core/llm/chat_protocol.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace gpuf::llm {

QByteArray buildRequestBody(const EndpointProfile &profile, const ChatRequest &request, bool stream)
{
    QJsonObject body {
        {QStringLiteral("model"), profile.model},
        {QStringLiteral("messages"), request.messages},
        {QStringLiteral("temperature"), profile.temperature},
        {QStringLiteral("max_tokens"), profile.maxTokens},
        {QStringLiteral("stream"), stream},
    };
    if (!profile.reasoningEffort.isEmpty())
        body.insert(QStringLiteral("reasoning_effort"), profile.reasoningEffort);
    if (!request.tools.isEmpty()) {
        body.insert(QStringLiteral("tools"), request.tools);
        if (!request.toolChoice.isEmpty())
            body.insert(QStringLiteral("tool_choice"), request.toolChoice);
    }
    if (stream)
        body.insert(QStringLiteral("stream_options"), QJsonObject {{QStringLiteral("include_usage"), true}});
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

Status checkProfile(const EndpointProfile &profile)
{
    if (profile.baseUrl.trimmed().isEmpty())
        return Error {QStringLiteral("the endpoint profile has no base URL")};
    if (profile.model.trimmed().isEmpty())
        return Error {QStringLiteral("the endpoint profile names no model")};
    for (const auto &[name, value] : profile.extraHeaders) {
        if (name.trimmed().compare("Authorization", Qt::CaseInsensitive) == 0) {
            return Error {QStringLiteral("extra headers may not set Authorization: the API key comes from an "
                                         "environment variable or the keychain")};
        }
        const auto broken = [](const QByteArray &text) { return text.contains('\r') || text.contains('\n'); };
        if (name.trimmed().isEmpty() || name.contains(':') || broken(name) || broken(value))
            return Error {QStringLiteral("extra header \"%1\" is not a valid header").arg(QString::fromLatin1(name))};
    }
    return {};
}

std::optional<qint64> parseRetryAfterMs(QByteArrayView value, const QDateTime &now)
{
    const QByteArray text = value.trimmed().toByteArray();
    if (text.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qint64 seconds = text.toLongLong(&ok);
    if (ok)
        return seconds < 0 ? std::nullopt : std::optional<qint64>(seconds * 1000);
    // IMF-fixdate, the only form HTTP/1.1 senders may use.
    QDateTime when
        = QLocale::c().toDateTime(QString::fromLatin1(text), QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"));
    if (!when.isValid())
        return std::nullopt;
    when.setTimeSpec(Qt::UTC);
    return std::max<qint64>(0, now.msecsTo(when));
}

qint64 backoffDelayMs(int backoffBaseMs, int attempt, double unitRandom)
{
    const double exponential = std::max(0, backoffBaseMs) * std::pow(2.0, std::clamp(attempt - 1, 0, 20));
    const double jittered = exponential * (0.5 + std::clamp(unitRandom, 0.0, 1.0));
    return qint64(std::min(jittered, 60000.0));
}

bool isRetryableHttpStatus(int status) { return status == 408 || status == 429 || (status >= 500 && status <= 599); }

QString formatSeconds(double seconds) { return QString::number(seconds, 'f', 1) + QStringLiteral(" s"); }

} // namespace gpuf::llm
