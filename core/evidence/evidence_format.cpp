// The evidence's text and JSON; see evidence_format.h.
#include "core/evidence/evidence_format.h"

#include "core/bins/bins.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace gpuf::evidence {

namespace format_detail {

QString tr(const char *text) { return QCoreApplication::translate("gpuf::evidence", text); }
QString tr(const char *text, int n) { return QCoreApplication::translate("gpuf::evidence", text, nullptr, n); }

QString timeText(std::optional<double> ns)
{
    return ns ? QStringLiteral("%1 µs").arg(*ns / 1e3, 0, 'g', 6) : notRecorded();
}

QString clocksText(const Clocks &c)
{
    if (!c.recorded)
        return notRecorded();
    if (!c.available)
        return tr("not readable (%1)").arg(c.reason.isEmpty() ? notRecorded() : c.reason);
    return tr("SM %1 MHz, memory %2 MHz").arg(c.smMhz).arg(c.memMhz);
}

QString stopRuleText(const StopRule &s)
{
    if (!s.recorded)
        return notRecorded();
    if (!s.reason.isEmpty() && !s.targetRelStdErr)
        return tr("stopped: %1").arg(s.reason);
    const QString target
        = s.targetRelStdErr ? QStringLiteral("%1 %").arg(*s.targetRelStdErr * 100.0, 0, 'g', 3) : notRecorded();
    QString text = s.reachedTarget ? tr("stopped when the RSE reached the target %1").arg(target)
                                   : tr("stopped by the sample or time budget before the RSE reached %1").arg(target);
    QStringList limits;
    if (s.minSamples && s.maxSamples)
        limits << tr("%1–%2 samples").arg(*s.minSamples).arg(*s.maxSamples);
    if (s.timeBudgetMs)
        limits << tr("%1 ms budget").arg(*s.timeBudgetMs);
    if (s.warmup)
        limits << tr("%1 warm-up runs").arg(*s.warmup);
    if (!limits.isEmpty())
        text += QStringLiteral(" (") + limits.join(QStringLiteral(", ")) + u')';
    return text;
}

// "11.3 µs median, 11.52 µs mean (cupti_kernel_sum) · the speedup's figure"
QString figureText(std::optional<double> medianNs, std::optional<double> meanNs, const QString &method, bool used)
{
    if (!medianNs)
        return notRecorded();
    QString text = tr("%1 median").arg(timeText(medianNs));
    if (meanNs)
        text += tr(", %1 mean").arg(timeText(meanNs));
    if (!method.isEmpty())
        text += QStringLiteral(" (%1)").arg(method);
    if (used)
        text += tr(" · the speedup's figure");
    return text;
}

QString launchBoundText(const TwoTimes &t)
{
    if (!t.launchBound)
        return notRecorded();
    const QString overhead = t.hostOverheadNs ? timeText(t.hostOverheadNs) : notRecorded();
    return *t.launchBound ? tr("yes: the call takes %1 more than the device time (host launch work)").arg(overhead)
                          : tr("no (call − device: %1)").arg(overhead);
}

QList<Fact> timesFacts(const TwoTimes &t)
{
    if (!t.recorded)
        return {};
    const bool call = t.speedupTime == QLatin1StringView("call");
    return {{QStringLiteral("device_time"), tr("Device time"),
                figureText(t.deviceMedianNs, t.deviceMeanNs, t.deviceMethod, !call)},
        {QStringLiteral("call_time"), tr("Call time"), figureText(t.callMedianNs, t.callMeanNs, t.callMethod, call)},
        {QStringLiteral("launch_bound"), tr("Launch-bound"), launchBoundText(t)}};
}

QString toleranceText(const Correctness &c)
{
    QStringList parts;
    if (c.rtol)
        parts << QStringLiteral("rtol %1").arg(*c.rtol, 0, 'g', 3);
    if (c.atol)
        parts << QStringLiteral("atol %1").arg(*c.atol, 0, 'g', 3);
    return parts.isEmpty() ? notRecorded() : parts.join(QStringLiteral(", "));
}

QString correctnessText(const Correctness &c)
{
    if (!c.recorded)
        return notRecorded();
    if (!c.checked)
        return tr("not checked%1").arg(c.note.isEmpty() ? QString() : QStringLiteral(" (") + c.note + u')');
    return tr("%n run(s), %1 elements, %2 mismatches", c.runs).arg(c.elements).arg(c.mismatches);
}

QString worstErrorText(const Correctness &c)
{
    if (!c.maxAbsError && !c.maxRelError)
        return notRecorded();
    QStringList parts;
    if (c.maxAbsError)
        parts << tr("absolute %1").arg(*c.maxAbsError, 0, 'g', 3);
    if (c.maxRelError)
        parts << tr("relative %1").arg(*c.maxRelError, 0, 'g', 3);
    return parts.join(QStringLiteral(", ")) + tr(" (tolerance: %1)").arg(toleranceText(c));
}

QJsonValue optionalJson(const std::optional<double> &v) { return v ? QJsonValue(*v) : QJsonValue(); }

QJsonValue timesJson(const TwoTimes &t)
{
    if (!t.recorded)
        return QJsonValue();
    QJsonObject o {{QStringLiteral("device_median_ns"), optionalJson(t.deviceMedianNs)},
        {QStringLiteral("device_mean_ns"), optionalJson(t.deviceMeanNs)},
        {QStringLiteral("device_method"), t.deviceMethod},
        {QStringLiteral("call_median_ns"), optionalJson(t.callMedianNs)},
        {QStringLiteral("call_mean_ns"), optionalJson(t.callMeanNs)}, {QStringLiteral("call_method"), t.callMethod},
        {QStringLiteral("speedup_time"), t.speedupTime},
        {QStringLiteral("launch_bound"), t.launchBound ? QJsonValue(*t.launchBound) : QJsonValue()},
        {QStringLiteral("host_overhead_ns"), optionalJson(t.hostOverheadNs)}};
    return o;
}

QJsonValue clocksJson(const Clocks &c)
{
    if (!c.recorded)
        return QJsonValue();
    QJsonObject o {{QStringLiteral("available"), c.available}};
    if (c.available) {
        o.insert(QStringLiteral("sm_mhz"), c.smMhz);
        o.insert(QStringLiteral("mem_mhz"), c.memMhz);
    } else {
        o.insert(QStringLiteral("reason"), c.reason);
    }
    return o;
}

QJsonValue stopRuleJson(const StopRule &s)
{
    if (!s.recorded)
        return QJsonValue();
    return QJsonObject {{QStringLiteral("reached_target"), s.reachedTarget},
        {QStringLiteral("target_rel_std_error"), optionalJson(s.targetRelStdErr)},
        {QStringLiteral("min_samples"), s.minSamples ? QJsonValue(*s.minSamples) : QJsonValue()},
        {QStringLiteral("max_samples"), s.maxSamples ? QJsonValue(*s.maxSamples) : QJsonValue()},
        {QStringLiteral("time_budget_ms"), optionalJson(s.timeBudgetMs)},
        {QStringLiteral("warmup"), s.warmup ? QJsonValue(*s.warmup) : QJsonValue()},
        {QStringLiteral("reason"), s.reason}};
}

QJsonValue correctnessJson(const Correctness &c)
{
    if (!c.recorded)
        return QJsonValue();
    return QJsonObject {{QStringLiteral("checked"), c.checked}, {QStringLiteral("runs"), c.runs},
        {QStringLiteral("elements"), c.elements}, {QStringLiteral("mismatches"), c.mismatches},
        {QStringLiteral("max_abs_error"), optionalJson(c.maxAbsError)},
        {QStringLiteral("max_rel_error"), optionalJson(c.maxRelError)}, {QStringLiteral("rtol"), optionalJson(c.rtol)},
        {QStringLiteral("atol"), optionalJson(c.atol)}, {QStringLiteral("note"), c.note}};
}

QJsonObject verdictJson(const Verdict &v)
{
    QJsonArray hits;
    for (const RuleHit &h : v.hits)
        hits.append(QJsonObject {{QStringLiteral("rule"), h.rule}, {QStringLiteral("detail"), h.detail}});
    QJsonObject o {{QStringLiteral("state"), verdictStateName(v.state)}, {QStringLiteral("rules"), hits}};
    if (v.state == Verdict::State::Quarantined) {
        o.insert(QStringLiteral("note"), v.note);
        o.insert(QStringLiteral("quarantined_at"), v.quarantinedAt.toUTC().toString(Qt::ISODateWithMs));
    }
    return o;
}

QJsonObject hardwareJson(const HardwareEvidence &hw)
{
    QJsonObject o {{QStringLiteral("hardware"), hw.hardwareName}, {QStringLiteral("speedup"), optionalJson(hw.speedup)},
        {QStringLiteral("cases"), hw.cases}};
    if (hw.interval) {
        o.insert(QStringLiteral("interval_95"),
            QJsonObject {{QStringLiteral("low"), hw.interval->low}, {QStringLiteral("high"), hw.interval->high},
                {QStringLiteral("log_std_error"), hw.interval->logStdErr},
                {QStringLiteral("straddled_edge"), optionalJson(hw.interval->straddledEdge)},
                {QStringLiteral("method"), hw.intervalMethod}});
    } else {
        o.insert(QStringLiteral("interval_95"), QJsonValue());
    }
    if (!hw.noSpeedupReason.isEmpty())
        o.insert(QStringLiteral("no_speedup_reason"), hw.noSpeedupReason);
    QJsonArray measurements;
    for (const MeasurementEvidence &m : hw.measurements)
        measurements.append(toJson(m));
    o.insert(QStringLiteral("measurements"), measurements);
    return o;
}

} // namespace format_detail

