// Hardware: a GPU description as shown to forecasters and attached to measurements (DESIGN §3).
#pragma once

#include "core/domain/problem.h"

#include <QList>
#include <optional>

namespace gpuf {

struct Hardware
{
    RowId id = 0;
    QString name; // e.g. "NVIDIA A100-SXM4-80GB"; unique within a store
    QString computeCapability; // "M.m"
    int smCount = 0;
    int maxThreadsPerSm = 0;
    double clockGhz = 0.0;
    double memoryClockGhz = 0.0;
    int busWidthBits = 0;
    double globalMemoryGb = 0.0;
    qint64 l2Bytes = 0;
    qint64 sharedMemoryPerSm = 0;
    QString driverVersion;
    QString toolkitVersion;
};

// Presets known without a driver (paper-facts §11); others are read from the device at run time.
QList<Hardware> hardwarePresets();
std::optional<Hardware> hardwarePreset(const QString &nameOrAlias);

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::Hardware)
