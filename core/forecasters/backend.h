// The forecaster interface (DESIGN §5): one request (a reference and a candidate kernel) in, one Forecast out,
// asynchronously, on the thread of whoever drives it (the forecast engine's thread). The LLM backend answers after
// an HTTP exchange; a synchronous backend (the cost model) may answer inside start().
#pragma once

#include "core/domain/forecast.h"
#include "core/domain/hardware.h"
#include "core/domain/kernel.h"

#include <QJsonObject>
#include <QObject>

#include <optional>

namespace gpuf {

// What one forecast is asked about. Runtimes are never part of it: the forecaster must not see them.
struct ForecastRequest
{
    quint64 id = 0; // chosen by the caller; unique among its open requests
    Kernel reference;
    Kernel candidate;
    QString operation; // the operation's name as shown to the forecaster (the problem's name)
    std::optional<Hardware> hardware; // nullopt: the forecaster is told nothing about the GPU
    int repeat = 0; // sample index among N independent samples of the same pair (0-based)
};

// One forecasting method. Contract:
// - start() answers every request it accepts with exactly one finished() carrying the request's id, unless the
//   request is cancelled first; finished() may be emitted before start() returns (synchronous backends).
// - After cancel(id) nothing more is emitted for that id; cancelling an unknown or finished id does nothing.
// - Failures are data: the Forecast's status says ok / parse_failed / error and errorText says why.
// - The Forecast carries the request's kernel ids, hardware id (0 when none), repeat, the backend's forecaster id
//   and cacheKey(request); the engine stores it as it arrives.
class ForecastBackend : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    ~ForecastBackend() override = default;

    // Same key ⇒ a stored forecast with that key answers the request: the forecaster's answer-relevant
    // configuration, the prompt (or model) version, both kernels' content hashes, the hardware and the repeat.
    virtual QString cacheKey(const ForecastRequest &request) const = 0;
    // Requests the engine may keep open at once on this backend.
    virtual int concurrency() const { return 1; }

    virtual void start(const ForecastRequest &request) = 0;
    virtual void cancel(quint64 requestId) = 0;

Q_SIGNALS:
    // A piece of the forecaster's reasoning as it streams (backends that do not stream never emit it).
    void reasoningDelta(quint64 requestId, const QString &text);
    void finished(quint64 requestId, const gpuf::Forecast &forecast);
};

// The cache key every backend builds: a SHA-256 over the configuration (canonical JSON), a version string, the two
// content hashes, the hardware as shown to forecasters and the repeat; prefixed with "fc1:" so the format can change.
QString forecastCacheKey(const QJsonObject &configuration, const QString &version, const ForecastRequest &request);

// The hardware as forecasters see it, one stable line ("" when none); part of every cache key.
QString hardwareFingerprint(const std::optional<Hardware> &hardware);

// A Forecast with the request's identity filled in (ids, repeat, key); the backend adds the rest.
Forecast forecastFor(const ForecastRequest &request, RowId forecasterId, const QString &cacheKey);

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::ForecastRequest)
