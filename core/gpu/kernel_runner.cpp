// Module loading, buffer allocation/initialisation/poisoning and argument packing on the driver API.
#include "core/gpu/kernel_runner.h"

#include "core/gpu/host_data.h"

#include <cstring>

namespace gpuf::gpu {

std::variant<std::unique_ptr<LoadedKernels>, GpuFault> LoadedKernels::load(const GpuDevice &gpu, const KernelSpec &spec,
    const std::vector<char> &cubin, const std::vector<std::pair<std::string, std::string>> &lowered)
{
    const DriverApi &api = gpu.api();
    std::unique_ptr<LoadedKernels> k(new LoadedKernels(gpu));
    k->m_spec = &spec;
    if (CUresult r = api.moduleLoadData(&k->m_module, cubin.data()); r != CUDA_SUCCESS) {
        GpuFault f = gpu.fault(r, "cuModuleLoadData");
        f.status = f.restartRequired ? Status::RuntimeError : Status::CompileFailed;
        return f;
    }
    for (const auto &launch : spec.launches) {
        CUfunction fn = nullptr;
        std::string symbol = launch.entry;
        for (const auto &[entry, name] : lowered) {
            if (entry == launch.entry)
                symbol = name;
        }
        if (CUresult r = api.moduleGetFunction(&fn, k->m_module, symbol.c_str()); r != CUDA_SUCCESS) {
            GpuFault f = gpu.fault(r, "entry '" + launch.entry + "' not found (is it a __global__ function?)");
            f.status = f.restartRequired ? Status::RuntimeError : Status::CompileFailed;
            return f;
        }
        k->m_functions.push_back(fn);
    }
    return k;
}

LoadedKernels::~LoadedKernels()
{
    // cuModuleUnload waits for the module's kernels: behind a hung one it never returns (the worker exits anyway).
    if (m_module && !m_gpu.lost())
        m_gpu.api().moduleUnload(m_module);
}

KernelResources LoadedKernels::resources(std::size_t launch) const
{
    const DriverApi &api = m_gpu.api();
    KernelResources k;
    k.entry = m_spec->launches[launch].entry;
    k.source = "driver";
    auto attr = [&](CUfunction_attribute a) {
        int v = -1;
        api.funcGetAttribute(&v, a, m_functions[launch]);
        return v;
    };
    k.registers = attr(CU_FUNC_ATTRIBUTE_NUM_REGS);
    k.staticSharedBytes = attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    k.localBytes = attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    k.constBytes = attr(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
    k.maxThreadsPerBlock = attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    return k;
}

std::variant<std::unique_ptr<CaseBuffers>, GpuFault> CaseBuffers::allocate(
    const GpuDevice &gpu, const KernelSpec &spec, const ExpressionEvaluator &eval)
{
    std::unique_ptr<CaseBuffers> b(new CaseBuffers(gpu, spec));
    for (const auto &bs : spec.buffers) {
        auto count = eval.evaluateCount(bs.count);
        if (!count)
            return GpuFault {Status::BadRequest, "buffers " + bs.name + ".count: " + count.error(), false};
        Buffer buf;
        buf.spec = &bs;
        buf.count = *count;
        // Never a zero-byte allocation: a kernel given an empty buffer still gets a valid pointer.
        const std::size_t bytes = std::max<std::size_t>(1, static_cast<std::size_t>(*count) * dtypeSize(bs.dtype));
        if (CUresult r = gpu.api().memAlloc(&buf.pointer, bytes); r != CUDA_SUCCESS) {
            GpuFault f = gpu.fault(r, "allocating buffer '" + bs.name + "' (" + std::to_string(bytes) + " bytes)");
            f.status = f.restartRequired ? Status::RuntimeError : Status::InfrastructureFailure;
            return f;
        }
        b->m_buffers[bs.name] = buf;
    }
    return b;
}

CaseBuffers::~CaseBuffers()
{
    // cuMemFree synchronises: after a watchdog timeout it would wait for the hung kernel for ever.
    if (m_gpu.lost())
        return;
    for (auto &[name, b] : m_buffers)
        m_gpu.api().memFree(b.pointer);
}

std::optional<GpuFault> CaseBuffers::prepare(std::uint64_t salt)
{
    if (m_gpu.lost())
        return GpuFault {Status::RuntimeError, "uploading inputs: the CUDA context is no longer usable", true};
    for (auto &[name, b] : m_buffers) {
        if (!b.spec->init)
            continue;
        auto key = std::make_pair(name, salt);
        auto it = m_hostInputs.find(key);
        if (it == m_hostInputs.end()) {
            // Keep only this salt's inputs: a new correctness run draws new ones.
            // `key`, not the structured binding `name`: clang before 16 cannot capture a binding (clang-tidy 14).
            std::erase_if(m_hostInputs, [&key](const auto &e) { return e.first.first == key.first; });
            it = m_hostInputs.emplace(key, workerHostDataCache().get(b.spec->dtype, *b.spec->init, b.count, salt))
                     .first;
        }
        if (it->second->empty())
            continue;
        // On the worker's stream, not cuMemcpyHtoD's legacy stream: the worker's stream is non-blocking, so it does not
        // wait for the legacy one, and a copy from pageable memory may return while its last chunk is still on the
        // way — a kernel launched next could read part of the previous inputs (seen with 14 workers sharing an H200:
        // the last rows of a matrix were stale). The stream orders the copy before the poison and the launches.
        if (CUresult r = m_gpu.api().memcpyHtoDAsync(b.pointer, it->second->data(), it->second->size(), m_gpu.stream());
            r != CUDA_SUCCESS)
            return m_gpu.fault(r, "uploading buffer '" + name + "'");
    }
    return poisonOutputs();
}

std::optional<GpuFault> CaseBuffers::poisonOutputs()
{
    const DriverApi &api = m_gpu.api();
    for (auto &[name, b] : m_buffers) {
        if (b.spec->role != BufferRole::Output || b.count == 0)
            continue;
        const PoisonPattern p = poisonPattern(b.spec->dtype);
        const std::size_t bytes = static_cast<std::size_t>(b.count) * dtypeSize(b.spec->dtype);
        CUresult r = CUDA_SUCCESS;
        if (p.width == 4)
            r = api.memsetD32Async(b.pointer, p.value, bytes / 4, m_gpu.stream());
        else if (p.width == 2)
            r = api.memsetD16Async(b.pointer, static_cast<unsigned short>(p.value), bytes / 2, m_gpu.stream());
        else
            r = api.memsetD8Async(b.pointer, static_cast<unsigned char>(p.value), bytes, m_gpu.stream());
        if (r != CUDA_SUCCESS)
            return m_gpu.fault(r, "poisoning buffer '" + name + "'");
    }
    return m_gpu.waitIdle(60000.0, "poisoning outputs");
}

std::variant<std::vector<std::uint8_t>, GpuFault> CaseBuffers::download(const std::string &name) const
{
    if (m_gpu.lost())
        return GpuFault {
            Status::RuntimeError, "downloading '" + name + "': the CUDA context is no longer usable", true};
    const Buffer &b = m_buffers.at(name);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(b.count) * dtypeSize(b.spec->dtype));
    if (out.empty())
        return out;
    if (CUresult r = m_gpu.api().memcpyDtoH(out.data(), b.pointer, out.size()); r != CUDA_SUCCESS)
        return m_gpu.fault(r, "downloading buffer '" + name + "'");
    return out;
}

std::variant<LaunchSequence, std::string> LaunchSequence::build(
    const KernelSpec &spec, const LoadedKernels &kernels, const CaseBuffers &buffers, const ExpressionEvaluator &eval)
{
    LaunchSequence seq;
    for (std::size_t i = 0; i < spec.launches.size(); ++i) {
        const LaunchSpec &ls = spec.launches[i];
        auto geometry = evaluateGeometry(ls, eval);
        if (!geometry)
            return "launches[" + std::to_string(i) + "]." + geometry.error();
        Launch l;
        l.function = kernels.function(i);
        l.geometry = *geometry;
        l.entry = ls.entry;
        l.storage.resize(ls.args.size());
        for (std::size_t k = 0; k < ls.args.size(); ++k) {
            const KernelArg &a = ls.args[k];
            void *slot = &l.storage[k];
            if (a.isBuffer) {
                const CUdeviceptr p = buffers.pointer(a.buffer);
                std::memcpy(slot, &p, sizeof p);
                continue;
            }
            auto v = eval.evaluate(a.expression);
            if (!v)
                return "launches[" + std::to_string(i) + "].args[" + std::to_string(k) + "]: " + v.error();
            switch (a.scalarType) {
            case ScalarType::I32: {
                const auto x = static_cast<std::int32_t>(*v);
                std::memcpy(slot, &x, sizeof x);
                break;
            }
            case ScalarType::I64: {
                const auto x = static_cast<std::int64_t>(*v);
                std::memcpy(slot, &x, sizeof x);
                break;
            }
            case ScalarType::F32: {
                const auto x = static_cast<float>(*v);
                std::memcpy(slot, &x, sizeof x);
                break;
            }
            case ScalarType::F64:
                std::memcpy(slot, &*v, sizeof(double));
                break;
            }
        }
        seq.m_geometry.push_back(l.geometry);
        seq.m_launches.push_back(std::move(l));
    }
    // params point into storage, so they are set once the launches stop moving.
    for (auto &l : seq.m_launches) {
        for (auto &slot : l.storage)
            l.params.push_back(&slot);
    }
    return seq;
}

std::optional<std::string> LaunchSequence::resourceProblem(const GpuDevice &gpu, const LoadedKernels &kernels) const
{
    const DeviceInfo &d = gpu.info();
    for (std::size_t i = 0; i < m_launches.size(); ++i) {
        const Launch &l = m_launches[i];
        const auto &g = l.geometry;
        const KernelResources r = kernels.resources(i);
        const std::uint64_t threads = std::uint64_t(g.block[0]) * g.block[1] * g.block[2];
        const std::string who = "launch " + std::to_string(i) + " ('" + l.entry + "') asks for too many resources: ";
        if (threads > static_cast<std::uint64_t>(r.maxThreadsPerBlock))
            return who + std::to_string(threads) + " threads per block, the kernel allows "
                + std::to_string(r.maxThreadsPerBlock) + " (registers: " + std::to_string(r.registers) + ")";
        if (g.block[2] > 64 || g.grid[1] > 65535 || g.grid[2] > 65535 || g.grid[0] > 2147483647u)
            return who + "grid or block dimensions beyond the device's limits";
        const std::int64_t shared = std::int64_t(g.sharedBytes) + std::max(0, r.staticSharedBytes);
        if (shared > d.maxSharedPerBlockOptin)
            return who + std::to_string(shared) + " bytes of shared memory per block, the device allows "
                + std::to_string(d.maxSharedPerBlockOptin);
    }
    return std::nullopt;
}

std::optional<GpuFault> LaunchSequence::run(const GpuDevice &gpu) const
{
    if (gpu.lost())
        return GpuFault {Status::RuntimeError, "launch refused: the CUDA context is no longer usable", true};
    const DriverApi &api = gpu.api();
    for (const auto &l : m_launches) {
        if (l.geometry.sharedBytes > 48 * 1024)
            api.funcSetAttribute(
                l.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(l.geometry.sharedBytes));
        const auto &g = l.geometry;
        CUresult r = api.launchKernel(l.function, g.grid[0], g.grid[1], g.grid[2], g.block[0], g.block[1], g.block[2],
            g.sharedBytes, gpu.stream(), const_cast<void **>(l.params.data()), nullptr);
        if (r != CUDA_SUCCESS)
            return gpu.fault(r, "launching '" + l.entry + "'");
    }
    return std::nullopt;
}

} // namespace gpuf::gpu
