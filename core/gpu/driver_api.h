// The CUDA driver API, opened at run time (dlopen libcuda.so.1) so the worker starts where no driver exists.
#pragma once

#include "core/gpu/expected.h"

#include <cuda.h>

#include <string>

namespace gpuf::gpu {

// Function pointers resolved through cuGetProcAddress for the header's CUDA version.
struct DriverApi
{
#define GPUF_DRIVER_FUNCTIONS(X)                                                                                       \
    X(init, cuInit)                                                                                                    \
    X(driverGetVersion, cuDriverGetVersion)                                                                            \
    X(getErrorName, cuGetErrorName)                                                                                    \
    X(getErrorString, cuGetErrorString)                                                                                \
    X(deviceGetCount, cuDeviceGetCount)                                                                                \
    X(deviceGet, cuDeviceGet)                                                                                          \
    X(deviceGetName, cuDeviceGetName)                                                                                  \
    X(deviceGetUuid, cuDeviceGetUuid)                                                                                  \
    X(deviceGetAttribute, cuDeviceGetAttribute)                                                                        \
    X(deviceTotalMem, cuDeviceTotalMem)                                                                                \
    X(primaryCtxRetain, cuDevicePrimaryCtxRetain)                                                                      \
    X(ctxSetCurrent, cuCtxSetCurrent)                                                                                  \
    X(ctxSynchronize, cuCtxSynchronize)                                                                                \
    X(moduleLoadData, cuModuleLoadData)                                                                                \
    X(moduleUnload, cuModuleUnload)                                                                                    \
    X(moduleGetFunction, cuModuleGetFunction)                                                                          \
    X(funcGetAttribute, cuFuncGetAttribute)                                                                            \
    X(funcSetAttribute, cuFuncSetAttribute)                                                                            \
    X(occupancyMaxActiveBlocks, cuOccupancyMaxActiveBlocksPerMultiprocessor)                                           \
    X(memAlloc, cuMemAlloc)                                                                                            \
    X(memFree, cuMemFree)                                                                                              \
    X(memGetInfo, cuMemGetInfo)                                                                                        \
    X(memcpyHtoD, cuMemcpyHtoD)                                                                                        \
    X(memcpyHtoDAsync, cuMemcpyHtoDAsync)                                                                              \
    X(memcpyDtoH, cuMemcpyDtoH)                                                                                        \
    X(memcpyDtoDAsync, cuMemcpyDtoDAsync)                                                                              \
    X(memsetD8Async, cuMemsetD8Async)                                                                                  \
    X(memsetD16Async, cuMemsetD16Async)                                                                                \
    X(memsetD32Async, cuMemsetD32Async)                                                                                \
    X(launchKernel, cuLaunchKernel)                                                                                    \
    X(streamCreate, cuStreamCreate)                                                                                    \
    X(streamQuery, cuStreamQuery)                                                                                      \
    X(eventCreate, cuEventCreate)                                                                                      \
    X(eventRecord, cuEventRecord)                                                                                      \
    X(eventQuery, cuEventQuery)                                                                                        \
    X(eventElapsedTime, cuEventElapsedTime)                                                                            \
    X(eventDestroy, cuEventDestroy)

// The arguments are a member's name and a function's name: parentheses around either would not be a declaration.
// NOLINTNEXTLINE(bugprone-macro-parentheses)
#define GPUF_DECLARE(member, symbol) decltype(&symbol) member = nullptr;
    GPUF_DRIVER_FUNCTIONS(GPUF_DECLARE)
#undef GPUF_DECLARE

    // "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"
    std::string describe(CUresult result) const;
};

// Loads libcuda and calls cuInit once; later calls return the same outcome. The failure message is the exact
// reason ("no NVIDIA driver found (libcuda.so.1: cannot open shared object file...)", "cuInit failed: ...").
Expected<const DriverApi *> driverApi();

// Errors after which the context is unusable (the process must be restarted).
bool isStickyError(CUresult result);

} // namespace gpuf::gpu
