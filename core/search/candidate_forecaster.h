// Forecasts of a search's proposals against the problem's reference, through any ForecastBackend (the cost model, an
// LLM endpoint). Lives on the engine's thread; answers come back through a callback, one per request.
#pragma once

#include "core/domain/forecast.h"
#include "core/domain/hardware.h"
#include "core/domain/kernel.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace gpuf {
class ForecastBackend;
}

namespace gpuf::search {

struct ForecastAsk
{
    QString requestId;
    Kernel candidate; // source and parameters; id when stored
};

struct ForecastAnswer
{
    QString requestId;
    Forecast forecast; // status says ok / parse_failed / error
    double expectedBin = 0.0;
    double confidence = 0.0; // p of the predicted bin (max_prob, paper-facts §3)
    int predictedBin = 0;
};

class CandidateForecaster
{
public:
    using Done = std::function<void(ForecastAnswer)>;
    virtual ~CandidateForecaster() = default;
    virtual QString name() const = 0;
    virtual RowId forecasterId() const = 0;
    virtual void request(const QList<ForecastAsk> &asks, Done done) = 0;
    virtual void cancel() = 0;
};

// Adapts a ForecastBackend: every ask becomes a ForecastRequest of (reference, candidate) for the problem.
class BackendForecaster : public CandidateForecaster
{
public:
    BackendForecaster(std::unique_ptr<ForecastBackend> backend, QString name, RowId forecasterId, Kernel reference,
        QString operation, std::optional<Hardware> hardware);
    ~BackendForecaster() override;
    QString name() const override { return m_name; }
    RowId forecasterId() const override { return m_forecasterId; }
    void request(const QList<ForecastAsk> &asks, Done done) override;
    void cancel() override;

private:
    void onFinished(quint64 id, const Forecast &forecast);

    std::unique_ptr<ForecastBackend> m_backend;
    QString m_name;
    RowId m_forecasterId = 0;
    Kernel m_reference;
    QString m_operation;
    std::optional<Hardware> m_hardware;
    QHash<quint64, QString> m_open; // backend request id → ask request id
    quint64 m_nextId = 1;
    Done m_done;
};

// The answer's scores from a finished Forecast.
ForecastAnswer answerFor(const QString &requestId, const Forecast &forecast);

} // namespace gpuf::search
