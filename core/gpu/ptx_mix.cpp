// countPtxInstructions; see ptx_mix.h. A line scanner: PTX puts one instruction per line, ending in ';'.
#include "core/gpu/ptx_mix.h"

namespace gpuf::gpu {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

void countInstruction(std::string_view opcode, PtxMix &mix)
{
    ++mix.instructions;
    if (startsWith(opcode, "ld.global")) {
        ++mix.ldGlobal;
        if (opcode.find(".v4") != std::string_view::npos)
            ++mix.ldGlobalV4;
        else if (opcode.find(".v2") != std::string_view::npos)
            ++mix.ldGlobalV2;
    } else if (startsWith(opcode, "st.global")) {
        ++mix.stGlobal;
    } else if (startsWith(opcode, "mma.") || startsWith(opcode, "wgmma.")) {
        ++mix.mma;
    } else if (startsWith(opcode, "cp.async")) {
        ++mix.cpAsync;
    } else if (startsWith(opcode, "bar.sync") || startsWith(opcode, "barrier.sync") || startsWith(opcode, "bar.red")
        || startsWith(opcode, "barrier.red")) {
        ++mix.barSync;
    } else if (startsWith(opcode, "atom.") || startsWith(opcode, "red.")) {
        ++mix.atomics;
    } else if (startsWith(opcode, "shfl.")) {
        ++mix.shfl;
    }
}

} // namespace

PtxMix countPtxInstructions(std::string_view ptx)
{
    PtxMix mix;
    while (!ptx.empty()) {
        const std::size_t end = ptx.find('\n');
        std::string_view line = trimmed(ptx.substr(0, end));
        ptx.remove_prefix(end == std::string_view::npos ? ptx.size() : end + 1);
        if (const std::size_t comment = line.find("//"); comment != std::string_view::npos)
            line = trimmed(line.substr(0, comment));
        if (line.empty() || line.back() != ';' || line.front() == '.' || line.front() == '{' || line.front() == '}')
            continue; // a directive (.reg, .param, .loc …), a brace or a label
        if (line.front() == '@') { // a predicate guard: "@%p1 bra $L__BB0_2;"
            const std::size_t space = line.find_first_of(" \t");
            if (space == std::string_view::npos)
                continue;
            line = trimmed(line.substr(space));
        }
        const std::size_t space = line.find_first_of(" \t;");
        countInstruction(line.substr(0, space), mix);
    }
    return mix;
}

nlohmann::json toJson(const PtxMix &mix)
{
    return {{"instructions", mix.instructions}, {"ld_global", mix.ldGlobal}, {"ld_global_v2", mix.ldGlobalV2},
        {"ld_global_v4", mix.ldGlobalV4}, {"st_global", mix.stGlobal}, {"mma", mix.mma}, {"cp_async", mix.cpAsync},
        {"bar_sync", mix.barSync}, {"atomics", mix.atomics}, {"shfl", mix.shfl}};
}

} // namespace gpuf::gpu
