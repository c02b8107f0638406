// The roofline arithmetic; see roofline.h.
#include "core/domain/roofline.h"

#include "core/gpu/expressions.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace gpuf {
namespace {

std::optional<double> counterNumber(const QJsonObject &counters, QLatin1StringView key)
{
    const QJsonValue value = counters.value(key);
    if (!value.isDouble() || !std::isfinite(value.toDouble()))
        return std::nullopt;
    return value.toDouble();
}

} // namespace

Result<CaseWork> specCaseWork(const QJsonObject &spec, const QString &caseName)
{
    CaseWork work;
    work.source = QStringLiteral("spec");
    const QString bytesExpression = spec.value(QLatin1StringView("bytes_moved")).toString().trimmed();
    const QString flopsExpression = spec.value(QLatin1StringView("flops")).toString().trimmed();
    if (bytesExpression.isEmpty() && flopsExpression.isEmpty())
        return work;
    const QJsonArray cases = spec.value(QLatin1StringView("cases")).toArray();
    const auto found = std::find_if(cases.cbegin(), cases.cend(),
        [&](const QJsonValue &c) { return c.toObject().value(QLatin1StringView("name")).toString() == caseName; });
    if (found == cases.cend())
        return Error {QStringLiteral("the kernel spec has no case named '%1'").arg(caseName)};
    gpu::CaseVars vars;
    const QJsonObject bindings = found->toObject().value(QLatin1StringView("vars")).toObject();
    for (auto it = bindings.constBegin(); it != bindings.constEnd(); ++it)
        vars[it.key().toStdString()] = it.value().toDouble();
    const gpu::ExpressionEvaluator evaluator(vars);
    const auto evaluate = [&](const QString &expression, const char *field) -> Result<std::optional<double>> {
        if (expression.isEmpty())
            return std::optional<double> {};
        const gpu::Expected<double> value = evaluator.evaluate(expression.toStdString());
        if (!value)
            return Error {QStringLiteral("%1 of case '%2': %3")
                              .arg(QLatin1StringView(field), caseName, QString::fromStdString(value.error()))};
        if (!std::isfinite(*value) || *value < 0.0)
            return Error {QStringLiteral("%1 of case '%2': '%3' is %4, not a count")
                              .arg(QLatin1StringView(field), caseName, expression)
                              .arg(*value)};
        return std::optional<double>(*value);
    };
    auto bytes = evaluate(bytesExpression, "bytes_moved");
    if (!bytes)
        return Error {bytes.error()};
    auto flops = evaluate(flopsExpression, "flops");
    if (!flops)
        return Error {flops.error()};
    work.bytes = *bytes;
    work.flops = *flops;
    return work;
}

std::optional<double> measuredDramBytes(const QJsonObject &counters)
{
    const auto positive = [](std::optional<double> v) { return v && *v > 0.0 ? v : std::nullopt; };
    if (auto bytes = positive(counterNumber(counters, QLatin1StringView("dram_bytes"))))
        return bytes;
    if (auto bytes = positive(counterNumber(counters, QLatin1StringView("dram__bytes.sum"))))
        return bytes;
    const auto read = counterNumber(counters, QLatin1StringView("dram__bytes_read.sum"));
    const auto write = counterNumber(counters, QLatin1StringView("dram__bytes_write.sum"));
    if (read && write)
        return positive(*read + *write);
    return std::nullopt;
}

CaseWork counterCaseWork(const QJsonObject &counters)
{
    CaseWork work;
    work.dramBytes = measuredDramBytes(counters);
    work.source = QStringLiteral("measurement");
    work.bytes = counterNumber(counters, QLatin1StringView("bytes_moved"));
    work.flops = counterNumber(counters, QLatin1StringView("flops"));
    // gpuf-measure writes -1 where the spec gave no expression.
    if (work.bytes && *work.bytes < 0.0)
        work.bytes.reset();
    if (work.flops && *work.flops < 0.0)
        work.flops.reset();
    return work;
}

Precision precisionOf(const QJsonObject &spec, const QString &problemDescription)
{
    std::optional<Precision> narrowest;
    const QJsonArray buffers = spec.value(QLatin1StringView("buffers")).toArray();
    for (const QJsonValue b : buffers) {
        const QJsonObject buffer = b.toObject();
        if (buffer.value(QLatin1StringView("role")).toString() == QLatin1StringView("output"))
            continue; // an f32 accumulator written at the end says nothing about the arithmetic
        const QString dtype = buffer.value(QLatin1StringView("dtype")).toString();
        if (dtype == QLatin1StringView("f16"))
            narrowest = Precision::Fp16;
        else if (dtype == QLatin1StringView("bf16") && narrowest != Precision::Fp16)
            narrowest = Precision::Bf16;
    }
    if (narrowest)
        return *narrowest;
    if (!buffers.isEmpty())
        return Precision::Fp32;
    // Python problems have no buffers in their spec: their description names the tensors' types.
    const QString text = problemDescription.toLower();
    if (text.contains(QLatin1StringView("bfloat16")))
        return Precision::Bf16;
    if (text.contains(QLatin1StringView("float16")) || text.contains(QLatin1StringView("fp16")))
        return Precision::Fp16;
    return Precision::Fp32;
}

