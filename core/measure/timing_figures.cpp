// timingFigures; see timing_figures.h.
#include "core/measure/timing_figures.h"

#include <QHash>
#include <QJsonObject>

#include <cmath>

namespace gpuf::measure {

namespace {

struct Newest
{
    QList<CaseFigures> cases;
    QHash<QString, RowId> ids; // the measurement each case was read from
    QString speedupTime;
    double margin = 0.0;
};

Newest newestFigures(const QList<Measurement> &runs)
{
    Newest out;
    for (const Measurement &m : runs) {
        const QJsonObject timings = m.counters.value(QStringLiteral("timings")).toObject();
        if (m.status != MeasurementStatus::Ok || timings.isEmpty())
            continue;
        const auto seen = out.ids.constFind(m.caseName);
        if (seen != out.ids.cend() && *seen > m.id)
            continue;
        const QJsonObject device = timings.value(QStringLiteral("device")).toObject();
        const QJsonObject call = timings.value(QStringLiteral("call")).toObject();
        CaseFigures f;
        f.caseName = m.caseName;
        f.deviceMeanUs = device.value(QStringLiteral("mean_us")).toDouble();
        f.deviceMedianUs = device.value(QStringLiteral("median_us")).toDouble();
        f.callMeanUs = call.value(QStringLiteral("mean_us")).toDouble();
        f.callMedianUs = call.value(QStringLiteral("median_us")).toDouble();
        f.launchBound = timings.value(QStringLiteral("launch_bound")).toBool();
        f.hostOverheadUs = timings.value(QStringLiteral("host_overhead_us")).toDouble();
        f.noisy = device.value(QStringLiteral("noisy")).toBool() || call.value(QStringLiteral("noisy")).toBool();
        if (seen == out.ids.cend()) {
            out.cases.append(f);
        } else {
            for (CaseFigures &c : out.cases) {
                if (c.caseName == f.caseName)
                    c = f;
            }
        }
        out.ids.insert(m.caseName, m.id);
        out.speedupTime = timings.value(QStringLiteral("speedup_time")).toString();
        out.margin = timings.value(QStringLiteral("launch_bound_margin")).toDouble(out.margin);
    }
    return out;
}

// Geometric mean of baseline / candidate medians over the cases both have a positive figure for.
std::optional<double> speedupOf(
    const QList<CaseFigures> &candidate, const QList<CaseFigures> &baseline, double CaseFigures::*median)
{
    double logSum = 0.0;
    int n = 0;
    for (const CaseFigures &c : candidate) {
        for (const CaseFigures &b : baseline) {
            if (b.caseName == c.caseName && c.*median > 0.0 && b.*median > 0.0) {
                logSum += std::log(b.*median / c.*median);
                ++n;
            }
        }
    }
    return n == 0 ? std::nullopt : std::optional<double>(std::exp(logSum / n));
}

} // namespace

QStringList TimingFigures::launchBoundCases() const
{
    QStringList names;
    for (const CaseFigures &c : candidate) {
        if (c.launchBound)
            names.append(c.caseName);
    }
    return names;
}

double TimingFigures::maxHostOverheadUs() const
{
    double most = 0.0;
    for (const CaseFigures &c : candidate) {
        if (c.launchBound)
            most = std::max(most, c.hostOverheadUs);
    }
    return most;
}

QStringList TimingFigures::noisyCases() const
{
    QStringList names;
    for (const CaseFigures &c : candidate) {
        if (c.noisy)
            names.append(c.caseName);
    }
    return names;
}

TimingFigures timingFigures(const QList<Measurement> &candidate, const QList<Measurement> &baseline)
{
    TimingFigures out;
    const Newest c = newestFigures(candidate);
    if (c.cases.isEmpty())
        return out;
    const Newest b = newestFigures(baseline);
    out.speedupTime = c.speedupTime.isEmpty() ? QStringLiteral("device") : c.speedupTime;
    out.launchBoundMargin = c.margin;
    out.candidate = c.cases;
    out.baseline = b.cases;
    out.deviceSpeedup = speedupOf(c.cases, b.cases, &CaseFigures::deviceMedianUs);
    out.callSpeedup = speedupOf(c.cases, b.cases, &CaseFigures::callMedianUs);
    return out;
}

} // namespace gpuf::measure
