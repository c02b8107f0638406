// GPU clocks and the driver version through NVML, opened at run time; absent NVML is reported, not fatal.
#pragma once

#include "core/gpu/measure_types.h"

#include <string>

namespace gpuf::gpu {

class NvmlClocks
{
public:
    // uuid as the driver API gives it, formatted "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
    explicit NvmlClocks(const std::string &uuid);

    ClockReading read() const;
    std::string driverVersion() const; // empty when NVML is unavailable
    const std::string &unavailableReason() const { return m_reason; }

private:
    void *m_device = nullptr;
    std::string m_reason;
};

} // namespace gpuf::gpu
