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

    // Classifies a failed driver call: sticky errors poison the context and need a restart. Whether a non-sticky
    // error left the context usable is asked of the stream by a deadline-bounded poll (never cuCtxSynchronize,
    // which would block for ever behind a hung kernel).
    GpuFault fault(CUresult result, const std::string &what) const;
    // Polls the stream until it is idle; a kernel still running after timeoutMs becomes Status::Timeout.
    std::optional<GpuFault> waitIdle(double timeoutMs, const std::string &what) const;
    std::optional<GpuFault> waitEvent(CUevent event, double timeoutMs, const std::string &what) const;

    // The budget fault() gives the stream to drain before it calls the context unusable (the request's timeout_ms).
    void setWatchdogMs(double timeoutMs) { m_watchdogMs = timeoutMs; }
    // True once a wait timed out or a fault poisoned the context. From then on nothing may call the driver in a way
    // that can block (cuMemFree, cuModuleUnload, synchronous copies, CUPTI flushes all wait for the hung kernel):
    // owners of device resources skip their release, and the worker answers and exits.
    bool lost() const { return m_lost; }
    void markLost() const { m_lost = true; }

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
    double m_watchdogMs = 10000.0;
    mutable bool m_lost = false;
};

// Devices visible to the driver, without opening a context (for hello).
Expected<std::vector<DeviceInfo>> listDevices();

} // namespace gpuf::gpu
