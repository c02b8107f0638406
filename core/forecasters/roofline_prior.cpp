// The roofline prior; see roofline_prior.h.
#include "core/forecasters/roofline_prior.h"

#include "core/domain/roofline.h"
#include "core/features/kernel_features.h"
#include "core/store/forecast_repo.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace gpuf {

namespace roofline_prior_detail {

// A forecast that names no GPU is judged against this one's peaks (its balance of bandwidth and FLOP rate).
constexpr char kNominalGpu[] = "NVIDIA H100 80GB HBM3";

QJsonObject specOf(const Kernel &k) { return k.parameters.value(QStringLiteral("spec")).toObject(); }

QStringList caseNames(const QJsonObject &spec)
{
    QStringList names;
    for (const QJsonValue c : spec.value(QStringLiteral("cases")).toArray())
        names << c.toObject().value(QStringLiteral("name")).toString();
    return names;
}

struct Peaks
{
    PeakRates rates;
    double threadsResident = 0.0; // threads the GPU holds at once (SMs × threads per SM); 0: not known
};

Peaks peaksFor(const std::optional<Hardware> &hardware)
{
    Peaks p;
    const std::optional<Hardware> nominal = hardwarePreset(QLatin1StringView(kNominalGpu));
    const Hardware *h = hardware ? &*hardware : (nominal ? &*nominal : nullptr);
    if (!h)
        return p;
    p.rates = peakRatesOf(*h);
    p.threadsResident = double(h->smCount) * double(h->maxThreadsPerSm);
    return p;
}

// bytes ÷ bandwidth against FLOPs ÷ peak rate, the larger; absent without stated work or peaks.
std::optional<double> floorNs(const CaseWork &work, const PeakRates &rates, Precision precision, double reach)
{
    std::optional<double> floor;
    if (work.bytes && rates.hasBandwidth())
        floor = *work.bytes / (rates.bandwidthGBs * reach); // bytes per GB/s = ns
    const double tflops = rates.tflops(precision) > 0 ? rates.tflops(precision) : rates.fp32Tflops;
    if (work.flops && tflops > 0)
        floor = std::max(floor.value_or(0.0), *work.flops / (tflops * 1e3)); // FLOPs per TFLOP/s = ps
    return floor;
}

// Little's law: the bytes in flight a launch sustains grow with its threads, and the memory system is busy from
// `saturating` of the resident threads on. 1 where the spec does not say how many threads it launches.
double reachOf(const Kernel &k, const Peaks &peaks, double saturating)
{
    const features::KernelFeatures f = features::extractKernelFeatures(k.source, k.language, k.parameters);
    const double threadsLog2 = f.value(features::KernelFeature::TotalThreadsLog2);
    if (!std::isfinite(threadsLog2) || peaks.threadsResident <= 0 || saturating <= 0)
        return 1.0;
    return std::clamp(std::exp2(threadsLog2) / (peaks.threadsResident * saturating), 1e-3, 1.0);
}

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

QString reasoningOf(const RooflineEstimate &e)
{
    const auto ns = [](const std::optional<double> &v) {
        return v ? QStringLiteral("%1 µs").arg(*v / 1e3, 0, 'g', 4) : QStringLiteral("not stated");
    };
    QString text = QStringLiteral("Physics prior (roofline, %1). Work each kernel states: reference floor %2, "
                                  "candidate floor %3 over %4 case(s).")
                       .arg(e.peaks, ns(e.referenceFloorNs), ns(e.candidateFloorNs))
                       .arg(e.cases.size());
    text += QStringLiteral(" Share of the bandwidth its launch keeps busy (threads launched against what the GPU "
                           "holds, Little's law): reference %1 %, candidate %2 %.")
                .arg(e.referenceReach * 100.0, 0, 'f', 0)
                .arg(e.candidateReach * 100.0, 0, 'f', 0);
    text += QStringLiteral(" Estimated speedup %1; the prior knows nothing else about the code.")
                .arg(bins::speedupText(e.speedup));
    return text;
}

} // namespace roofline_prior_detail

RooflineEstimate rooflineEstimate(const Kernel &reference, const Kernel &candidate,
    const std::optional<Hardware> &hardware, const RooflineSettings &settings)
{
    using namespace roofline_prior_detail;
    RooflineEstimate e;
    const Peaks peaks = peaksFor(hardware);
    e.peaks = hardware ? peaks.rates.source
                       : QStringLiteral("no GPU named: %1's peaks").arg(QLatin1StringView(kNominalGpu));
    if (e.peaks.isEmpty())
        e.peaks = QStringLiteral("%1 GB/s").arg(peaks.rates.bandwidthGBs, 0, 'f', 0);
    e.referenceReach = reachOf(reference, peaks, settings.saturatingOccupancy);
    e.candidateReach = reachOf(candidate, peaks, settings.saturatingOccupancy);
    const QJsonObject refSpec = specOf(reference);
    const QJsonObject candSpec = specOf(candidate);
    const QStringList candCases = caseNames(candSpec);
    double logRef = 0.0;
    double logCand = 0.0;
    for (const QString &name : caseNames(refSpec)) {
        if (!candCases.contains(name))
            continue;
        const auto refWork = specCaseWork(refSpec, name);
        const auto candWork = specCaseWork(candSpec, name);
        if (!refWork || !candWork)
            continue;
        const auto r = floorNs(*refWork, peaks.rates, precisionOf(refSpec), e.referenceReach);
        const auto c = floorNs(*candWork, peaks.rates, precisionOf(candSpec), e.candidateReach);
        if (!r || !c || *r <= 0 || *c <= 0)
            continue;
        e.cases << name;
        logRef += std::log(*r);
        logCand += std::log(*c);
    }
    if (!e.cases.isEmpty()) {
        const double n = double(e.cases.size());
        e.referenceFloorNs = std::exp(logRef / n);
        e.candidateFloorNs = std::exp(logCand / n);
        e.speedup = *e.referenceFloorNs / *e.candidateFloorNs;
    } else {
        e.speedup = e.referenceReach > 0 && e.candidateReach > 0 ? e.candidateReach / e.referenceReach : 1.0;
    }
    return e;
}

