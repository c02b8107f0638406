// Pair rows and their column names; see pair_features.h.
#include "core/features/pair_features.h"

#include <QHash>

#include <cmath>

namespace gpuf::features {

HardwareRow hardwareRow(const std::optional<Hardware> &hardware)
{
    HardwareRow row;
    row.fill(kMissing);
    if (!hardware)
        return row;
    const auto positive = [](double v) { return v > 0 ? float(v) : kMissing; };
    const auto set = [&row](HardwareFeature f, float v) { row[std::size_t(f)] = v; };
    bool ok = false;
    const double cc = hardware->computeCapability.toDouble(&ok);
    set(HardwareFeature::ComputeCapability, ok && cc > 0 ? float(cc) : kMissing);
    set(HardwareFeature::SmCount, positive(hardware->smCount));
    set(HardwareFeature::MaxThreadsPerSm, positive(hardware->maxThreadsPerSm));
    set(HardwareFeature::ClockGhz, positive(hardware->clockGhz));
    set(HardwareFeature::MemoryClockGhz, positive(hardware->memoryClockGhz));
    set(HardwareFeature::BusWidthBits, positive(hardware->busWidthBits));
    set(HardwareFeature::L2Megabytes, positive(double(hardware->l2Bytes) / (1024.0 * 1024.0)));
    set(HardwareFeature::SharedMemoryPerSmKb, positive(double(hardware->sharedMemoryPerSm) / 1024.0));
    return row;
}

PairColumn pairColumn(int column)
{
    if (column < 3 * kKernelFeatureCount)
        return {PairRole(column / kKernelFeatureCount), column % kKernelFeatureCount};
    return {PairRole::Hardware, column - 3 * kKernelFeatureCount};
}

QString pairColumnName(int column)
{
    const PairColumn c = pairColumn(column);
    switch (c.role) {
    case PairRole::Reference:
        return QStringLiteral("ref_") + kernelFeatureKey(KernelFeature(c.feature));
    case PairRole::Candidate:
        return QStringLiteral("cand_") + kernelFeatureKey(KernelFeature(c.feature));
    case PairRole::Difference:
        return QStringLiteral("diff_") + kernelFeatureKey(KernelFeature(c.feature));
    case PairRole::Hardware:
        break;
    }
    return hardwareFeatureKey(HardwareFeature(c.feature));
}

QStringList pairColumnNames()
{
    QStringList names;
    names.reserve(kPairColumnCount);
    for (int c = 0; c < kPairColumnCount; ++c)
        names.append(pairColumnName(c));
    return names;
}

int pairColumnOf(const QString &name)
{
    static const QHash<QString, int> index = [] {
        QHash<QString, int> h;
        for (int c = 0; c < kPairColumnCount; ++c)
            h.insert(pairColumnName(c), c);
        return h;
    }();
    return index.value(name, -1);
}

void fillPairRow(
    const KernelFeatures &reference, const KernelFeatures &candidate, const HardwareRow &hardware, std::span<float> row)
{
    Q_ASSERT(row.size() >= std::size_t(kPairColumnCount));
    const std::size_t n = kKernelFeatureCount;
    for (std::size_t f = 0; f < n; ++f) {
        const float r = reference.values[f];
        const float c = candidate.values[f];
        row[f] = r;
        row[n + f] = c;
        row[2 * n + f] = c - r; // NaN when either is missing
    }
    for (std::size_t h = 0; h < hardware.size(); ++h)
        row[3 * n + h] = hardware[h];
}

} // namespace gpuf::features
