// The verdict rules; see verdict_rules.h.
#include "core/evidence/verdict_rules.h"

#include <QCoreApplication>

#include <cmath>

namespace gpuf::evidence {

namespace rules_detail {

QString tr(const char *text) { return QCoreApplication::translate("gpuf::evidence", text); }

bool drifted(double before, double after) { return before > 0 && std::abs(after - before) / before > kClockDriftBound; }

} // namespace rules_detail

QString verdictStateName(Verdict::State state)
{
    switch (state) {
    case Verdict::State::Clean:
        return QStringLiteral("clean");
    case Verdict::State::Suspicious:
        return QStringLiteral("suspicious");
    case Verdict::State::Quarantined:
        return QStringLiteral("quarantined");
    }
    return {};
}

QList<RuleHit> firedRules(const MeasurementEvidence &m, const std::optional<SpeedupInterval> &interval)
{
    using rules_detail::tr;
    QList<RuleHit> hits;
    if (m.medianNs && m.roofline.floorNs && *m.medianNs < *m.roofline.floorNs)
        hits.append({QStringLiteral("below-floor"),
            tr("median %1 µs is below the roofline floor %2 µs")
                .arg(*m.medianNs / 1e3, 0, 'g', 4)
                .arg(*m.roofline.floorNs / 1e3, 0, 'g', 4)});
    const Clocks &b = m.clocksBefore;
    const Clocks &a = m.clocksAfter;
    if (b.available && a.available
        && (rules_detail::drifted(b.smMhz, a.smMhz) || rules_detail::drifted(b.memMhz, a.memMhz)))
        hits.append({QStringLiteral("unstable-clocks"),
            tr("clocks moved from %1/%2 MHz to %3/%4 MHz (SM/memory) during the timing")
                .arg(b.smMhz)
                .arg(b.memMhz)
                .arg(a.smMhz)
                .arg(a.memMhz)});
    if (m.relStdErr && *m.relStdErr > kRseBound)
        hits.append({QStringLiteral("rse-over-bound"),
            tr("relative standard error %1 % is over %2 %")
                .arg(*m.relStdErr * 100.0, 0, 'f', 2)
                .arg(kRseBound * 100.0, 0, 'f', 0)});
    if (m.role == QLatin1String("candidate") && interval && interval->straddles())
        hits.append({QStringLiteral("interval-straddles-edge"),
            tr("the speedup's 95 % interval [%1, %2] straddles the bin edge %3")
                .arg(interval->low, 0, 'f', 3)
                .arg(interval->high, 0, 'f', 3)
                .arg(*interval->straddledEdge, 0, 'f', 3)});
    return hits;
}

Verdict verdictOf(const QList<RuleHit> &hits, bool quarantined, const QString &note, const QDateTime &at)
{
    Verdict v;
    v.hits = hits;
    if (quarantined) {
        v.state = Verdict::State::Quarantined;
        v.note = note;
        v.quarantinedAt = at;
    } else {
        v.state = hits.isEmpty() ? Verdict::State::Clean : Verdict::State::Suspicious;
    }
    return v;
}

} // namespace gpuf::evidence