bins::Distribution rooflineDistribution(double speedup, double sigmaLog2)
{
    using namespace roofline_prior_detail;
    bins::Distribution p {};
    const double mu = std::log2(speedup);
    double previous = 0.0;
    for (int b = 1; b <= bins::kBinCount; ++b) {
        const double cdf = b == bins::kBinCount ? 1.0 : normalCdf((std::log2(bins::upperEdge(b)) - mu) / sigmaLog2);
        p[std::size_t(b - 1)] = cdf - previous;
        previous = cdf;
    }
    return p;
}

Forecast rooflineForecast(const ForecastRequest &request, const Forecast &identity, const RooflineSettings &settings)
{
    using namespace roofline_prior_detail;
    Forecast f = identity;
    const RooflineEstimate e = rooflineEstimate(request.reference, request.candidate, request.hardware, settings);
    f.probabilities = rooflineDistribution(e.speedup, settings.sigmaLog2);
    f.predictedBin = bins::argmaxBin(f.probabilities);
    f.rawProbabilitySum = 1.0;
    f.reasoning = reasoningOf(e);
    const auto optional = [](const std::optional<double> &v) { return v ? QJsonValue(*v) : QJsonValue(); };
    const QJsonObject response {{QStringLiteral("method"), QStringLiteral("roofline")},
        {QStringLiteral("speedup_estimate"), e.speedup},
        {QStringLiteral("reference_floor_ns"), optional(e.referenceFloorNs)},
        {QStringLiteral("candidate_floor_ns"), optional(e.candidateFloorNs)},
        {QStringLiteral("reference_reach"), e.referenceReach}, {QStringLiteral("candidate_reach"), e.candidateReach},
        {QStringLiteral("cases"), QJsonArray::fromStringList(e.cases)}, {QStringLiteral("peaks"), e.peaks},
        {QStringLiteral("sigma_log2"), settings.sigmaLog2},
        {QStringLiteral("saturating_occupancy"), settings.saturatingOccupancy}};
    f.response = QString::fromUtf8(QJsonDocument(response).toJson(QJsonDocument::Compact));
    f.status = ForecastStatus::Ok;
    f.tokensIn = 0;
    f.tokensOut = 0;
    f.latencySeconds = 0.0;
    return f;
}

bool isRooflineForecaster(const Forecaster &forecaster)
{
    return forecaster.kind == ForecasterKind::CostModel
        && forecaster.config.value(QStringLiteral("model_source")).toString()
        == QLatin1StringView(kRooflineModelSource);
}

RooflineSettings rooflineSettingsOf(const Forecaster &forecaster)
{
    RooflineSettings s;
    s.sigmaLog2 = forecaster.config.value(QStringLiteral("sigma_log2")).toDouble(s.sigmaLog2);
    s.saturatingOccupancy
        = forecaster.config.value(QStringLiteral("saturating_occupancy")).toDouble(s.saturatingOccupancy);
    return s;
}

Result<Forecaster> ensureRooflineForecaster(Store &store)
{
    ForecasterRepo repo(store);
    const QString name = QLatin1StringView(kRooflineForecasterName);
    auto existing = repo.findByName(name);
    if (!existing)
        return existing.failure();
    if (existing->has_value()) {
        if (!isRooflineForecaster(**existing))
            return Error {QStringLiteral("the store's forecaster '%1' is not the roofline prior").arg(name)};
        return **existing;
    }
    Forecaster row;
    row.name = name;
    row.kind = ForecasterKind::CostModel;
    row.displayName = QStringLiteral("Physics prior (roofline)");
    const RooflineSettings defaults;
    row.config = {{QStringLiteral("model_source"), QLatin1StringView(kRooflineModelSource)},
        {QStringLiteral("sigma_log2"), defaults.sigmaLog2},
        {QStringLiteral("saturating_occupancy"), defaults.saturatingOccupancy}, {QStringLiteral("version"), 1}};
    auto id = repo.ensure(row);
    if (!id)
        return id.failure();
    row.id = *id;
    return row;
}

RooflineBackend::RooflineBackend(RowId forecasterId, const RooflineSettings &settings, QObject *parent)
    : ForecastBackend(parent)
    , m_forecasterId(forecasterId)
    , m_settings(settings)
{ }

QString RooflineBackend::cacheKey(const ForecastRequest &request) const
{
    const QJsonObject configuration {{QStringLiteral("model_source"), QLatin1StringView(kRooflineModelSource)},
        {QStringLiteral("sigma_log2"), m_settings.sigmaLog2},
        {QStringLiteral("saturating_occupancy"), m_settings.saturatingOccupancy}};
    return forecastCacheKey(configuration, QStringLiteral("roofline/1"), request);
}

void RooflineBackend::start(const ForecastRequest &request)
{
    const Forecast identity = forecastFor(request, m_forecasterId, cacheKey(request));
    Q_EMIT finished(request.id, rooflineForecast(request, identity, m_settings));
}

void RooflineBackend::cancel(quint64 requestId)
{
    Q_UNUSED(requestId); // answered inside start(): nothing is ever pending
}

} // namespace gpuf
