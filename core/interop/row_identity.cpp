// Row identity for imports; see row_identity.h.
#include "core/interop/row_identity.h"

#include "core/interop/field_reader.h"

#include <cmath>

namespace gpuf::interop {
namespace {

bool sameTime(const QDateTime &incoming, const QDateTime &stored)
{
    return !incoming.isValid() || timeText(incoming) == timeText(stored);
}

// Stored numbers come back through SQLite's REAL and JSON's shortest round trip: equal, or equal to the last digits.
bool close(double a, double b) { return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

bool sameRuntime(const std::optional<RuntimeStats> &a, const std::optional<RuntimeStats> &b)
{
    if (a.has_value() != b.has_value())
        return false;
    return !a
        || (close(a->medianNs, b->medianNs) && close(a->meanNs, b->meanNs) && close(a->minNs, b->minNs)
            && close(a->stdNs, b->stdNs) && a->samples == b->samples);
}

// Stored forecasts hold renormalised probabilities; a record may give raw ones.
bool sameDistribution(const std::array<double, 8> &a, const std::array<double, 8> &b)
{
    double sumA = 0.0;
    double sumB = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
        sumA += a[i];
        sumB += b[i];
    }
    if (!(sumA > 0.0) || !(sumB > 0.0))
        return a == b;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::abs(a[i] / sumA - b[i] / sumB) > 1e-9)
            return false;
    }
    return true;
}

bool sameOptional(const std::optional<double> &a, const std::optional<double> &b)
{
    return a.has_value() == b.has_value() && (!a || close(*a, *b));
}

} // namespace

bool sameMeasurement(const Measurement &incoming, const Measurement &stored)
{
    return incoming.kernelId == stored.kernelId && incoming.hardwareId == stored.hardwareId
        && incoming.caseName == stored.caseName && incoming.status == stored.status && incoming.source == stored.source
        && incoming.timingMethod == stored.timingMethod && incoming.l2Flush == stored.l2Flush
        && incoming.errorText == stored.errorText && sameRuntime(incoming.runtime, stored.runtime)
        && incoming.provenance == stored.provenance && sameTime(incoming.createdAt, stored.createdAt);
}

bool sameForecast(const Forecast &incoming, const Forecast &stored)
{
    return incoming.referenceKernelId == stored.referenceKernelId
        && incoming.candidateKernelId == stored.candidateKernelId && incoming.hardwareId == stored.hardwareId
        && incoming.forecasterId == stored.forecasterId && incoming.repeat == stored.repeat
        && incoming.status == stored.status && incoming.predictedBin == stored.predictedBin
        && incoming.cacheKey == stored.cacheKey && sameDistribution(incoming.probabilities, stored.probabilities)
        && sameTime(incoming.createdAt, stored.createdAt);
}

bool samePairLabel(const PairLabel &incoming, const PairLabel &stored)
{
    return incoming.referenceKernelId == stored.referenceKernelId
        && incoming.candidateKernelId == stored.candidateKernelId && incoming.hardwareId == stored.hardwareId
        && incoming.kind == stored.kind && incoming.externalId == stored.externalId && incoming.source == stored.source
        && incoming.trueBin == stored.trueBin && sameOptional(incoming.speedup, stored.speedup);
}

} // namespace gpuf::interop
