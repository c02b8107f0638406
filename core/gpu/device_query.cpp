// Device properties through the driver API (and NVML for clocks), and the watchdog's polling waits.
#include "core/gpu/device_query.h"

#include <chrono>
#include <cstdio>
#include <thread>

namespace gpuf::gpu {

namespace {

std::string formatUuid(const CUuuid &uuid)
{
    const auto *b = reinterpret_cast<const unsigned char *>(uuid.bytes);
    char out[64];
    std::snprintf(out, sizeof out, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
        b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return out;
}

Expected<DeviceInfo> describeDevice(const DriverApi &api, int ordinal, CUdevice &device)
{
    if (CUresult r = api.deviceGet(&device, ordinal); r != CUDA_SUCCESS)
        return Failure {"cuDeviceGet(" + std::to_string(ordinal) + "): " + api.describe(r)};
    DeviceInfo d;
    d.ordinal = ordinal;
    char name[256] = {};
    api.deviceGetName(name, sizeof name, device);
    d.name = name;
    CUuuid uuid {};
    api.deviceGetUuid(&uuid, device);
    d.uuid = formatUuid(uuid);
    auto attr = [&](CUdevice_attribute a) {
        int v = 0;
        api.deviceGetAttribute(&v, a, device);
        return v;
    };
    d.ccMajor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    d.ccMinor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    d.arch = "sm_" + std::to_string(d.ccMajor) + std::to_string(d.ccMinor);
    d.smCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    d.l2Bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    d.maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    d.maxThreadsPerSm = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    d.maxSharedPerBlockOptin = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    d.memoryBusWidthBits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    d.memoryClockKhz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    d.smClockKhz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    // Double data rate: two transfers per memory clock over the whole bus.
    d.peakBandwidthGBs = 2.0 * d.memoryClockKhz * 1e3 * (d.memoryBusWidthBits / 8.0) / 1e9;
    size_t total = 0;
    api.deviceTotalMem(&total, device);
    d.totalMemoryBytes = static_cast<long long>(total);
    api.driverGetVersion(&d.cudaDriverApiVersion);
    NvmlClocks nvml(d.uuid);
    d.driverVersion = nvml.driverVersion();
    if (d.driverVersion.empty())
        d.driverVersion = "CUDA " + std::to_string(d.cudaDriverApiVersion / 1000) + "."
            + std::to_string(d.cudaDriverApiVersion % 1000 / 10) + " driver (NVML unavailable)";
    d.clocks = nvml.read();
    return d;
}

} // namespace

Expected<std::vector<DeviceInfo>> listDevices()
{
    auto api = driverApi();
    if (!api)
        return Failure {api.error()};
    int count = 0;
    if (CUresult r = (*api)->deviceGetCount(&count); r != CUDA_SUCCESS)
        return Failure {"cuDeviceGetCount: " + (*api)->describe(r)};
    std::vector<DeviceInfo> out;
    for (int i = 0; i < count; ++i) {
        CUdevice device = 0;
        auto info = describeDevice(**api, i, device);
        if (!info)
            return Failure {info.error()};
        out.push_back(std::move(info.value()));
    }
    return out;
}

Expected<std::unique_ptr<GpuDevice>> GpuDevice::open(int ordinal)
{
    auto api = driverApi();
    if (!api)
        return Failure {api.error()};
    const DriverApi &a = **api;
    int count = 0;
    if (CUresult r = a.deviceGetCount(&count); r != CUDA_SUCCESS || count == 0)
        return Failure {"no CUDA device found"};
    if (ordinal < 0 || ordinal >= count)
        return Failure {
            "device " + std::to_string(ordinal) + " does not exist (" + std::to_string(count) + " device(s))"};
    CUdevice device = 0;
    auto info = describeDevice(a, ordinal, device);
    if (!info)
        return Failure {info.error()};
    std::unique_ptr<GpuDevice> gpu(new GpuDevice(a, NvmlClocks(info->uuid)));
    gpu->m_device = device;
    gpu->m_info = std::move(info.value());
    if (CUresult r = a.primaryCtxRetain(&gpu->m_context, device); r != CUDA_SUCCESS)
        return Failure {"cuDevicePrimaryCtxRetain: " + a.describe(r)};
    if (CUresult r = a.ctxSetCurrent(gpu->m_context); r != CUDA_SUCCESS)
        return Failure {"cuCtxSetCurrent: " + a.describe(r)};
    if (CUresult r = a.streamCreate(&gpu->m_stream, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS)
        return Failure {"cuStreamCreate: " + a.describe(r)};
    return gpu;
}

namespace {

// Queries until the answer is not CUDA_ERROR_NOT_READY or the deadline passes (then NOT_READY is returned).
template<typename Query>
CUresult pollUntil(Query query, double timeoutMs)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::microseconds(static_cast<long long>(timeoutMs * 1e3));
    int spins = 0;
    for (;;) {
        const CUresult r = query();
        if (r != CUDA_ERROR_NOT_READY || Clock::now() > deadline)
            return r;
        // Spin briefly (short kernels), then sleep so a long wait does not burn a core.
        if (++spins > 2000)
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        else
            std::this_thread::yield();
    }
}

template<typename Query>
std::optional<GpuFault> poll(const GpuDevice &gpu, Query query, double timeoutMs, const std::string &what)
{
    if (gpu.lost())
        return GpuFault {Status::RuntimeError, what + ": the CUDA context is no longer usable", true};
    const CUresult r = pollUntil(query, timeoutMs);
    if (r == CUDA_SUCCESS)
        return std::nullopt;
    if (r != CUDA_ERROR_NOT_READY)
        return gpu.fault(r, what);
    gpu.markLost();
    GpuFault f;
    f.status = Status::Timeout;
    f.message = what + ": still running after " + std::to_string(static_cast<long long>(timeoutMs))
        + " ms (watchdog); the kernel cannot be stopped, so the worker must be restarted";
    f.restartRequired = true;
    return f;
}

} // namespace

GpuFault GpuDevice::fault(CUresult result, const std::string &what) const
{
    GpuFault f;
    f.message = what + ": " + m_api->describe(result);
    // A launch error such as too many resources leaves the context usable; a kernel fault does not. The stream is
    // drained through the watchdog's poll: work still running past the deadline means a hung kernel.
    f.restartRequired = isStickyError(result);
    if (!f.restartRequired && !m_lost) {
        const CUresult drained = pollUntil([this] { return m_api->streamQuery(m_stream); }, m_watchdogMs);
        f.restartRequired = drained != CUDA_SUCCESS;
        if (drained == CUDA_ERROR_NOT_READY)
            f.message += " (and the stream was still busy after the watchdog's "
                + std::to_string(static_cast<long long>(m_watchdogMs)) + " ms)";
    }
    if (f.restartRequired || m_lost) {
        f.restartRequired = true;
        m_lost = true;
    }
    if (result == CUDA_ERROR_OUT_OF_MEMORY)
        f.status = Status::InfrastructureFailure;
    return f;
}

std::optional<GpuFault> GpuDevice::waitIdle(double timeoutMs, const std::string &what) const
{
    return poll(
        *this, [this] { return m_api->streamQuery(m_stream); }, timeoutMs, what);
}

std::optional<GpuFault> GpuDevice::waitEvent(CUevent event, double timeoutMs, const std::string &what) const
{
    return poll(
        *this, [this, event] { return m_api->eventQuery(event); }, timeoutMs, what);
}

} // namespace gpuf::gpu
