// The instruction mix of a PTX module: how many global loads (and how many of them 8- or 16-byte vector loads),
// stores, tensor-core mma/wgmma, cp.async copies, barriers, atomics and shuffles it holds. Static counts (each
// instruction once, however often it runs), for the cost model's compile features. Qt-free and CUDA-free.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace gpuf::gpu {

struct PtxMix
{
    int instructions = 0; // every instruction line (directives, labels and braces are not instructions)
    int ldGlobal = 0; // ld.global*, including the vector forms
    int ldGlobalV2 = 0;
    int ldGlobalV4 = 0;
    int stGlobal = 0;
    int mma = 0; // mma.* and wgmma.*
    int cpAsync = 0; // cp.async*
    int barSync = 0; // bar.sync, barrier.sync, bar.red (what __syncthreads compiles to)
    int atomics = 0; // atom.* and red.*
    int shfl = 0; // shfl.*
};

PtxMix countPtxInstructions(std::string_view ptx);

// {"instructions", "ld_global", "ld_global_v2", "ld_global_v4", "st_global", "mma", "cp_async", "bar_sync",
//  "atomics", "shfl"}
nlohmann::json toJson(const PtxMix &mix);

} // namespace gpuf::gpu
