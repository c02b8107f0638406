// The catalogue of per-kernel and hardware features the cost model sees: stable keys, groups and the phrases the
// explanations are written with. Adding a feature appends to an enum; keys never change meaning, because trained
// models name their inputs by key (the manifest's feature list).
#pragma once

#include <QString>

#include <array>
#include <span>

namespace gpuf::features {

// Features of one kernel. Source features are always present (0 when the marker is absent); launch and compile
// features are missing (NaN) when their input (a launch spec, a compile by gpuf-measure) is not available.
enum class KernelFeature : int {
    // memory access
    AccessBytes, // widest access per thread in bytes (vector types), else the element size of the pointers
    VectorAccesses, // lines with vector-typed (16/8-byte) loads or stores
    Ldg, // __ldg read-only loads
    Restrict, // __restrict__ pointers
    CoalescedAccesses, // global subscripts whose lane index steps by one element per lane
    StridedAccesses, // global subscripts (or pointer offsets) where neighbouring lanes are a stride apart
    // shared memory
    SharedArrays, // __shared__ declarations
    SharedBytes, // static shared memory in bytes (array sizes evaluated from #define / constexpr)
    SharedPadded, // shared arrays padded by one column ([33], [TILE + 1])
    SharedColumnAccesses, // 2-D shared reads/writes whose row index follows threadIdx.x on an unpadded array
    DynamicShared, // extern __shared__ arrays
    // synchronisation and warp-level work
    Syncthreads,
    SyncthreadsInLoops,
    Syncwarp,
    Atomics,
    Shuffles, // __shfl_*_sync
    WarpReduces, // __reduce_*_sync, cg::reduce
    CooperativeGroups,
    TensorCore, // wmma::, mma.sync, wgmma, tl.dot
    AsyncCopies, // cp.async (inline PTX), __pipeline_memcpy_async, cuda::memcpy_async, TMA bulk copies
    // control flow
    Loops,
    LoopDepth,
    UnrollPragmas,
    GridStrideLoops,
    BlockStrideLoops,
    Branches,
    DivergentBranches, // conditions that split a warp by lane parity/modulo (tid % (2*s) == 0)
    // kernels and launches
    Kernels, // __global__ functions or @triton.jit kernels
    Launches, // launches in the spec, <<<…>>> or kernel[grid](…) in the source
    LaunchBounds,
    ThreadsPerBlock, // from the launch spec (or __launch_bounds__ / a literal <<<g, N>>>); NaN if unknown
    TotalThreadsLog2, // log2 of all threads launched, geometric mean over the cases; NaN without a spec
    TotalBlocksLog2,
    DynamicSharedBytes, // largest dynamic shared memory of a launch; NaN without a spec
    RegisterArrayElements, // elements of per-thread local arrays (register tiles)
    // precision and math
    Half,
    Bfloat16,
    Double,
    Int8,
    Fp8,
    FastMath, // __expf, rsqrtf, __fdividef, … and --use_fast_math
    PreciseMath, // expf, sqrtf, logf, exp, …
    // libraries and frameworks
    LibraryCalls, // cuBLAS, cuDNN, torch.matmul, F.softmax, …
    TorchOps, // torch.* / F.* calls
    TritonBlock, // largest BLOCK_* constant
    TritonNumWarps,
    TritonNumStages,
    TritonDot,
    TritonLoads,
    TritonMaskedLoads,
    SourceLines, // non-blank code lines
    // from a compile by gpuf-measure (optional)
    Registers,
    SpillBytes,
    CompiledSharedBytes,
    LocalBytes,
    PtxGlobalLoadsV4,
    PtxGlobalLoadsV2,
    PtxGlobalLoads,
    PtxGlobalStores,
    PtxMma, // mma / wgmma
    PtxCpAsync,
    PtxBarSync,
    PtxAtomics, // atom / red
    PtxShuffles,
    PtxInstructions,
    Count
};
inline constexpr int kKernelFeatureCount = int(KernelFeature::Count);

// The hardware row a forecast is made for; missing (NaN) when the forecast names no hardware.
enum class HardwareFeature : int {
    ComputeCapability, // major + minor / 10
    SmCount,
    MaxThreadsPerSm,
    ClockGhz,
    MemoryClockGhz,
    BusWidthBits,
    L2Megabytes,
    SharedMemoryPerSmKb,
    Count
};
inline constexpr int kHardwareFeatureCount = int(HardwareFeature::Count);

enum class FeatureGroup {
    Memory,
    SharedMemory,
    Synchronisation,
    ControlFlow,
    Launch,
    Precision,
    Library,
    Triton,
    Size,
    Compile,
    Hardware
};

// How a value reads in an explanation.
enum class ValueStyle {
    Count, // an integer
    Flag, // 0/1 presence; phrases say "uses …" / "does not use …"
    Bytes, // an integer number of bytes
    Log2, // stored as log2; shown as 2^v rounded
    Number, // a plain number
};

struct FeatureInfo
{
    const char *key; // stable JSON/manifest key, lower_snake_case
    FeatureGroup group;
    ValueStyle style;
    // Third-person phrase with %1 for the value and %s for a plural "s" ("has %1 barrier%s inside loops"); for Flag
    // the phrase for "present", with `absentPhrase` for 0.
    const char *phrase;
    const char *absentPhrase = nullptr;
};

const FeatureInfo &kernelFeatureInfo(KernelFeature feature);
const FeatureInfo &hardwareFeatureInfo(HardwareFeature feature);
QString kernelFeatureKey(KernelFeature feature);
QString hardwareFeatureKey(HardwareFeature feature);

// True for the features that only a compile by gpuf-measure provides.
bool isCompileFeature(KernelFeature feature);

// The phrase with the value filled in ("loads 16 bytes per access"); "… unknown" for NaN.
QString describeValue(const FeatureInfo &info, double value);
// The value alone as an explanation shows it ("16", "yes", "2^20", "—" for NaN).
QString formatValue(const FeatureInfo &info, double value);

} // namespace gpuf::features
