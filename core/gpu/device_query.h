// One opened GPU: its primary context, a stream, its properties and clocks, and watchdog-guarded waits.
#pragma once

#include "core/gpu/driver_api.h"
#include "core/gpu/measure_types.h"
#include "core/gpu/nvml_clocks.h"

#include <memory>
#include <optional>

namespace gpuf::gpu {

// A failed device step: the CUDA error (or a timeout) and whether the context is now unusable.
struct GpuFault
{
    Status status = Status::RuntimeError;
    std::string message;
    bool restartRequired = false;
};

class GpuDevice
{
public:
    static Expected<std::unique_ptr<GpuDevice>> open(int ordinal);

    const DriverApi &api() const { return *m_api; }
    CUstream stream() const { return m_stream; }
    const DeviceInfo &info() const { return m_info; }
    ClockReading clocks() const { return m_nvml.read(); }

    // Classifies a failed driver call: sticky errors poison the context and need a restart.
    GpuFault fault(CUresult result, const std::string &what) const;
    // Polls the stream until it is idle; a kernel still running after timeoutMs becomes Status::Timeout.
    std::optional<GpuFault> waitIdle(double timeoutMs, const std::string &what) const;
    std::optional<GpuFault> waitEvent(CUevent event, double timeoutMs, const std::string &what) const;

private:
    GpuDevice(const DriverApi &api, NvmlClocks nvml)
        : m_api(&api)
        , m_nvml(std::move(nvml))
    { }

    const DriverApi *m_api;
    CUdevice m_device = 0;
    CUcontext m_context = nullptr;
    CUstream m_stream = nullptr;
    DeviceInfo m_info;
    NvmlClocks m_nvml;
};

// Devices visible to the driver, without opening a context (for hello).
Expected<std::vector<DeviceInfo>> listDevices();

} // namespace gpuf::gpu
