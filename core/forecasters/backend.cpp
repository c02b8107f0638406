// Helpers every forecast backend shares; see backend.h.
#include "core/forecasters/backend.h"

#include <QCryptographicHash>
#include <QJsonDocument>

namespace gpuf {

QString hardwareFingerprint(const std::optional<Hardware> &hardware)
{
    if (!hardware)
        return {};
    const Hardware &h = *hardware;
    // The figures at the precision the prompt shows them: a change the forecaster cannot see is not a new key.
    return QStringLiteral("%1|%2|%3|%4|%5|%6|%7|%8")
        .arg(h.name, h.computeCapability, QString::number(h.globalMemoryGb, 'f', 1))
        .arg(h.smCount)
        .arg(h.maxThreadsPerSm)
        .arg(QString::number(h.clockGhz, 'f', 2), QString::number(h.memoryClockGhz, 'f', 2))
        .arg(h.busWidthBits);
}

QString forecastCacheKey(const QJsonObject &configuration, const QString &version, const ForecastRequest &request)
{
    // QJsonDocument writes object keys sorted, so the same configuration always hashes the same.
    const QJsonObject parts {{QStringLiteral("configuration"), configuration}, {QStringLiteral("version"), version},
        {QStringLiteral("reference"), request.reference.contentHash},
        {QStringLiteral("candidate"), request.candidate.contentHash},
        {QStringLiteral("hardware"), hardwareFingerprint(request.hardware)},
        {QStringLiteral("repeat"), request.repeat}};
    const QByteArray digest
        = QCryptographicHash::hash(QJsonDocument(parts).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256);
    return QStringLiteral("fc1:") + QString::fromLatin1(digest.toHex());
}

Forecast forecastFor(const ForecastRequest &request, RowId forecasterId, const QString &cacheKey)
{
    Forecast f;
    f.referenceKernelId = request.reference.id;
    f.candidateKernelId = request.candidate.id;
    f.hardwareId = request.hardware ? request.hardware->id : 0;
    f.forecasterId = forecasterId;
    f.repeat = request.repeat;
    f.cacheKey = cacheKey;
    return f;
}

} // namespace gpuf
