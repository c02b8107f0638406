// measuredSpeedup and caseStatus; see measured_speedup.h.
#include "core/store/measured_speedup.h"

#include "core/bins/bins.h"

#include <vector>

namespace gpuf {

MeasurementStatus caseStatus(const QString &statusName, double medianNs)
{
    const MeasurementStatus status
        = measurementStatusFromName(statusName).value_or(MeasurementStatus::InfrastructureFailure);
    if (status == MeasurementStatus::Ok && !(medianNs > 0))
        return MeasurementStatus::InfrastructureFailure;
    return status;
}

MeasuredSpeedup measuredSpeedup(std::span<const CaseTiming> candidate, std::span<const CaseTiming> baseline)
{
    MeasuredSpeedup result;
    if (candidate.empty())
        return result;
    for (const CaseTiming &run : candidate) {
        if (run.status != MeasurementStatus::Ok) {
            result.state = MeasuredSpeedup::State::Failed;
            result.failure = run.status;
            result.replayed = run.replayed;
            return result;
        }
    }
    result.state = MeasuredSpeedup::State::NoBaseline;
    bool candidateReplayed = false;
    bool pairReplayed = false;
    std::vector<double> speedups;
    speedups.reserve(candidate.size());
    auto base = baseline.begin();
    for (const CaseTiming &run : candidate) {
        candidateReplayed = candidateReplayed || run.replayed;
        while (base != baseline.end() && base->caseId < run.caseId)
            ++base;
        if (base == baseline.end())
            continue; // the rest of the candidate's cases have no baseline; they still count for candidateReplayed
        if (base->caseId == run.caseId && base->status == MeasurementStatus::Ok && base->medianNs > 0) {
            speedups.push_back(base->medianNs / run.medianNs);
            pairReplayed = pairReplayed || run.replayed || base->replayed;
        }
    }
    result.replayed = candidateReplayed;
    if (const auto mean = bins::geometricMean(speedups)) {
        result.state = MeasuredSpeedup::State::Speedup;
        result.speedup = *mean;
        result.cases = int(speedups.size());
        result.replayed = pairReplayed;
    }
    return result;
}

} // namespace gpuf
