// dlopen-based loader of the CUDA driver API; one process-wide table, resolved on first use.
#include "core/gpu/driver_api.h"

#include <dlfcn.h>

namespace gpuf::gpu {

namespace {

using GetProcAddress = CUresult (*)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

Expected<DriverApi> load()
{
    void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        return Failure {std::string("no NVIDIA driver found (") + (why ? why : "libcuda.so.1 not found") + ")"};
    }
    auto getProc = reinterpret_cast<GetProcAddress>(dlsym(handle, "cuGetProcAddress_v2"));
    if (!getProc)
        return Failure {
            "the NVIDIA driver is too old: libcuda.so.1 has no cuGetProcAddress_v2 (CUDA 12 or newer needed)"};
    DriverApi api;
    std::string missing;
    auto resolve = [&](void **slot, const char *name) {
        CUdriverProcAddressQueryResult status {};
        if (getProc(name, slot, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status) != CUDA_SUCCESS || !*slot)
            missing += (missing.empty() ? "" : ", ") + std::string(name);
    };
#define GPUF_RESOLVE(member, symbol) resolve(reinterpret_cast<void **>(&api.member), #symbol);
    GPUF_DRIVER_FUNCTIONS(GPUF_RESOLVE)
#undef GPUF_RESOLVE
    if (!missing.empty())
        return Failure {"the NVIDIA driver lacks driver API functions: " + missing};
    const CUresult init = api.init(0);
    if (init != CUDA_SUCCESS)
        return Failure {"cuInit failed: " + api.describe(init)};
    return api;
}

} // namespace

std::string DriverApi::describe(CUresult result) const
{
    const char *name = nullptr;
    const char *text = nullptr;
    if (getErrorName)
        getErrorName(result, &name);
    if (getErrorString)
        getErrorString(result, &text);
    std::string out = name ? name : "CUDA error " + std::to_string(static_cast<int>(result));
    if (text)
        out += std::string(": ") + text;
    return out;
}

Expected<const DriverApi *> driverApi()
{
    static const Expected<DriverApi> loaded = load();
    if (!loaded)
        return Failure {loaded.error()};
    return &loaded.value();
}

bool isStickyError(CUresult result)
{
    switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    case CUDA_ERROR_UNKNOWN:
        return true;
    default:
        return false;
    }
}

} // namespace gpuf::gpu
