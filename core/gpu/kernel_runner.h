// A compiled spec on the device: its module and functions, one case's buffers, packed arguments and launches.
#pragma once

#include "core/gpu/device_query.h"
#include "core/gpu/kernel_spec.h"

#include <map>
#include <memory>
#include <variant>

namespace gpuf::gpu {

// The module of one spec with a function per launch; unloaded on destruction.
class LoadedKernels
{
public:
    // Failures here are compile-side (bad image, missing entry) unless restartRequired says otherwise. `lowered`
    // maps an entry to its symbol in the cubin (CompileResult::loweredNames); an entry not in it is its own symbol.
    static std::variant<std::unique_ptr<LoadedKernels>, GpuFault> load(const GpuDevice &gpu, const KernelSpec &spec,
        const std::vector<char> &cubin, const std::vector<std::pair<std::string, std::string>> &lowered = {});
    ~LoadedKernels();

    CUfunction function(std::size_t launch) const { return m_functions[launch]; }
    // Registers etc. as the driver reports them, which beats ptxas's log when a device is there.
    KernelResources resources(std::size_t launch) const;

private:
    LoadedKernels(const GpuDevice &gpu)
        : m_gpu(gpu)
    { }
    const GpuDevice &m_gpu;
    const KernelSpec *m_spec = nullptr;
    CUmodule m_module = nullptr;
    std::vector<CUfunction> m_functions;
};

// Device buffers of one case, shared by reference and candidate (same names, dtypes and counts).
class CaseBuffers
{
public:
    static std::variant<std::unique_ptr<CaseBuffers>, GpuFault> allocate(
        const GpuDevice &gpu, const KernelSpec &spec, const ExpressionEvaluator &eval);
    ~CaseBuffers();

    // Fills inputs and inouts with the seeded initialiser for this salt (0 = the spec's seeds) and poisons outputs.
    std::optional<GpuFault> prepare(std::uint64_t salt);
    std::optional<GpuFault> poisonOutputs();
    std::variant<std::vector<std::uint8_t>, GpuFault> download(const std::string &name) const;
    CUdeviceptr pointer(const std::string &name) const { return m_buffers.at(name).pointer; }
    const KernelSpec &spec() const { return m_spec; }

private:
    struct Buffer
    {
        const BufferSpec *spec = nullptr;
        std::int64_t count = 0;
        CUdeviceptr pointer = 0;
    };
    CaseBuffers(const GpuDevice &gpu, const KernelSpec &spec)
        : m_gpu(gpu)
        , m_spec(spec)
    { }
    const GpuDevice &m_gpu;
    const KernelSpec &m_spec;
    std::map<std::string, Buffer> m_buffers;
    // Per (buffer, salt), shared with the worker's HostDataCache.
    std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<const std::vector<std::uint8_t>>> m_hostInputs;
};

// Every launch of a spec for one case, with arguments packed once; run() enqueues them all in order.
class LaunchSequence
{
public:
    static std::variant<LaunchSequence, std::string> build(const KernelSpec &spec, const LoadedKernels &kernels,
        const CaseBuffers &buffers, const ExpressionEvaluator &eval);

    // Why a launch cannot run on this device (too many threads or too much shared memory), before the driver
    // is asked: the occupancy API is not safe with such a configuration.
    std::optional<std::string> resourceProblem(const GpuDevice &gpu, const LoadedKernels &kernels) const;

    std::optional<GpuFault> run(const GpuDevice &gpu) const;
    std::size_t size() const { return m_launches.size(); }
    const std::vector<LaunchGeometry> &geometry() const { return m_geometry; }

private:
    struct Launch
    {
        CUfunction function = nullptr;
        LaunchGeometry geometry;
        std::vector<std::uint64_t> storage; // one 8-byte slot per argument
        std::vector<void *> params;
        std::string entry;
    };
    std::vector<Launch> m_launches;
    std::vector<LaunchGeometry> m_geometry;
};

} // namespace gpuf::gpu
