// Pair features: the row the cost model sees for one (reference, candidate, hardware) question — the reference's
// features, the candidate's, their differences (candidate − reference) and the hardware row. Column names are
// stable ("ref_access_bytes", "cand_access_bytes", "diff_access_bytes", "hw_sm_count"), so a trained model can name
// its inputs and be read back by a later program whose catalogue has grown.
#pragma once

#include "core/domain/hardware.h"
#include "core/features/kernel_features.h"

#include <QStringList>

#include <optional>
#include <span>

namespace gpuf::features {

using HardwareRow = std::array<float, kHardwareFeatureCount>;

// The hardware as features; every value missing without hardware.
HardwareRow hardwareRow(const std::optional<Hardware> &hardware);

enum class PairRole : quint8 { Reference, Candidate, Difference, Hardware };

// What one column of a pair row holds: a kernel feature in one role, or a hardware feature.
struct PairColumn
{
    PairRole role = PairRole::Reference;
    int feature = 0; // a KernelFeature, or a HardwareFeature for PairRole::Hardware
};

inline constexpr int kPairColumnCount = 3 * kKernelFeatureCount + kHardwareFeatureCount;

PairColumn pairColumn(int column);
QString pairColumnName(int column);
QStringList pairColumnNames();
// Column of a name, -1 when this program does not know it.
int pairColumnOf(const QString &name);

// Writes kPairColumnCount floats (NaN = missing) to `row`.
void fillPairRow(const KernelFeatures &reference, const KernelFeatures &candidate, const HardwareRow &hardware,
    std::span<float> row);

} // namespace gpuf::features