QString notRecorded() { return format_detail::tr("not recorded"); }

QList<Fact> measurementFacts(const MeasurementEvidence &m)
{
    using namespace format_detail;
    const auto orNot = [](const QString &text) { return text.isEmpty() ? notRecorded() : text; };
    QList<Fact> facts {
        {QStringLiteral("measured_by"), tr("Measured by"), m.measuredBy},
        {QStringLiteral("measured_at"), tr("Measured at"),
            m.measuredAt.isValid() ? m.measuredAt.toUTC().toString(Qt::ISODate) : notRecorded()},
        {QStringLiteral("gpu"), tr("GPU"), orNot(m.gpu)},
        {QStringLiteral("clocks_before"), tr("Clocks before"), clocksText(m.clocksBefore)},
        {QStringLiteral("clocks_after"), tr("Clocks after"), clocksText(m.clocksAfter)},
        {QStringLiteral("timing_method"), tr("Timing method"), orNot(m.timingMethod)},
        {QStringLiteral("l2_flush"), tr("L2 flush"),
            m.l2Flush ? (*m.l2Flush ? tr("yes, before every sample") : tr("no")) : notRecorded()},
        {QStringLiteral("median"), tr("Median time"), timeText(m.medianNs)},
        {QStringLiteral("samples"), tr("Samples"), m.samples ? QString::number(*m.samples) : notRecorded()},
        {QStringLiteral("stop_rule"), tr("Stop rule"), stopRuleText(m.stopRule)},
        {QStringLiteral("rse"), tr("Relative standard error"),
            m.relStdErr ? QStringLiteral("%1 %").arg(*m.relStdErr * 100.0, 0, 'f', 3) : notRecorded()},
        {QStringLiteral("correctness"), tr("Correctness"), correctnessText(m.correctness)},
        {QStringLiteral("worst_error"), tr("Worst error"), worstErrorText(m.correctness)},
        {QStringLiteral("roofline_floor"), tr("Roofline floor"),
            m.roofline.floorNs ? timeText(m.roofline.floorNs)
                               : (m.roofline.problem.isEmpty() ? notRecorded() : m.roofline.problem)},
        {QStringLiteral("fraction_of_peak"), tr("Fraction of peak"),
            m.roofline.fractionOfPeak ? QStringLiteral("%1 %").arg(*m.roofline.fractionOfPeak * 100.0, 0, 'f', 1)
                                      : notRecorded()},
        {QStringLiteral("binary_hash"), tr("Binary hash"), orNot(m.binaryHash)},
        {QStringLiteral("verdict"), tr("Verdict"), verdictText(m.verdict)},
    };
    // A Python measurement's two figures after its median (the speedup's figure), where they were recorded.
    const QList<Fact> times = timesFacts(m.times);
    for (qsizetype i = 0; i < times.size(); ++i)
        facts.insert(8 + i, times.at(i));
    return facts;
}

