// The physics prior (issue 28, issue 25 item 6): a forecaster from the roofline alone, the baseline every learned or
// language-model forecaster's skill is measured against. Each kernel's time is estimated as its roofline floor — the
// larger of bytes ÷ peak bandwidth and FLOPs ÷ peak FLOP rate, from its spec's `bytes_moved` and `flops` per case —
// divided by the share of the bandwidth its launch can keep busy (Little's law: a launch with fewer threads than a
// share of what the GPU holds at once cannot keep enough bytes in flight). The speedup is the ratio of the two
// estimates; the forecast is that speedup spread by a log-normal of fixed width over the 8 bins. It reads no runtime.
// Registered as the forecaster "roofline" (kind costmodel, model_source "roofline"); answers inside start().
#pragma once

#include "core/bins/bins.h"
#include "core/common/result.h"
#include "core/forecasters/backend.h"

#include <QStringList>

#include <optional>

namespace gpuf {

class Store;

inline constexpr char kRooflineForecasterName[] = "roofline";
inline constexpr char kRooflineModelSource[] = "roofline";

struct RooflineSettings
{
    double sigmaLog2 = 0.5; // the spread of the speedup in log2 units (one bin is 0.5)
    // A launch reaches the full bandwidth from this share of the threads the GPU holds at once (SMs × threads per SM);
    // fewer threads reach proportionally less.
    double saturatingOccupancy = 0.5;
};

// What the prior estimates for one pair.
struct RooflineEstimate
{
    double speedup = 1.0; // reference time ÷ candidate time, both estimated
    std::optional<double> referenceFloorNs; // geometric mean over the shared cases; absent without stated work
    std::optional<double> candidateFloorNs;
    double referenceReach = 1.0; // share of the peak bandwidth its launch can keep busy (1: unknown or saturating)
    double candidateReach = 1.0;
    QString peaks; // the peak rates used, for people
    QStringList cases; // the cases both kernels state work for
};

RooflineEstimate rooflineEstimate(const Kernel &reference, const Kernel &candidate,
    const std::optional<Hardware> &hardware, const RooflineSettings &settings = {});

// A log-normal around `speedup` (σ in log2 units) integrated over the bins' ranges.
bins::Distribution rooflineDistribution(double speedup, double sigmaLog2);

// The forecast of the prior for one request: probabilities, predicted bin, reasoning and the estimate as JSON.
Forecast rooflineForecast(const ForecastRequest &request, const Forecast &identity, const RooflineSettings &settings);

// The forecaster row ("roofline"), created on first use.
Result<Forecaster> ensureRooflineForecaster(Store &store);
bool isRooflineForecaster(const Forecaster &forecaster);

class RooflineBackend : public ForecastBackend
{
    Q_OBJECT

public:
    RooflineBackend(RowId forecasterId, const RooflineSettings &settings, QObject *parent = nullptr);

    QString cacheKey(const ForecastRequest &request) const override;
    void start(const ForecastRequest &request) override;
    void cancel(quint64 requestId) override;

private:
    RowId m_forecasterId = 0;
    RooflineSettings m_settings;
};

// The settings a forecaster row holds (its config), defaults where it says nothing.
RooflineSettings rooflineSettingsOf(const Forecaster &forecaster);

} // namespace gpuf
