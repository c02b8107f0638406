// timingNote, timingDetails; see timing_note.h.
#include "widgets/forecast/timing_note.h"

#include "core/bins/bins.h"

#include <QCoreApplication>

namespace gpuf {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("gpuf::ForecastDetail", text); }

QString us(double value) { return QString::number(value, 'f', value < 100.0 ? 1 : 0); }

QString caseLine(const measure::CaseFigures &c)
{
    QString line = tr("%1: device %2 µs mean, %3 median").arg(c.caseName, us(c.deviceMeanUs), us(c.deviceMedianUs));
    if (c.callMedianUs > 0.0)
        line += tr("; call %1 µs mean, %2 median").arg(us(c.callMeanUs), us(c.callMedianUs));
    if (c.launchBound)
        line += tr("; launch-bound, +%1 µs on the host").arg(us(c.hostOverheadUs));
    if (c.noisy)
        line += tr("; noisy");
    return line;
}

} // namespace

QString timingNote(const measure::TimingFigures &timings)
{
    if (!timings.known())
        return {};
    const bool byCall = timings.speedupTime == QLatin1StringView("call");
    QString note
        = byCall ? tr("speedup by call time (host work included)") : tr("speedup by device time (launch work hidden)");
    const std::optional<double> other = byCall ? timings.deviceSpeedup : timings.callSpeedup;
    if (other)
        note += (byCall ? tr("; by device time %1") : tr("; by call time %1")).arg(bins::speedupText(*other));
    const QStringList bound = timings.launchBoundCases();
    if (!bound.isEmpty())
        note += tr(" · launch-bound on %1 (up to +%2 µs on the host per call)")
                    .arg(bound.join(QStringLiteral(", ")), us(timings.maxHostOverheadUs()));
    const QStringList noisy = timings.noisyCases();
    if (!noisy.isEmpty())
        note += tr(" · noisy after a second try: %1").arg(noisy.join(QStringLiteral(", ")));
    return note;
}

QString timingDetails(const measure::TimingFigures &timings)
{
    if (!timings.known())
        return {};
    QStringList lines {tr("candidate")};
    for (const measure::CaseFigures &c : timings.candidate)
        lines.append(caseLine(c));
    if (!timings.baseline.isEmpty()) {
        lines.append(tr("baseline"));
        for (const measure::CaseFigures &c : timings.baseline)
            lines.append(caseLine(c));
    }
    if (timings.launchBoundMargin > 0.0)
        lines.append(tr("launch-bound: call time over device time by more than %1 %")
                         .arg(QString::number(timings.launchBoundMargin * 100.0, 'f', 0)));
    return lines.join(QLatin1Char('\n'));
}

} // namespace gpuf
