// Minimal NVML binding: the few stable entry points gpuf needs, declared here because the toolkit image
// may not ship nvml.h.
#include "core/gpu/nvml_clocks.h"

#include <dlfcn.h>

namespace gpuf::gpu {

namespace {

using NvmlReturn = int;
using NvmlDevice = void *;
constexpr int kClockSm = 1;
constexpr int kClockMem = 2;

struct NvmlApi
{
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*handleByUuid)(const char *, NvmlDevice *) = nullptr;
    NvmlReturn (*clockInfo)(NvmlDevice, int, unsigned *) = nullptr;
    NvmlReturn (*driverVersion)(char *, unsigned) = nullptr;
    const char *(*errorString)(NvmlReturn) = nullptr;
    std::string failure;
};

const NvmlApi &nvml()
{
    static const NvmlApi api = [] {
        NvmlApi a;
        void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char *why = dlerror();
            a.failure = std::string("NVML not available (") + (why ? why : "libnvidia-ml.so.1") + ")";
            return a;
        }
        a.init = reinterpret_cast<decltype(a.init)>(dlsym(h, "nvmlInit_v2"));
        a.handleByUuid = reinterpret_cast<decltype(a.handleByUuid)>(dlsym(h, "nvmlDeviceGetHandleByUUID"));
        a.clockInfo = reinterpret_cast<decltype(a.clockInfo)>(dlsym(h, "nvmlDeviceGetClockInfo"));
        a.driverVersion = reinterpret_cast<decltype(a.driverVersion)>(dlsym(h, "nvmlSystemGetDriverVersion"));
        a.errorString = reinterpret_cast<decltype(a.errorString)>(dlsym(h, "nvmlErrorString"));
        if (!a.init || !a.handleByUuid || !a.clockInfo || !a.driverVersion || !a.errorString) {
            a.failure = "NVML library lacks the expected functions";
            return a;
        }
        if (NvmlReturn r = a.init(); r != 0)
            a.failure = std::string("nvmlInit failed: ") + a.errorString(r);
        return a;
    }();
    return api;
}

} // namespace

NvmlClocks::NvmlClocks(const std::string &uuid)
{
    const NvmlApi &api = nvml();
    if (!api.failure.empty()) {
        m_reason = api.failure;
        return;
    }
    NvmlDevice device = nullptr;
    if (NvmlReturn r = api.handleByUuid(uuid.c_str(), &device); r != 0) {
        m_reason = "NVML does not know " + uuid + ": " + api.errorString(r);
        return;
    }
    m_device = device;
}

ClockReading NvmlClocks::read() const
{
    ClockReading c;
    if (!m_device) {
        c.reason = m_reason;
        return c;
    }
    const NvmlApi &api = nvml();
    if (NvmlReturn r = api.clockInfo(m_device, kClockSm, &c.smMhz); r != 0) {
        c.reason = std::string("nvmlDeviceGetClockInfo(SM): ") + api.errorString(r);
        return c;
    }
    if (NvmlReturn r = api.clockInfo(m_device, kClockMem, &c.memMhz); r != 0) {
        c.reason = std::string("nvmlDeviceGetClockInfo(MEM): ") + api.errorString(r);
        return c;
    }
    c.available = true;
    return c;
}

std::string NvmlClocks::driverVersion() const
{
    const NvmlApi &api = nvml();
    if (!api.failure.empty())
        return {};
    char buffer[96] = {};
    if (api.driverVersion(buffer, sizeof buffer) != 0)
        return {};
    return buffer;
}

} // namespace gpuf::gpu
