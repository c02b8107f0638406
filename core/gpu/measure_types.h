// Result value types of the worker (compile, device, correctness, timing), independent of CUDA headers.
#pragma once

#include "core/gpu/host_data.h"
#include "core/gpu/kernel_spec.h"
#include "core/gpu/ptx_mix.h"
#include "core/gpu/sample_stats.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuf::gpu {

// Protocol statuses; a response's status is the worst of its parts (order of severity below).
enum class Status { Ok, Incorrect, RuntimeError, Timeout, CompileFailed, InfrastructureFailure, BadRequest };
const char *statusName(Status status);
Status worse(Status a, Status b);

struct KernelResources
{
    std::string entry;
    int registers = -1;
    int staticSharedBytes = -1;
    int localBytes = -1; // per-thread local memory (stack frame + spills)
    int constBytes = -1;
    int maxThreadsPerBlock = -1;
    int spillStoreBytes = -1;
    int spillLoadBytes = -1;
    std::string source; // "driver" (cuFuncGetAttribute) or "ptxas" (parsed from the compile log)
};

struct CompileResult
{
    bool ok = false;
    std::string name;
    std::string arch;
    std::vector<std::string> options;
    std::string log;
    bool cacheHit = false;
    double compileMs = 0.0;
    std::string cacheKey;
    std::string pch; // what happened with precompiled headers
    std::vector<KernelResources> kernels;
    std::optional<PtxMix> ptxMix; // only when the request asked for it ("ptx_mix": true)
    // Each entry as the spec names it → the symbol in the cubin (the same for extern "C"; mangled for C++ names and
    // template instantiations, found through NVRTC name expressions).
    std::vector<std::pair<std::string, std::string>> loweredNames;
    std::string diagnosis; // a failed compile's cause in words (a missing #include, an unknown entry); may be empty
    std::string binarySha256; // SHA-256 of the cubin that runs (hex); empty when the compile failed
};

struct ClockReading
{
    bool available = false;
    std::string reason; // why not, when unavailable
    unsigned smMhz = 0;
    unsigned memMhz = 0;
};

struct DeviceInfo
{
    int ordinal = 0;
    std::string name;
    std::string uuid;
    int ccMajor = 0;
    int ccMinor = 0;
    std::string arch; // sm_XY
    int smCount = 0;
    long long totalMemoryBytes = 0;
    int l2Bytes = 0;
    int maxThreadsPerBlock = 0;
    int maxThreadsPerSm = 0;
    int maxSharedPerBlockOptin = 0;
    int memoryBusWidthBits = 0;
    int memoryClockKhz = 0;
    int smClockKhz = 0;
    double peakBandwidthGBs = 0.0; // from bus width and memory clock (DDR)
    std::string driverVersion; // "580.159.04" from NVML when available, else the CUDA driver API version
    int cudaDriverApiVersion = 0;
    ClockReading clocks;
};

struct LaunchReport
{
    std::string entry;
    LaunchGeometry geometry;
    int activeBlocksPerSm = -1;
    double occupancy = -1.0; // active threads per SM / max threads per SM
};

struct CorrectnessResult
{
    bool checked = false;
    std::string note; // why not checked, or what was compared
    int runs = 0;
    std::int64_t elements = 0;
    std::int64_t mismatches = 0;
    std::vector<BufferComparison> buffers; // of the last run that had mismatches (else the last run)
};

struct TimingResult
{
    std::string method; // "cupti" or "cuda_events"
    std::string methodNote; // why CUPTI was not used, when it was not
    SampleStats stats; // by method
    SampleStats eventStats; // CUDA events, always
    bool flushL2 = true;
    int warmup = 0;
    bool reachedTarget = false; // relStdError <= target before the budget ran out
    double wallMs = 0.0;
};

struct CaseResult
{
    std::string name;
    CaseVars vars;
    Status status = Status::Ok;
    std::string message;
    std::vector<LaunchReport> launches;
    CorrectnessResult correctness;
    std::optional<TimingResult> timing;
    std::optional<TimingResult> referenceTiming;
    double bytesMoved = -1.0;
    double flops = -1.0;
    double floorUs = -1.0; // bytes_moved / peak bandwidth
    bool implausible = false;
    ClockReading clocksBefore;
    ClockReading clocksAfter;
};

struct MeasureOptions
{
    bool flushL2 = true;
    // events (default) | cupti. CUPTI's kernel records are opt-in: on an H200 (driver 580) enabling concurrent-kernel
    // activity slowed a memory-bound copy by about 8% (219 vs 202 us), so events are the honest default.
    std::string timing = "events";
    int warmup = 3;
    int minSamples = 10;
    int maxSamples = 2000;
    double targetRelStdError = 0.005;
    double timeBudgetMs = 2000.0;
    double timeoutMs = 10000.0; // watchdog per synchronisation
    int correctnessRuns = 2;
    bool timeReference = false;
    bool checkCorrectness = true;
    std::vector<std::string> cases; // empty = all
};

} // namespace gpuf::gpu
