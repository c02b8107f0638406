// readRooflineData; see roofline_data.h.
#include "core/measure/roofline_data.h"

#include "core/domain/measurement.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QLocale>

#include <map>

namespace gpuf {
namespace {

QString tr(const char *text, int n = -1) { return QCoreApplication::translate("gpuf::Roofline", text, nullptr, n); }

QString nameOf(const Kernel &k) { return k.name.isEmpty() ? k.contentHash.left(12) : k.name; }

QJsonObject specOf(const Kernel &k) { return k.parameters.value(QLatin1StringView("spec")).toObject(); }

bool statesWork(const QJsonObject &spec)
{
    return spec.contains(QLatin1StringView("bytes_moved")) || spec.contains(QLatin1StringView("flops"));
}

// The case names in the spec's order, then any other measured ones (a Python problem's spec has none).
QStringList caseOrder(const QJsonObject &spec, const std::map<QString, Measurement> &runs)
{
    QStringList names;
    for (const QJsonValue c : spec.value(QLatin1StringView("cases")).toArray())
        names.append(c.toObject().value(QLatin1StringView("name")).toString());
    for (const auto &[name, run] : runs) {
        if (!names.contains(name))
            names.append(name);
    }
    return names;
}

struct Context
{
    QJsonObject workSpec; // the spec whose bytes_moved / flops define the problem's work
    PeakRates peaks;
    Precision precision = Precision::Fp32;
};

RooflineCase caseOf(const QString &caseName, const Measurement *run, const Context &context)
{
    RooflineCase c;
    c.caseName = caseName;
    c.ran = run != nullptr;
    if (!run) {
        c.problem = tr("not measured on this GPU");
        return c;
    }
    if (run->status != MeasurementStatus::Ok || !run->runtime) {
        c.problem = tr("%1, no time").arg(measurementStatusName(run->status));
        return c;
    }
    CaseWork work;
    if (statesWork(context.workSpec)) {
        Result<CaseWork> fromSpec = specCaseWork(context.workSpec, caseName);
        if (!fromSpec) {
            c.problem = fromSpec.error();
            return c;
        }
        work = *fromSpec;
    }
    if (!work.bytes)
        work = counterCaseWork(run->counters);
    else
        work.dramBytes = measuredDramBytes(run->counters); // a profiled run's DRAM traffic beside the spec's ideal
    c.noWork = !work.bytes;
    Result<RooflinePoint> point = rooflinePoint(work, run->runtime->medianNs, context.peaks, context.precision);
    if (!point) {
        c.problem = point.error();
        return c;
    }
    // gpuf-measure's own verdict, where it gave one, stands (it used the device's clocks for its peak).
    const Plausibility p
        = plausibilityOf(run->runtime->medianNs, run->counters, work.bytes, context.peaks.bandwidthGBs);
    if (p.fromWorker) {
        point->implausible = p.isImplausible();
        point->floorNs = p.floorNs;
    }
    c.point = *point;
    return c;
}

Result<RooflineSeries> seriesOf(Store &store, const Kernel &kernel, RooflineSeries::Role role, RowId hardwareId,
    const QJsonObject &caseSpec, const Context &context)
{
    RooflineSeries s;
    s.role = role;
    s.kernelId = kernel.id;
    s.name = nameOf(kernel);
    auto runs = MeasurementRepo(store).forKernel(kernel.id, hardwareId);
    if (!runs)
        return Error {runs.error()};
    std::map<QString, Measurement> newest; // by id order: the last one read is the newest
    for (const Measurement &m : std::as_const(*runs))
        newest[m.caseName] = m;
    for (const QString &name : caseOrder(caseSpec, newest)) {
        const auto it = newest.find(name);
        s.cases.append(caseOf(name, it == newest.end() ? nullptr : &it->second, context));
    }
    return s;
}

// The GPU to draw against: the one named, else the one the kernel was measured on most.
Result<Hardware> chooseHardware(
    Store &store, const QList<Measurement> &runs, const QString &hardwareName, QStringList &others)
{
    auto all = HardwareRepo(store).list();
    if (!all)
        return Error {all.error()};
    QHash<RowId, int> counts;
    for (const Measurement &m : runs)
        ++counts[m.hardwareId];
    Hardware chosen;
    int best = 0;
    for (const Hardware &h : std::as_const(*all)) {
        if (!hardwareName.isEmpty() && h.name == hardwareName)
            chosen = h;
        else if (hardwareName.isEmpty() && counts.value(h.id) > best) {
            chosen = h;
            best = counts.value(h.id);
        }
    }
    for (const Hardware &h : std::as_const(*all)) {
        if (h.id != chosen.id && counts.contains(h.id))
            others.append(h.name);
    }
    if (chosen.id == 0 && !hardwareName.isEmpty())
        chosen.name = hardwareName;
    return chosen;
}

QString emptyReasonOf(const RooflineData &data, const QJsonObject &workSpec)
{
    const RooflineSeries &kernel = data.series.first();
    if (data.hardware.id == 0)
        return data.hardware.name.isEmpty()
            ? tr("%1 has no measurement on any GPU: measure it to see where it stands against the hardware.")
                  .arg(data.kernelName)
            : tr("The store knows no GPU named %1.").arg(data.hardware.name);
    if (!data.peaks.hasBandwidth())
        return tr("The peak memory bandwidth of %1 is not known (no preset matches it and the store holds no memory "
                  "clock or bus width for it): no roofline can be drawn.")
            .arg(data.hardware.name);
    if (!kernel.measured()) {
        const bool anyRun
            = std::any_of(kernel.cases.cbegin(), kernel.cases.cend(), [](const RooflineCase &c) { return c.ran; });
        if (!anyRun)
            return tr("%1 has no measurement on %2%3: measure it to place it on the roofline.")
                .arg(data.kernelName, data.hardware.name,
                    data.otherHardware.isEmpty()
                        ? QString()
                        : tr(" (it was measured on %1)").arg(data.otherHardware.join(QStringLiteral(", "))));
        if (!statesWork(workSpec)) {
            const bool noBytes = std::any_of(
                kernel.cases.cbegin(), kernel.cases.cend(), [](const RooflineCase &c) { return c.noWork; });
            if (noBytes)
                return tr("%1 states no bytes_moved or flops (neither its problem's spec nor its measurements do): a "
                          "roofline needs the bytes a case must move and the FLOPs it does.")
                    .arg(data.kernelName);
        }
        return tr("No case of %1 on %2 has a time to place on the roofline.").arg(data.kernelName, data.hardware.name);
    }
    if (!data.hasIntensity())
        return tr("%1 does no arithmetic (its flops are 0 or not stated): it has no intensity to place on the "
                  "roofline. Its figures give the bandwidth it achieved against the peak.")
            .arg(data.kernelName);
    return {};
}

} // namespace

bool RooflineSeries::measured() const
{
    return std::any_of(cases.cbegin(), cases.cend(), [](const RooflineCase &c) { return c.point.has_value(); });
}

bool RooflineData::hasPoints() const
{
    return std::any_of(series.cbegin(), series.cend(), [](const RooflineSeries &s) { return s.measured(); });
}

bool RooflineData::hasIntensity() const
{
    for (const RooflineSeries &s : series) {
        for (const RooflineCase &c : s.cases) {
            if (c.point && c.point->intensity)
                return true;
        }
    }
    return false;
}

Result<RooflineData> readRooflineData(
    Store &store, RowId kernelId, const QString &hardwareName, const CancelToken &cancel)
{
    KernelRepo kernels(store);
    auto kernel = kernels.find(kernelId);
    if (!kernel)
        return Error {kernel.error()};
    if (!kernel->has_value())
        return Error {tr("kernel %1 is not in the store").arg(kernelId)};
    RooflineData data;
    data.kernelId = kernelId;
    data.kernelName = nameOf(**kernel);
    auto problem = ProblemRepo(store).find((*kernel)->problemId);
    if (!problem)
        return Error {problem.error()};
    std::optional<Kernel> reference;
    if (problem->has_value()) {
        data.problemName = (*problem)->name;
        if ((*problem)->referenceKernelId != 0 && (*problem)->referenceKernelId != kernelId) {
            auto found = kernels.find((*problem)->referenceKernelId);
            if (!found)
                return Error {found.error()};
            reference = *found;
        }
    }
    std::optional<Kernel> parent;
    if ((*kernel)->parentId != 0) {
        auto found = kernels.find((*kernel)->parentId);
        if (!found)
            return Error {found.error()};
        parent = *found;
    }
    auto runs = MeasurementRepo(store).forKernel(kernelId);
    if (!runs)
        return Error {runs.error()};
    auto hardware = chooseHardware(store, *runs, hardwareName, data.otherHardware);
    if (!hardware)
        return Error {hardware.error()};
    data.hardware = *hardware;
    data.peaks = peakRatesOf(data.hardware);

    // The problem's work: the kernel's own spec when it states it, else the reference's.
    Context context;
    context.workSpec = specOf(**kernel);
    if (!statesWork(context.workSpec) && reference)
        context.workSpec = specOf(*reference);
    context.peaks = data.peaks;
    context.precision = precisionOf(specOf(**kernel), problem->has_value() ? (*problem)->description : QString());
    data.precision = context.precision;
    const QJsonObject caseSpec = specOf(**kernel);

    const std::pair<const Kernel *, RooflineSeries::Role> members[]
        = {{&**kernel, RooflineSeries::Role::Kernel}, {parent ? &*parent : nullptr, RooflineSeries::Role::Parent},
            {reference ? &*reference : nullptr, RooflineSeries::Role::Reference}};
    for (const auto &[member, role] : members) {
        if (cancel.isCancelled())
            return Error {QStringLiteral("cancelled")};
        // A parent that is the reference is drawn once, as the parent (the arrow starts there).
        if (!member || (role == RooflineSeries::Role::Reference && parent && parent->id == member->id))
            continue;
        if (data.hardware.id == 0 && role != RooflineSeries::Role::Kernel)
            continue;
        auto series = seriesOf(store, *member, role, data.hardware.id, caseSpec, context);
        if (!series)
            return Error {series.error()};
        data.series.append(*series);
    }
    data.emptyReason = emptyReasonOf(data, context.workSpec);
    return data;
}

QString rooflineVerdict(const RooflinePoint &p)
{
    const QLocale locale;
    const QString percent = locale.toString(100.0 * p.fractionOfRoof, 'f', 0);
    if (!p.roofTflops)
        return tr("%1% of peak bandwidth").arg(percent);
    const bool measured = p.measuredBytes();
    switch (p.verdict) {
    case RooflinePoint::Verdict::MemoryBound:
        return measured
            ? tr("%1% of the memory roof (memory-bound at its measured DRAM bytes)").arg(percent)
            : tr("%1% of the memory roof (memory-bound: left of the ridge even at its ideal bytes)").arg(percent);
    case RooflinePoint::Verdict::ComputeBound:
        return measured ? tr("%1% of the compute roof (compute-bound at its measured DRAM bytes)").arg(percent)
                        : tr("%1% of the compute roof (compute-bound: near the compute roof)").arg(percent);
    case RooflinePoint::Verdict::Unknown:
        break;
    }
    if (measured)
        return tr("%1% of the compute roof (not DRAM-bound: right of the ridge at its measured DRAM bytes, yet far "
                  "below the compute roof)")
            .arg(percent);
    return tr("%1% of the compute roof (bound not known: right of the ridge only at its ideal bytes, far below the "
              "compute roof; memory would explain its time if it moved %2× its ideal bytes, and its DRAM bytes are "
              "not measured)")
        .arg(percent, locale.toString(p.memoryExplainsAt, 'f', p.memoryExplainsAt >= 10.0 ? 0 : 1));
}

QString rooflineLine(const RooflineSeries &series, const RooflineCase &c)
{
    const QString head = QStringLiteral("%1 · %2: ").arg(series.name, c.caseName);
    if (!c.point)
        return head + c.problem;
    const RooflinePoint &p = *c.point;
    const QLocale locale;
    const auto figure = [&locale](double v) -> QString {
        return v >= 100.0 ? locale.toString(v, 'f', 0) : locale.toString(v, 'g', 3);
    };
    QStringList parts;
    if (p.intensity && p.measuredBytes())
        parts.append(tr("%1 FLOP/B at its measured DRAM bytes (%2 at its ideal bytes)")
                         .arg(figure(*p.intensity), figure(p.idealIntensity.value_or(0.0))));
    else if (p.intensity)
        parts.append(tr("%1 FLOP/B at its ideal bytes").arg(figure(*p.intensity)));
    parts.append(p.measuredBytes() ? tr("%1 GB/s of DRAM traffic").arg(locale.toString(p.achievedGBs, 'f', 0))
                                   : tr("%1 GB/s").arg(locale.toString(p.achievedGBs, 'f', 0)));
    if (p.achievedTflops)
        parts.append(tr("%1 TFLOP/s").arg(locale.toString(*p.achievedTflops, 'g', 3)));
    parts.append(rooflineVerdict(p));
    QString line = head + parts.join(QStringLiteral(" · "));
    if (p.implausible)
        line += tr(" · ⚠ implausible: %1 µs is below the %2 µs floor")
                    .arg(locale.toString(p.timeNs / 1e3, 'f', 1), locale.toString(p.floorNs / 1e3, 'f', 1));
    return line;
}

} // namespace gpuf
