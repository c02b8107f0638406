// Loading a replay world from a store, and answering evaluations from it; see replay_world.h.
#include "core/search/replay_world.h"

#include "core/bins/bins.h"
#include "core/store/hardware_repo.h"
#include "core/store/measured_speedup.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QMap>

#include <cmath>

namespace gpuf::search {

const RecordedKernel *ReplayWorld::find(const QString &contentHash) const
{
    const auto it = byHash.constFind(contentHash);
    return it == byHash.cend() ? nullptr : &kernels[*it];
}

namespace {

struct Timings
{
    QList<CaseTiming> cases; // ascending case id
    QMap<int, QString> names;
    QString failureMessage;
};

// The newest measurement per case of one kernel on one hardware; case ids come from `caseIds` (shared by kernels).
Result<Timings> timingsOf(MeasurementRepo &repo, RowId kernelId, RowId hardwareId, QHash<QString, int> &caseIds,
    std::optional<MeasurementSource> source = std::nullopt)
{
    auto rows = repo.forKernel(kernelId, hardwareId);
    if (!rows)
        return Error {rows.error()};
    QMap<int, Measurement> newest;
    for (const Measurement &m : std::as_const(*rows)) {
        if (source && m.source != *source)
            continue;
        const int id = caseIds.value(m.caseName, int(caseIds.size()));
        caseIds.insert(m.caseName, id);
        auto it = newest.find(id);
        if (it == newest.end() || m.id > it->id)
            newest.insert(id, m);
    }
    Timings t;
    for (auto it = newest.cbegin(); it != newest.cend(); ++it) {
        const Measurement &m = *it;
        const double median = m.runtime ? m.runtime->medianNs : 0.0;
        t.cases.append({it.key(), caseStatus(measurementStatusName(m.status), median), median,
            m.source == MeasurementSource::Replay});
        t.names.insert(it.key(), m.caseName);
        if (m.status != MeasurementStatus::Ok && t.failureMessage.isEmpty())
            t.failureMessage = m.errorText.isEmpty() ? measurementStatusName(m.status) : m.errorText;
    }
    return t;
}

EvaluationFeedback::Kind failureKind(MeasurementStatus status)
{
    switch (status) {
    case MeasurementStatus::CompileFailed:
        return EvaluationFeedback::Kind::CompileFailed;
    case MeasurementStatus::RuntimeError:
    case MeasurementStatus::Timeout:
        return EvaluationFeedback::Kind::RuntimeError;
    case MeasurementStatus::Incorrect:
        return EvaluationFeedback::Kind::Incorrect;
    default:
        return EvaluationFeedback::Kind::InfrastructureFailure;
    }
}

std::optional<EvaluationFeedback> feedbackFrom(const Timings &candidate, const Timings &reference)
{
    const MeasuredSpeedup s = measuredSpeedup(candidate.cases, reference.cases);
    EvaluationFeedback f;
    f.replayed = true;
    switch (s.state) {
    case MeasuredSpeedup::State::None:
    case MeasuredSpeedup::State::NoBaseline:
        return std::nullopt;
    case MeasuredSpeedup::State::Failed:
        f.kind = failureKind(s.failure);
        f.errorType = measurementStatusName(s.failure);
        f.message = candidate.failureMessage;
        return f;
    case MeasuredSpeedup::State::Speedup:
        break;
    }
    f.kind = EvaluationFeedback::Kind::Success;
    f.aggregatedSpeedup = s.speedup;
    for (const CaseTiming &c : candidate.cases) {
        for (const CaseTiming &r : reference.cases) {
            if (r.caseId == c.caseId && r.medianNs > 0 && c.medianNs > 0)
                f.cases.append({candidate.names.value(c.caseId), r.medianNs / c.medianNs, c.medianNs, r.medianNs});
        }
    }
    return f;
}

} // namespace

Result<std::optional<EvaluationFeedback>> storedFeedback(
    Store &store, RowId kernelId, RowId referenceId, RowId hardwareId, const QString &source)
{
    MeasurementRepo measurements(store);
    QHash<QString, int> caseIds;
    auto reference = timingsOf(measurements, referenceId, hardwareId, caseIds);
    if (!reference)
        return Error {reference.error()};
    std::optional<MeasurementSource> wanted;
    if (!source.isEmpty())
        wanted = measurementSourceFromName(source);
    auto candidate = timingsOf(measurements, kernelId, hardwareId, caseIds, wanted);
    if (!candidate)
        return Error {candidate.error()};
    if (reference->cases.isEmpty() || candidate->cases.isEmpty())
        return std::optional<EvaluationFeedback>();
    auto feedback = feedbackFrom(*candidate, *reference);
    if (feedback)
        feedback->replayed = false;
    return feedback;
}

Result<ReplayWorld> loadReplayWorld(Store &store, const QString &problemName, const QString &hardwareName)
{
    ProblemRepo problems(store);
    auto problem = problems.findByName(problemName);
    if (!problem)
        return Error {problem.error()};
    if (!problem->has_value())
        return Error {QStringLiteral("no problem '%1' in %2").arg(problemName, store.path())};
    ReplayWorld world;
    world.problem = **problem;
    if (world.problem.referenceKernelId <= 0)
        return Error {QStringLiteral("problem '%1' has no reference kernel: a search measures every speedup against"
                                     " one (import the problem with its reference first)")
                          .arg(problemName)};
    KernelRepo kernels(store);
    auto reference = kernels.find(world.problem.referenceKernelId);
    if (!reference)
        return Error {reference.error()};
    if (!reference->has_value())
        return Error {QStringLiteral("problem '%1' names a reference kernel that is not stored").arg(problemName)};
    world.reference = **reference;

    HardwareRepo hardware(store);
    RowId hardwareId = 0;
    if (hardwareName.isEmpty()) {
        SearchRepo searches(store);
        auto busiest = searches.busiestHardware(world.problem.id);
        if (!busiest)
            return Error {busiest.error()};
        if (*busiest <= 0)
            return Error {QStringLiteral("problem '%1' has no recorded runtimes to replay (measure it, or import a"
                                         " sweep or the corpus measurements)")
                              .arg(problemName)};
        hardwareId = *busiest;
    }
    auto found = hardwareId > 0 ? hardware.find(hardwareId) : hardware.findByName(hardwareName);
    if (!found)
        return Error {found.error()};
    if (!found->has_value())
        return Error {QStringLiteral("no hardware '%1' in %2").arg(hardwareName, store.path())};
    world.hardware = **found;

    MeasurementRepo measurements(store);
    QHash<QString, int> caseIds;
    auto referenceTimings = timingsOf(measurements, world.reference.id, world.hardware.id, caseIds);
    if (!referenceTimings)
        return Error {referenceTimings.error()};
    if (referenceTimings->cases.isEmpty())
        return Error {QStringLiteral("the reference of '%1' has no recorded runtime on %2: nothing to replay against")
                          .arg(problemName, world.hardware.name)};
    auto all = kernels.list(world.problem.id);
    if (!all)
        return Error {all.error()};
    for (const Kernel &k : std::as_const(*all)) {
        if (k.id == world.reference.id)
            continue;
        auto timings = timingsOf(measurements, k.id, world.hardware.id, caseIds);
        if (!timings)
            return Error {timings.error()};
        auto feedback = feedbackFrom(*timings, *referenceTimings);
        if (!feedback)
            continue;
        world.byHash.insert(k.contentHash, int(world.kernels.size()));
        world.kernels.append({k, *feedback});
    }
    if (world.kernels.isEmpty())
        return Error {QStringLiteral("problem '%1' has no kernel besides its reference with recorded runtimes on %2")
                          .arg(problemName, world.hardware.name)};
    return world;
}

void ReplayEvaluator::request(const QList<EvaluationRequest> &requests, Done done)
{
    for (const EvaluationRequest &r : requests) {
        EvaluationResult result;
        result.requestId = r.requestId;
        if (r.contentHash == m_world->reference.contentHash) {
            result.feedback.kind = EvaluationFeedback::Kind::Success;
            result.feedback.aggregatedSpeedup = 1.0;
            result.feedback.replayed = true;
        } else if (const RecordedKernel *k = m_world->find(r.contentHash)) {
            result.feedback = k->feedback;
        } else {
            result.error = QStringLiteral("no recorded runtime of this kernel on %1 (replay measures nothing new)")
                               .arg(m_world->hardware.name);
        }
        done(result);
    }
}

} // namespace gpuf::search