QString speedupText(const HardwareEvidence &hw)
{
    using format_detail::tr;
    if (!hw.speedup)
        return hw.noSpeedupReason;
    QString text = tr("%1 over %n case(s)", hw.cases).arg(bins::speedupText(*hw.speedup));
    if (!hw.interval)
        return text + tr("; 95 % interval: not recorded (a run without its spread)");
    text += tr("; 95 % interval [%1, %2]")
                .arg(bins::speedupText(hw.interval->low, 3), bins::speedupText(hw.interval->high, 3));
    if (hw.interval->straddledEdge)
        text += tr(" straddles the bin edge %1×: its bin is uncertain").arg(*hw.interval->straddledEdge, 0, 'f', 3);
    return text;
}

QString verdictText(const Verdict &v)
{
    using format_detail::tr;
    QStringList rules;
    for (const RuleHit &h : v.hits)
        rules << h.rule;
    switch (v.state) {
    case Verdict::State::Clean:
        return tr("clean");
    case Verdict::State::Suspicious:
        return tr("suspicious: %1").arg(rules.join(QStringLiteral(", ")));
    case Verdict::State::Quarantined:
        return tr("quarantined: %1").arg(v.note);
    }
    return {};
}

QJsonObject toJson(const MeasurementEvidence &m)
{
    using namespace format_detail;
    return QJsonObject {{QStringLiteral("measurement_id"), m.measurementId}, {QStringLiteral("kernel_id"), m.kernelId},
        {QStringLiteral("role"), m.role}, {QStringLiteral("case"), m.caseName}, {QStringLiteral("status"), m.status},
        {QStringLiteral("source"), m.source}, {QStringLiteral("measured_by"), m.measuredBy},
        {QStringLiteral("measured_at"),
            m.measuredAt.isValid() ? QJsonValue(m.measuredAt.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue()},
        {QStringLiteral("gpu"), m.gpu.isEmpty() ? QJsonValue() : QJsonValue(m.gpu)},
        {QStringLiteral("clocks_before"), clocksJson(m.clocksBefore)},
        {QStringLiteral("clocks_after"), clocksJson(m.clocksAfter)},
        {QStringLiteral("timing_method"), m.timingMethod.isEmpty() ? QJsonValue() : QJsonValue(m.timingMethod)},
        {QStringLiteral("l2_flush"), m.l2Flush ? QJsonValue(*m.l2Flush) : QJsonValue()},
        {QStringLiteral("median_ns"), optionalJson(m.medianNs)},
        {QStringLiteral("rel_std_err"), optionalJson(m.relStdErr)},
        {QStringLiteral("samples"), m.samples ? QJsonValue(*m.samples) : QJsonValue()},
        {QStringLiteral("stop_rule"), stopRuleJson(m.stopRule)}, {QStringLiteral("times"), timesJson(m.times)},
        {QStringLiteral("correctness"), correctnessJson(m.correctness)},
        {QStringLiteral("roofline_floor_ns"), optionalJson(m.roofline.floorNs)},
        {QStringLiteral("fraction_of_peak"), optionalJson(m.roofline.fractionOfPeak)},
        {QStringLiteral("binary_hash"), m.binaryHash.isEmpty() ? QJsonValue() : QJsonValue(m.binaryHash)},
        {QStringLiteral("verdict"), verdictJson(m.verdict)}};
}

QJsonObject toJson(const CandidateEvidence &evidence)
{
    QJsonArray hardware;
    for (const HardwareEvidence &hw : evidence.hardware)
        hardware.append(format_detail::hardwareJson(hw));
    return QJsonObject {{QStringLiteral("candidate_id"), evidence.candidateId},
        {QStringLiteral("candidate"), evidence.candidateName},
        {QStringLiteral("baseline_id"), evidence.baselineId ? QJsonValue(evidence.baselineId) : QJsonValue()},
        {QStringLiteral("baseline"), evidence.baselineName}, {QStringLiteral("problem"), evidence.problemName},
        {QStringLiteral("hardware"), hardware}};
}

} // namespace gpuf::evidence