Plausibility plausibilityOf(
    double timeNs, const QJsonObject &counters, std::optional<double> bytes, double peakBandwidthGBs)
{
    Plausibility p;
    p.timeNs = timeNs;
    if (!(timeNs > 0.0))
        return p;
    if (const std::optional<double> floorUs = counterNumber(counters, QLatin1StringView("floor_us"));
        floorUs && *floorUs > 0.0) {
        p.fromWorker = true;
        p.floorNs = *floorUs * 1e3;
        const QJsonValue flag = counters.value(QLatin1StringView("implausible"));
        const bool implausible = flag.isBool() ? flag.toBool() : timeNs < p.floorNs;
        p.state = implausible ? Plausibility::State::Implausible : Plausibility::State::Plausible;
        return p;
    }
    if (!bytes || *bytes <= 0.0 || !(peakBandwidthGBs > 0.0))
        return p;
    p.floorNs = *bytes / peakBandwidthGBs; // bytes ÷ (GB/s) = ns
    p.state = timeNs < p.floorNs ? Plausibility::State::Implausible : Plausibility::State::Plausible;
    return p;
}

Result<RooflinePoint> rooflinePoint(const CaseWork &work, double timeNs, const PeakRates &peaks, Precision precision)
{
    if (!work.bytes)
        return Error {
            QStringLiteral("the kernel states no bytes_moved for this case, so it has no place on a roofline")};
    if (!(*work.bytes > 0.0))
        return Error {QStringLiteral("the case moves no bytes, so it has no place on a roofline")};
    if (!(timeNs > 0.0) || !std::isfinite(timeNs))
        return Error {QStringLiteral("the measured time is %1 ns: no rate can be computed from it").arg(timeNs)};
    if (!peaks.hasBandwidth())
        return Error {QStringLiteral("the GPU's peak memory bandwidth is not known")};
    RooflinePoint p;
    p.bytes = *work.bytes;
    p.dramBytes = work.dramBytes && *work.dramBytes > 0.0 ? work.dramBytes : std::nullopt;
    p.flops = work.flops;
    p.timeNs = timeNs;
    const double traffic = p.dramBytes.value_or(p.bytes);
    p.achievedGBs = traffic / timeNs; // bytes per ns = GB/s
    p.floorNs = p.bytes / peaks.bandwidthGBs;
    p.implausible = timeNs < p.floorNs;
    p.memoryExplainsAt = timeNs / p.floorNs;
    const double peakTflops = peaks.tflops(precision);
    if (peakTflops > 0.0)
        p.ridgeIntensity = peakTflops * 1e3 / peaks.bandwidthGBs; // (10^12 FLOP/s) ÷ (10^9 B/s) = 10^3 FLOP/B
    p.fractionOfRoof = p.achievedGBs / peaks.bandwidthGBs;
    if (!work.flops || *work.flops <= 0.0)
        return p;
    p.intensity = *work.flops / traffic;
    p.idealIntensity = *work.flops / p.bytes;
    p.achievedTflops = *work.flops / timeNs / 1e3; // FLOP per ns = 10^9 FLOP/s = 10^-3 TFLOP/s
    const double memoryRoof = *p.intensity * peaks.bandwidthGBs / 1e3; // TFLOP/s
    if (peakTflops > 0.0 && peakTflops < memoryRoof) {
        p.roofTflops = peakTflops;
        p.bound = RooflinePoint::Bound::Compute;
    } else {
        p.roofTflops = memoryRoof;
        p.bound = RooflinePoint::Bound::Memory;
    }
    p.fractionOfRoof = *p.achievedTflops / *p.roofTflops;
    if (p.bound == RooflinePoint::Bound::Memory)
        p.verdict = RooflinePoint::Verdict::MemoryBound;
    else if (p.fractionOfRoof >= kNearComputeRoof)
        p.verdict = RooflinePoint::Verdict::ComputeBound;
    else
        p.verdict = RooflinePoint::Verdict::Unknown;
    return p;
}

} // namespace gpuf
