// Forecast and Forecaster: a predicted distribution over the 8 speedup bins (DESIGN §3, §5).
#pragma once

#include "core/domain/problem.h"

#include <array>
#include <optional>

namespace gpuf {

enum class ForecastStatus { Ok, ParseFailed, Error };
enum class ForecasterKind { Llm, CostModel, Import, Human }; // Human: a student profile; its forecasts are answers

QString forecastStatusName(ForecastStatus status);
std::optional<ForecastStatus> forecastStatusFromName(const QString &name);
QString forecasterKindName(ForecasterKind kind);
std::optional<ForecasterKind> forecasterKindFromName(const QString &name);

struct Forecaster
{
    RowId id = 0;
    QString name; // unique within a store
    ForecasterKind kind = ForecasterKind::Import;
    QString displayName;
    QJsonObject config; // endpoint, model, sampling, prompt version — never an API key
};

struct Forecast
{
    RowId id = 0;
    RowId referenceKernelId = 0;
    RowId candidateKernelId = 0;
    RowId hardwareId = 0; // 0: no hardware given
    RowId forecasterId = 0;
    int repeat = 0;
    std::array<double, 8> probabilities {}; // renormalised; bins 1..8 in order
    std::optional<int> predictedBin; // the model's own choice, 1..8
    std::optional<double> rawProbabilitySum;
    QString reasoning;
    QString response; // full raw response
    QString messages; // what the forecaster saw (JSON text)
    qint64 tokensIn = -1;
    qint64 tokensOut = -1;
    double latencySeconds = -1.0;
    ForecastStatus status = ForecastStatus::Ok;
    QString errorText;
    QString cacheKey;
    QDateTime createdAt;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::Forecaster)
Q_DECLARE_METATYPE(gpuf::Forecast)
