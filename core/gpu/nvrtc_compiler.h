// NVRTC compilation of kernel sources to cubins for one architecture, through the cubin cache (and to PTX only
// to count its instructions: cubins are what runs).
#pragma once

#include "core/gpu/cubin_cache.h"
#include "core/gpu/kernel_spec.h"
#include "core/gpu/measure_types.h"

#include <string>
#include <vector>

namespace gpuf::gpu {

struct CompiledModule
{
    CompileResult info; // info.ok false: info.log holds NVRTC's diagnostics
    std::vector<char> cubin;
};

class NvrtcCompiler
{
public:
    NvrtcCompiler(CubinCache cache, std::vector<std::string> includeDirs);

    static std::string version(); // "13.0"

    // arch is "sm_90" style. Resources come from ptxas's report; the caller refines them with the driver.
    CompiledModule compile(const CompileSpec &spec, const std::string &arch);

    // The options a compile of spec for arch uses (also the cache key's options).
    std::vector<std::string> optionsFor(const CompileSpec &spec, const std::string &arch) const;

    // The PTX instruction mix of spec for arch's virtual architecture (sm_90 → compute_90), from a second NVRTC
    // compile to PTX whose text the cache keeps too. nullopt, with `error` set, when NVRTC refuses.
    std::optional<PtxMix> ptxMix(const CompileSpec &spec, const std::string &arch, std::string &error);

private:
    CubinCache m_cache;
    std::vector<std::string> m_includeDirs;
};

// Parses ptxas -v output ("Used 32 registers, 1024 bytes smem", "8 bytes stack frame, 4 bytes spill stores").
std::vector<KernelResources> parsePtxasReport(const std::string &log);

bool isValidArch(const std::string &arch);

} // namespace gpuf::gpu
