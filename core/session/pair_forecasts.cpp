// The forecast panel's data for one pair; see pair_forecasts.h.
#include "core/session/pair_forecasts.h"

#include "core/domain/roofline.h"
#include "core/metrics/selective.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>

#include <map>
#include <vector>

namespace gpuf {
namespace {

// Case name → a small id shared by both kernels, so equal names line up in measuredSpeedup().
using CaseIds = QHash<QString, int>;
// hardware → case id → newest timing (lists arrive in id order: later rows replace earlier ones).
using Timings = std::map<RowId, std::map<int, CaseTiming>>;

Timings timingsOf(const QList<Measurement> &runs, CaseIds &caseIds)
{
    Timings timings;
    for (const Measurement &m : runs) {
        auto id = caseIds.constFind(m.caseName);
        if (id == caseIds.cend())
            id = caseIds.insert(m.caseName, int(caseIds.size()));
        const double median = m.runtime ? m.runtime->medianNs : 0.0;
        timings[m.hardwareId][*id] = CaseTiming {
            *id, caseStatus(measurementStatusName(m.status), median), median, m.source == MeasurementSource::Replay};
    }
    return timings;
}

// The newest time a replay on `hardwareId` among `runs` says its runtime was recorded (measure::replayRows).
QDateTime newestReplayRecording(const QList<Measurement> &runs, RowId hardwareId)
{
    QDateTime newest;
    for (const Measurement &m : runs) {
        if (m.source != MeasurementSource::Replay || m.hardwareId != hardwareId)
            continue;
        const QDateTime at = QDateTime::fromString(
            m.provenance.value(QLatin1StringView("replay_of_time")).toString(), Qt::ISODateWithMs);
        if (at.isValid() && (!newest.isValid() || at > newest))
            newest = at;
    }
    return newest;
}

std::vector<CaseTiming> flattened(const std::map<int, CaseTiming> &cases)
{
    std::vector<CaseTiming> list;
    list.reserve(cases.size());
    for (const auto &[id, timing] : cases)
        list.push_back(timing);
    return list;
}

// The candidate's newest ok run of each case on `hardwareId` that beats the bandwidth floor.
ImplausibleMark implausibleRuns(const QList<Measurement> &runs, const Hardware &hardware, const QJsonObject &spec)
{
    std::map<QString, const Measurement *> newest;
    for (const Measurement &m : runs) {
        if (m.hardwareId == hardware.id)
            newest[m.caseName] = &m;
    }
    ImplausibleMark mark {0, hardware.id, hardware.name, {}};
    const double bandwidth = peakRatesOf(hardware).bandwidthGBs;
    for (const auto &[caseName, m] : newest) {
        if (m->status != MeasurementStatus::Ok || !m->runtime)
            continue;
        mark.kernelId = m->kernelId;
        std::optional<double> bytes = counterCaseWork(m->counters).bytes;
        if (!bytes) {
            if (const Result<CaseWork> work = specCaseWork(spec, caseName))
                bytes = work->bytes;
        }
        const Plausibility p = plausibilityOf(m->runtime->medianNs, m->counters, bytes, bandwidth);
        if (p.isImplausible())
            mark.cases.append({caseName, p.timeNs, p.floorNs, p.fromWorker});
    }
    return mark;
}

QString kernelName(const Kernel &kernel) { return kernel.name.isEmpty() ? kernel.contentHash.left(12) : kernel.name; }

QList<Measurement> pairRunsOnHardware(const QList<Measurement> &runs, RowId hardwareId)
{
    QList<Measurement> out;
    for (const Measurement &m : runs) {
        if (m.hardwareId == hardwareId)
            out.append(m);
    }
    return out;
}

} // namespace

std::optional<PairTruth> PairForecasts::truthFor(RowId hardwareId) const
{
    const PairTruth *fallback = nullptr;
    const PairTruth *speedup = nullptr;
    for (const PairTruth &t : truths) {
        if (t.measured.state == MeasuredSpeedup::State::Speedup) {
            if (t.hardwareId == hardwareId)
                return t;
            if (!speedup)
                speedup = &t;
        } else if (!fallback && t.measured.state != MeasuredSpeedup::State::None) {
            fallback = &t;
        }
    }
    if (speedup)
        return *speedup;
    if (fallback)
        return *fallback;
    return std::nullopt;
}

QString PairForecasts::forecasterName(RowId id) const
{
    const auto it = forecasters.constFind(id);
    if (it == forecasters.cend())
        return QStringLiteral("#%1").arg(id);
    return it->name; // the name every view and the command line use
}

QList<PairTruth> pairTruths(const QList<Measurement> &candidate, const QList<Measurement> &baseline,
    const QHash<RowId, Hardware> &hardware, const QJsonObject &spec)
{
    CaseIds caseIds;
    const Timings candidateTimings = timingsOf(candidate, caseIds);
    const Timings baselineTimings = timingsOf(baseline, caseIds);
    QList<PairTruth> truths;
    for (const auto &[hardwareId, cases] : candidateTimings) {
        const std::vector<CaseTiming> c = flattened(cases);
        const auto base = baselineTimings.find(hardwareId);
        const std::vector<CaseTiming> b
            = base == baselineTimings.end() ? std::vector<CaseTiming> {} : flattened(base->second);
        PairTruth truth;
        truth.measured = measuredSpeedup(c, b);
        truth.hardwareId = hardwareId;
        truth.hardwareName = hardware.value(hardwareId).name;
        Hardware gpu = hardware.value(hardwareId);
        gpu.id = hardwareId;
        truth.implausible = implausibleRuns(candidate, gpu, spec);
        truth.timings = measure::timingFigures(
            pairRunsOnHardware(candidate, hardwareId), pairRunsOnHardware(baseline, hardwareId));
        if (truth.measured.state == MeasuredSpeedup::State::Speedup)
            truth.bin = bins::binOf(truth.measured.speedup);
        if (truth.measured.replayed) {
            truth.replayRecordedAt = newestReplayRecording(candidate, hardwareId);
            if (!truth.replayRecordedAt.isValid())
                truth.replayRecordedAt = newestReplayRecording(baseline, hardwareId);
        }
        truths.append(truth);
    }
    return truths;
}

Result<PairForecasts> loadPairForecasts(Store &store, RowId candidateId, RowId baselineId, const CancelToken &cancel)
{
    PairForecasts pair;
    pair.candidateId = candidateId;
    pair.baselineId = baselineId;
    KernelRepo kernels(store);
    Kernel loaded[2];
    for (const RowId id : {candidateId, baselineId}) {
        auto kernel = kernels.find(id);
        if (!kernel)
            return Error {kernel.error()};
        if (!kernel->has_value())
            return Error {QCoreApplication::translate("gpuf::ForecastPanel", "kernel %1 is not in the store").arg(id)};
        (id == candidateId ? pair.candidateName : pair.baselineName) = kernelName(**kernel);
        (id == candidateId ? pair.candidateNotes : pair.baselineNotes) = (*kernel)->notes.trimmed();
        loaded[id == candidateId ? 0 : 1] = **kernel;
    }
    pair.featureGaps = features::pairGaps(loaded[1], pair.baselineName, loaded[0], pair.candidateName);
    if (cancel.isCancelled())
        return Error::cancelled();
    auto forecasts = ForecastRepo(store).forCandidate(candidateId);
    if (!forecasts)
        return Error {forecasts.error()};
    for (const Forecast &f : std::as_const(*forecasts)) {
        if (f.referenceKernelId == baselineId)
            pair.forecasts.append(f);
    }
    auto forecasters = ForecasterRepo(store).list();
    if (!forecasters)
        return Error {forecasters.error()};
    for (const Forecaster &f : std::as_const(*forecasters))
        pair.forecasters.insert(f.id, f);
    auto hardware = HardwareRepo(store).list();
    if (!hardware)
        return Error {hardware.error()};
    for (const Hardware &h : std::as_const(*hardware))
        pair.hardware.insert(h.id, h);
    MeasurementRepo measurements(store);
    auto candidateRuns = measurements.forKernel(candidateId);
    if (!candidateRuns)
        return Error {candidateRuns.error()};
    auto baselineRuns = measurements.forKernel(baselineId);
    if (!baselineRuns)
        return Error {baselineRuns.error()};
    // The work is the problem's: the candidate's own spec, else the baseline's (usually the problem's reference).
    QJsonObject spec = loaded[0].parameters.value(QLatin1StringView("spec")).toObject();
    if (!spec.contains(QLatin1StringView("bytes_moved")))
        spec = loaded[1].parameters.value(QLatin1StringView("spec")).toObject();
    pair.truths = pairTruths(*candidateRuns, *baselineRuns, pair.hardware, spec);
    pair.baselineMeasured = !baselineRuns->isEmpty();
    return pair;
}

ForecastFigures figuresOf(const bins::Distribution &p, int predictedBin)
{
    ForecastFigures f;
    f.p = p;
    f.predictedBin = predictedBin;
    f.maxProb = bins::confidence(bins::ConfidenceScore::MaxProb, p, predictedBin);
    f.negEntropy = bins::confidence(bins::ConfidenceScore::NegEntropy, p, predictedBin);
    f.top2Margin = bins::confidence(bins::ConfidenceScore::Top2Margin, p, predictedBin);
    f.entropy = bins::entropy(p);
    f.expectedBin = bins::expectedBin(p);
    f.expectedSpeedup = bins::expectedSpeedup(p);
    return f;
}

std::optional<ForecastFigures> figuresOf(const Forecast &forecast)
{
    if (forecast.status != ForecastStatus::Ok || !forecast.predictedBin || *forecast.predictedBin < 1
        || *forecast.predictedBin > bins::kBinCount)
        return std::nullopt;
    return figuresOf(forecast.probabilities, *forecast.predictedBin);
}

std::optional<ForecastFigures> combinedFigures(const QList<Forecast> &forecasts)
{
    bins::Distribution sum {};
    int parsed = 0;
    for (const Forecast &f : forecasts) {
        if (!figuresOf(f))
            continue;
        for (int b = 0; b < bins::kBinCount; ++b)
            sum[std::size_t(b)] += f.probabilities[std::size_t(b)];
        ++parsed;
    }
    if (parsed == 0)
        return std::nullopt;
    const std::optional<bins::Distribution> mean = bins::renormalised(sum);
    if (!mean)
        return std::nullopt;
    return figuresOf(*mean, bins::argmaxBin(*mean));
}

bool defersToGpu(const std::optional<ForecastFigures> &figures, double threshold)
{
    metrics::ScoredRow row;
    row.parsed = figures.has_value();
    if (figures) {
        row.p = figures->p;
        row.predictedBin = figures->predictedBin;
    }
    return metrics::abstains(row, bins::ConfidenceScore::MaxProb, threshold);
}

QString truthVerdict(int predictedBin, int trueBin)
{
    const int off = predictedBin - trueBin;
    if (off == 0)
        return QCoreApplication::translate("gpuf::ForecastPanel", "hit");
    // A plain variable as the count: lupdate skips a translate() call whose arguments hold a qualified call.
    const int offBy = std::abs(off);
    return off > 0 ? QCoreApplication::translate(
               "gpuf::ForecastPanel", "miss, off by %n bin(s) (predicted faster than measured)", nullptr, offBy)
                   : QCoreApplication::translate("gpuf::ForecastPanel",
                       "miss, off by %n bin(s) (predicted slower than measured)", nullptr, offBy);
}

} // namespace gpuf
