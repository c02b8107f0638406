// readCandidateEvidence; see evidence_reads.h.
#include "core/evidence/evidence_reads.h"

#include "core/evidence/verdict_rules.h"
#include "core/measure/roofline_data.h"
#include "core/store/hardware_repo.h"
#include "core/store/measured_speedup.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "core/store/verdict_repo.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>

#include <map>

namespace gpuf::evidence {

namespace reads_detail {

QString tr(const char *text) { return QCoreApplication::translate("gpuf::evidence", text); }

std::optional<double> number(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1StringView(key));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

// An import without a spread stores neither samples nor an RSE (both read back as 0).
bool spreadRecorded(const RuntimeStats &r) { return r.samples > 1 || r.relStdErr > 0; }

Clocks clocksFrom(const QJsonValue &value)
{
    Clocks c;
    if (!value.isObject())
        return c;
    const QJsonObject o = value.toObject();
    c.recorded = true;
    c.available = o.value(QStringLiteral("available")).toBool();
    c.smMhz = o.value(QStringLiteral("sm_mhz")).toDouble();
    c.memMhz = o.value(QStringLiteral("mem_mhz")).toDouble();
    c.reason = o.value(QStringLiteral("reason")).toString();
    return c;
}

StopRule stopRuleFrom(const QJsonValue &value)
{
    StopRule s;
    if (!value.isObject())
        return s;
    const QJsonObject o = value.toObject();
    s.recorded = true;
    s.reachedTarget = o.value(QStringLiteral("reached_target")).toBool();
    s.targetRelStdErr = number(o, "target_rel_std_error");
    if (const auto v = number(o, "min_samples"))
        s.minSamples = int(*v);
    if (const auto v = number(o, "max_samples"))
        s.maxSamples = int(*v);
    s.timeBudgetMs = number(o, "time_budget_ms");
    if (const auto v = number(o, "warmup"))
        s.warmup = int(*v);
    return s;
}

Correctness correctnessFrom(const QJsonValue &value, const QJsonObject &tolerances)
{
    Correctness c;
    c.rtol = number(tolerances, "rtol");
    c.atol = number(tolerances, "atol");
    if (!value.isObject())
        return c;
    const QJsonObject o = value.toObject();
    c.recorded = true;
    c.checked = o.value(QStringLiteral("checked")).toBool();
    c.runs = o.value(QStringLiteral("runs")).toInt();
    c.elements = o.value(QStringLiteral("elements")).toInteger();
    c.mismatches = o.value(QStringLiteral("mismatches")).toInteger();
    c.note = o.value(QStringLiteral("note")).toString();
    for (const QJsonValue b : o.value(QStringLiteral("buffers")).toArray()) {
        const QJsonObject buffer = b.toObject();
        if (const auto abs = number(buffer, "max_abs_error"))
            c.maxAbsError = std::max(c.maxAbsError.value_or(0.0), *abs);
        if (const auto rel = number(buffer, "max_rel_error"))
            c.maxRelError = std::max(c.maxRelError.value_or(0.0), *rel);
    }
    return c;
}

QString measuredBy(const Measurement &m)
{
    const QJsonObject &p = m.provenance;
    switch (m.source) {
    case MeasurementSource::Replay: {
        const QString of = p.value(QStringLiteral("replay_of")).isDouble()
            ? QString::number(p.value(QStringLiteral("replay_of")).toInteger())
            : tr("a run");
        const QString when = p.value(QStringLiteral("replay_of_time")).toString();
        return when.isEmpty() ? tr("replay of recorded measurement %1").arg(of)
                              : tr("replay of recorded measurement %1 (recorded %2)").arg(of, when);
    }
    case MeasurementSource::Import: {
        QString from = p.value(QStringLiteral("imported_from")).toString();
        if (from.isEmpty())
            from = p.value(QStringLiteral("sweep")).toString();
        return from.isEmpty() ? tr("imported") : tr("imported from %1").arg(from);
    }
    case MeasurementSource::Local:
        break;
    }
    const QString version = p.value(QStringLiteral("worker_version")).toString();
    const QString node = p.value(QStringLiteral("cluster_node")).toString();
    if (!node.isEmpty())
        return tr("cluster node %1 (gpuf-measure %2)")
            .arg(node, version.isEmpty() ? tr("version not recorded") : version);
    if (!p.value(QStringLiteral("sweep")).toString().isEmpty())
        return tr("imported from sweep %1").arg(p.value(QStringLiteral("sweep")).toString());
    return version.isEmpty() ? tr("this machine's worker") : tr("this machine's worker (gpuf-measure %1)").arg(version);
}

std::optional<double> nsOf(const QJsonObject &figure, const QString &key)
{
    const QJsonValue v = figure.value(key);
    return v.isDouble() && v.toDouble() > 0.0 ? std::optional<double>(v.toDouble() * 1e3) : std::nullopt;
}

TwoTimes twoTimesFrom(const QJsonObject &timings)
{
    TwoTimes t;
    const QJsonObject device = timings.value(QStringLiteral("device")).toObject();
    const QJsonObject call = timings.value(QStringLiteral("call")).toObject();
    if (device.isEmpty() || call.isEmpty())
        return t;
    t.recorded = true;
    t.deviceMedianNs = nsOf(device, QStringLiteral("median_us"));
    t.deviceMeanNs = nsOf(device, QStringLiteral("mean_us"));
    t.deviceMethod = device.value(QStringLiteral("method")).toString();
    t.callMedianNs = nsOf(call, QStringLiteral("median_us"));
    t.callMeanNs = nsOf(call, QStringLiteral("mean_us"));
    t.callMethod = call.value(QStringLiteral("method")).toString();
    t.speedupTime = timings.value(QStringLiteral("speedup_time")).toString();
    if (timings.value(QStringLiteral("launch_bound")).isBool())
        t.launchBound = timings.value(QStringLiteral("launch_bound")).toBool();
    if (timings.value(QStringLiteral("host_overhead_us")).isDouble())
        t.hostOverheadNs = timings.value(QStringLiteral("host_overhead_us")).toDouble() * 1e3;
    return t;
}

std::optional<bool> l2FlushOf(const Measurement &m)
{
    const QJsonValue flush = m.provenance.value(QStringLiteral("flush_l2"));
    if (flush.isBool())
        return flush.toBool();
    if (m.source == MeasurementSource::Local && !m.timingMethod.isEmpty())
        return m.l2Flush;
    return std::nullopt;
}

MeasurementEvidence evidenceOf(const Measurement &m, const QString &role, const QJsonObject &tolerances,
    const QString &hardwareName, const RooflineCase *roofline)
{
    MeasurementEvidence e;
    e.measurementId = m.id;
    e.kernelId = m.kernelId;
    e.role = role;
    e.caseName = m.caseName;
    e.status = measurementStatusName(m.status);
    e.source = measurementSourceName(m.source);
    e.measuredBy = measuredBy(m);
    e.measuredAt = m.createdAt;
    e.gpu = m.provenance.value(QStringLiteral("gpu")).toString();
    if (e.gpu.isEmpty())
        e.gpu = hardwareName;
    e.clocksBefore = clocksFrom(m.provenance.value(QStringLiteral("clocks_before")));
    e.clocksAfter = clocksFrom(m.provenance.value(QStringLiteral("clocks_after")));
    e.timingMethod = m.timingMethod;
    e.l2Flush = l2FlushOf(m);
    if (m.runtime) {
        e.medianNs = m.runtime->medianNs;
        if (spreadRecorded(*m.runtime))
            e.relStdErr = m.runtime->relStdErr;
        if (m.runtime->samples > 0)
            e.samples = m.runtime->samples;
    }
    e.stopRule = stopRuleFrom(m.provenance.value(QStringLiteral("stop_rule")));
    if (!e.stopRule.recorded) {
        // Python timings (docs/python-problems.md) name their stop reason with the figure the speedup uses.
        const QJsonObject timings = m.counters.value(QStringLiteral("timings")).toObject();
        const QString used = timings.value(QStringLiteral("speedup_time")).toString();
        const QString reason = timings.value(used).toObject().value(QStringLiteral("stop_reason")).toString();
        if (!reason.isEmpty()) {
            e.stopRule.recorded = true;
            e.stopRule.reason = reason;
        }
    }
    e.times = twoTimesFrom(m.counters.value(QStringLiteral("timings")).toObject());
    e.correctness = correctnessFrom(m.counters.value(QStringLiteral("correctness")), tolerances);
    if (roofline && roofline->point) {
        e.roofline.floorNs = roofline->point->floorNs > 0 ? std::optional(roofline->point->floorNs) : std::nullopt;
        e.roofline.fractionOfPeak = roofline->point->fractionOfRoof;
    } else if (roofline) {
        e.roofline.problem = roofline->problem;
    }
    e.binaryHash = m.provenance.value(QStringLiteral("binary_sha256")).toString();
    return e;
}

// The newest run of each case (runs in id order), by case name.
std::map<QString, Measurement> newestByCase(const QList<Measurement> &runs, RowId hardwareId)
{
    std::map<QString, Measurement> newest;
    for (const Measurement &m : runs) {
        if (m.hardwareId == hardwareId)
            newest[m.caseName] = m;
    }
    return newest;
}

struct Side
{
    std::vector<CaseTiming> timings;
    std::vector<CaseSpread> spreads;
};

Side sideOf(const std::map<QString, Measurement> &runs, QHash<QString, int> &caseIds)
{
    Side side;
    for (const auto &[name, m] : runs) {
        auto known = caseIds.constFind(name);
        if (known == caseIds.cend())
            known = caseIds.insert(name, int(caseIds.size()));
        const int caseId = *known;
        const double median = m.runtime ? m.runtime->medianNs : 0.0;
        side.timings.push_back({caseId, caseStatus(measurementStatusName(m.status), median), median,
            m.source == MeasurementSource::Replay});
        if (side.timings.back().status == MeasurementStatus::Ok)
            side.spreads.push_back({caseId, median, spreadRecorded(*m.runtime) ? m.runtime->relStdErr : -1.0});
    }
    const auto byCase = [](const auto &a, const auto &b) { return a.caseId < b.caseId; };
    std::sort(side.timings.begin(), side.timings.end(), byCase);
    std::sort(side.spreads.begin(), side.spreads.end(), byCase);
    return side;
}

const RooflineCase *rooflineCase(const RooflineData &data, RowId kernelId, const QString &caseName)
{
    for (const RooflineSeries &s : data.series) {
        if (s.kernelId != kernelId)
            continue;
        for (const RooflineCase &c : s.cases) {
            if (c.caseName == caseName)
                return &c;
        }
    }
    return nullptr;
}

struct Inputs
{
    Kernel candidate;
    std::optional<Kernel> baseline;
    Problem problem;
    QList<Measurement> candidateRuns;
    QList<Measurement> baselineRuns;
    QHash<RowId, StoredVerdict> verdicts;
};

void addSide(HardwareEvidence &hw, const std::map<QString, Measurement> &runs, const QString &role, const Inputs &in,
    const Result<RooflineData> &roofline)
{
    for (const auto &[name, m] : runs) {
        MeasurementEvidence e = evidenceOf(m, role, in.problem.tolerances, hw.hardwareName,
            roofline ? rooflineCase(*roofline, m.kernelId, name) : nullptr);
        const auto stored = in.verdicts.constFind(m.id);
        const bool quarantined = stored != in.verdicts.cend();
        e.verdict = verdictOf(firedRules(e, hw.interval), quarantined, quarantined ? stored->note : QString(),
            quarantined ? stored->createdAt : QDateTime());
        hw.measurements.append(e);
    }
}

HardwareEvidence hardwareEvidence(Store &store, const Hardware &hardware, const Inputs &in)
{
    HardwareEvidence hw;
    hw.hardwareId = hardware.id;
    hw.hardwareName = hardware.name;
    hw.intervalMethod = tr("delta method on log times: Var(ln T) ≈ RSE² per case and kernel, cases independent, "
                           "exp(ln S ± 1.96·SE) for the geometric mean S over the cases both kernels ran ok");
    const auto candidateRuns = newestByCase(in.candidateRuns, hardware.id);
    const auto baselineRuns = newestByCase(in.baselineRuns, hardware.id);
    QHash<QString, int> caseIds;
    const Side candidate = sideOf(candidateRuns, caseIds);
    const Side baseline = sideOf(baselineRuns, caseIds);
    const MeasuredSpeedup measured = measuredSpeedup(candidate.timings, baseline.timings);
    switch (measured.state) {
    case MeasuredSpeedup::State::Speedup:
        hw.speedup = measured.speedup;
        hw.cases = measured.cases;
        hw.interval = speedupInterval(candidate.spreads, baseline.spreads);
        break;
    case MeasuredSpeedup::State::Failed:
        hw.noSpeedupReason
            = tr("a case failed (%1): a failure, not a speedup").arg(measurementStatusName(measured.failure));
        break;
    case MeasuredSpeedup::State::NoBaseline:
        hw.noSpeedupReason = in.baseline ? tr("the reference has no ok run of the same cases on this GPU")
                                         : tr("the problem has no reference kernel to compare with");
        break;
    case MeasuredSpeedup::State::None:
        hw.noSpeedupReason = tr("not measured on this GPU");
        break;
    }
    const auto roofline = readRooflineData(store, in.candidate.id, hardware.name);
    addSide(hw, candidateRuns, QStringLiteral("candidate"), in, roofline);
    addSide(hw, baselineRuns, QStringLiteral("baseline"), in, roofline);
    return hw;
}

Result<Inputs> readInputs(Store &store, RowId candidateId)
{
    Inputs in;
    KernelRepo kernels(store);
    auto candidate = kernels.find(candidateId);
    if (!candidate)
        return candidate.failure();
    if (!candidate->has_value())
        return Error {tr("the store has no kernel %1").arg(candidateId)};
    in.candidate = **candidate;
    auto problem = ProblemRepo(store).find(in.candidate.problemId);
    if (!problem)
        return problem.failure();
    if (problem->has_value())
        in.problem = **problem;
    if (in.problem.referenceKernelId != 0 && in.problem.referenceKernelId != candidateId) {
        auto baseline = kernels.find(in.problem.referenceKernelId);
        if (!baseline)
            return baseline.failure();
        in.baseline = *baseline;
    }
    MeasurementRepo measurements(store);
    auto runs = measurements.forKernel(candidateId);
    if (!runs)
        return runs.failure();
    in.candidateRuns = *runs;
    if (in.baseline) {
        auto baseRuns = measurements.forKernel(in.baseline->id);
        if (!baseRuns)
            return baseRuns.failure();
        in.baselineRuns = *baseRuns;
    }
    auto verdicts = VerdictRepo(store).all();
    if (!verdicts)
        return verdicts.failure();
    in.verdicts = *verdicts;
    return in;
}

QString kernelName(const Kernel &k) { return k.name.isEmpty() ? k.contentHash.left(12) : k.name; }

} // namespace reads_detail

Result<CandidateEvidence> readCandidateEvidence(
    Store &store, RowId candidateId, const QString &hardwareName, const CancelToken &cancel)
{
    using namespace reads_detail;
    Transaction snapshot(store, Transaction::Kind::Read);
    if (Status begun = snapshot.begin(); !begun)
        return begun.failure();
    auto in = readInputs(store, candidateId);
    if (!in)
        return in.failure();
    CandidateEvidence out;
    out.candidateId = candidateId;
    out.candidateName = kernelName(in->candidate);
    out.problemName = in->problem.name;
    if (in->baseline) {
        out.baselineId = in->baseline->id;
        out.baselineName = kernelName(*in->baseline);
    }
    auto allHardware = HardwareRepo(store).list();
    if (!allHardware)
        return allHardware.failure();
    QSet<RowId> measuredOn;
    for (const Measurement &m : std::as_const(in->candidateRuns))
        measuredOn.insert(m.hardwareId);
    bool named = hardwareName.isEmpty();
    for (const Hardware &h : std::as_const(*allHardware)) {
        if (cancel.isCancelled())
            return Error::cancelled();
        if (!measuredOn.contains(h.id) || (!hardwareName.isEmpty() && h.name != hardwareName))
            continue;
        named = true;
        out.hardware.append(hardwareEvidence(store, h, *in));
    }
    if (!named)
        return Error {tr("kernel %1 was not measured on '%2'").arg(candidateId).arg(hardwareName)};
    return out;
}

Result<RowId> kernelOfMeasurement(Store &store, RowId measurementId)
{
    auto all = VerdictRepo(store).kernelOfMeasurement(measurementId);
    if (!all)
        return all.failure();
    if (*all == 0)
        return Error {reads_detail::tr("the store has no measurement %1").arg(measurementId)};
    return *all;
}

} // namespace gpuf::evidence
