// BackendForecaster; see candidate_forecaster.h.
#include "core/search/candidate_forecaster.h"

#include "core/bins/bins.h"
#include "core/forecasters/backend.h"

namespace gpuf::search {

ForecastAnswer answerFor(const QString &requestId, const Forecast &forecast)
{
    ForecastAnswer a;
    a.requestId = requestId;
    a.forecast = forecast;
    if (forecast.status == ForecastStatus::Ok) {
        a.predictedBin = forecast.predictedBin.value_or(bins::argmaxBin(forecast.probabilities));
        a.expectedBin = bins::expectedBin(forecast.probabilities);
        a.confidence = bins::confidence(bins::ConfidenceScore::MaxProb, forecast.probabilities, a.predictedBin);
    }
    return a;
}

BackendForecaster::BackendForecaster(std::unique_ptr<ForecastBackend> backend, QString name, RowId forecasterId,
    Kernel reference, QString operation, std::optional<Hardware> hardware)
    : m_backend(std::move(backend))
    , m_name(std::move(name))
    , m_forecasterId(forecasterId)
    , m_reference(std::move(reference))
    , m_operation(std::move(operation))
    , m_hardware(std::move(hardware))
{
    QObject::connect(m_backend.get(), &ForecastBackend::finished, m_backend.get(),
        [this](quint64 id, const gpuf::Forecast &forecast) { onFinished(id, forecast); });
}

BackendForecaster::~BackendForecaster() { cancel(); }

void BackendForecaster::request(const QList<ForecastAsk> &asks, Done done)
{
    m_done = std::move(done);
    for (const ForecastAsk &ask : asks) {
        ForecastRequest request;
        request.id = m_nextId++;
        request.reference = m_reference;
        request.candidate = ask.candidate;
        request.operation = m_operation;
        request.hardware = m_hardware;
        m_open.insert(request.id, ask.requestId);
        m_backend->start(request);
    }
}

void BackendForecaster::cancel()
{
    const QList<quint64> ids = m_open.keys();
    m_open.clear();
    for (quint64 id : ids)
        m_backend->cancel(id);
}

void BackendForecaster::onFinished(quint64 id, const Forecast &forecast)
{
    const QString requestId = m_open.take(id);
    if (requestId.isEmpty() || !m_done)
        return;
    m_done(answerFor(requestId, forecast));
}

} // namespace gpuf::search
