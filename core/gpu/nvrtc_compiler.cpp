// NVRTC driver: options, automatic precompiled headers for sources with #include, cache lookup and store.
#include "core/gpu/nvrtc_compiler.h"

#include "core/gpu/compile_diagnosis.h"
#include "core/gpu/sha256.h"

#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <regex>

namespace gpuf::gpu {

namespace {

std::string programLog(nvrtcProgram program)
{
    size_t size = 0;
    if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1)
        return {};
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    // ptxas's report can leave its own terminator inside the log; keep the text only.
    log.erase(std::find(log.begin(), log.end(), '\0'), log.end());
    return log;
}

KernelResources &resourcesFor(std::vector<KernelResources> &all, const std::string &entry)
{
    for (auto &k : all) {
        if (k.entry == entry)
            return k;
    }
    KernelResources k;
    k.entry = entry;
    k.source = "ptxas";
    all.push_back(k);
    return all.back();
}

nlohmann::json resourcesToMeta(const std::vector<KernelResources> &kernels)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto &k : kernels)
        out.push_back(
            {{"entry", k.entry}, {"registers", k.registers}, {"smem", k.staticSharedBytes}, {"stack", k.localBytes},
                {"cmem", k.constBytes}, {"spill_stores", k.spillStoreBytes}, {"spill_loads", k.spillLoadBytes}});
    return out;
}

std::vector<KernelResources> resourcesFromMeta(const nlohmann::json &meta)
{
    std::vector<KernelResources> out;
    for (const auto &j : meta.value("kernels", nlohmann::json::array())) {
        KernelResources k;
        k.entry = j.value("entry", "");
        k.registers = j.value("registers", -1);
        k.staticSharedBytes = j.value("smem", -1);
        k.localBytes = j.value("stack", -1);
        k.constBytes = j.value("cmem", -1);
        k.spillStoreBytes = j.value("spill_stores", -1);
        k.spillLoadBytes = j.value("spill_loads", -1);
        k.source = "ptxas";
        out.push_back(k);
    }
    return out;
}

// Entries other than plain identifiers are template instantiations or qualified names: naming them to NVRTC
// instantiates them, so they are part of what the cubin is (and of its cache key).
void addNameExpressionKeys(const CompileSpec &spec, std::vector<std::string> &keyOptions)
{
    for (const auto &entry : spec.entries) {
        if (!isPlainEntry(entry))
            keyOptions.push_back("--name-expression=" + entry);
    }
}

// Every entry goes to NVRTC as a name expression, so a C++ name or a template instantiation can be an entry point
// as well as an extern "C" name; false with `error` set when NVRTC refuses one before compiling.
bool addNameExpressions(nvrtcProgram program, const CompileSpec &spec, std::string &error)
{
    for (const auto &entry : spec.entries) {
        if (nvrtcResult r = nvrtcAddNameExpression(program, entry.c_str()); r != NVRTC_SUCCESS) {
            error = "entry '" + entry + "': " + nvrtcGetErrorString(r);
            return false;
        }
    }
    return true;
}

std::vector<std::pair<std::string, std::string>> loweredNames(nvrtcProgram program, const CompileSpec &spec)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto &entry : spec.entries) {
        const char *lowered = nullptr;
        if (nvrtcGetLoweredName(program, entry.c_str(), &lowered) == NVRTC_SUCCESS && lowered)
            out.emplace_back(entry, lowered);
    }
    return out;
}

nlohmann::json loweredToMeta(const std::vector<std::pair<std::string, std::string>> &lowered)
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto &[entry, symbol] : lowered)
        out[entry] = symbol;
    return out;
}

// The lowered names a cached compile recorded, when it has one for every entry (an older entry, or one compiled
// without these entries named, does not: it is compiled again).
std::optional<std::vector<std::pair<std::string, std::string>>> loweredFromMeta(
    const nlohmann::json &meta, const CompileSpec &spec)
{
    std::vector<std::pair<std::string, std::string>> out;
    const nlohmann::json lowered = meta.value("lowered_names", nlohmann::json::object());
    for (const auto &entry : spec.entries) {
        auto it = lowered.find(entry);
        if (it == lowered.end() || !it->is_string())
            return std::nullopt;
        out.emplace_back(entry, it->get<std::string>());
    }
    return out;
}

// ptxas reports the symbols it compiled; the spec's own entry names read better and match its launches.
void nameResourcesByEntry(
    std::vector<KernelResources> &kernels, const std::vector<std::pair<std::string, std::string>> &lowered)
{
    for (auto &k : kernels) {
        for (const auto &[entry, symbol] : lowered) {
            if (k.entry == symbol)
                k.entry = entry;
        }
    }
}

} // namespace

bool isValidArch(const std::string &arch)
{
    static const std::regex pattern("sm_[0-9]{2,3}[af]?");
    return std::regex_match(arch, pattern);
}

std::vector<KernelResources> parsePtxasReport(const std::string &log)
{
    static const std::regex entryRe(R"(Compiling entry function '([^']+)')");
    static const std::regex propsRe(R"(Function properties for ([A-Za-z_][A-Za-z0-9_]*))");
    static const std::regex frameRe(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex usedRe(R"(Used (\d+) registers)");
    static const std::regex smemRe(R"((\d+) bytes smem)");
    static const std::regex cmemRe(R"((\d+) bytes cmem\[0\])");
    std::vector<KernelResources> out;
    std::string current;
    std::size_t start = 0;
    while (start < log.size()) {
        std::size_t end = log.find('\n', start);
        if (end == std::string::npos)
            end = log.size();
        const std::string line = log.substr(start, end - start);
        start = end + 1;
        std::smatch m;
        if (std::regex_search(line, m, entryRe) || std::regex_search(line, m, propsRe)) {
            current = m[1];
            continue;
        }
        if (current.empty())
            continue;
        KernelResources &k = resourcesFor(out, current);
        if (std::regex_search(line, m, frameRe)) {
            k.localBytes = std::stoi(m[1]);
            k.spillStoreBytes = std::stoi(m[2]);
            k.spillLoadBytes = std::stoi(m[3]);
        }
        if (std::regex_search(line, m, usedRe))
            k.registers = std::stoi(m[1]);
        if (std::regex_search(line, m, smemRe))
            k.staticSharedBytes = std::stoi(m[1]);
        else if (std::regex_search(line, m, usedRe))
            k.staticSharedBytes = 0; // ptxas leaves out "smem" when a kernel uses none
        if (std::regex_search(line, m, cmemRe))
            k.constBytes = std::stoi(m[1]);
    }
    return out;
}

NvrtcCompiler::NvrtcCompiler(CubinCache cache, std::vector<std::string> includeDirs)
    : m_cache(std::move(cache))
    , m_includeDirs(std::move(includeDirs))
{ }

std::string NvrtcCompiler::version()
{
    int major = 0;
    int minor = 0;
    nvrtcVersion(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> NvrtcCompiler::optionsFor(const CompileSpec &spec, const std::string &arch) const
{
    std::vector<std::string> options = {"--gpu-architecture=" + arch, "-std=c++17", "--ptxas-options=-v"};
    for (const auto &dir : m_includeDirs)
        options.push_back("--include-path=" + dir);
    // Automatic PCH only pays when a header is included; it is keyed by the include prefix, so it lives in
    // the cache directory where every worker can reuse it.
    if (spec.source.find("#include") != std::string::npos && !m_cache.directory().empty())
        options.emplace_back("--pch");
    options.insert(options.end(), spec.options.begin(), spec.options.end());
    return options;
}

std::optional<PtxMix> NvrtcCompiler::ptxMix(const CompileSpec &spec, const std::string &arch, std::string &error)
{
    // sm_90 → compute_90, keeping a/f suffixes: a virtual architecture makes NVRTC emit PTX.
    const std::string virtualArch = "compute_" + arch.substr(arch.find('_') + 1);
    std::vector<std::string> options = {"--gpu-architecture=" + virtualArch, "-std=c++17"};
    std::vector<std::string> keyOptions = options;
    for (const auto &dir : m_includeDirs)
        options.push_back("--include-path=" + dir);
    options.insert(options.end(), spec.options.begin(), spec.options.end());
    keyOptions.insert(keyOptions.end(), spec.options.begin(), spec.options.end());
    addNameExpressionKeys(spec, keyOptions);
    const std::string key = CubinCache::key(spec.source, keyOptions, virtualArch, version());
    if (auto hit = m_cache.load(key))
        return countPtxInstructions(std::string_view(hit->cubin.data(), hit->cubin.size()));
    nvrtcProgram program = nullptr;
    if (nvrtcResult r
        = nvrtcCreateProgram(&program, spec.source.c_str(), (spec.name + ".cu").c_str(), 0, nullptr, nullptr);
        r != NVRTC_SUCCESS) {
        error = std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(r);
        return std::nullopt;
    }
    std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram *)> guard(
        &program, [](nvrtcProgram *p) { nvrtcDestroyProgram(p); });
    if (!addNameExpressions(program, spec, error))
        return std::nullopt;
    std::vector<const char *> argv;
    argv.reserve(options.size());
    for (const auto &o : options)
        argv.push_back(o.c_str());
    if (nvrtcResult r = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data()); r != NVRTC_SUCCESS) {
        error = "PTX for " + virtualArch + ": " + nvrtcGetErrorString(r);
        return std::nullopt;
    }
    size_t size = 0;
    if (nvrtcGetPTXSize(program, &size) != NVRTC_SUCCESS || size <= 1) {
        error = "NVRTC produced no PTX for " + virtualArch;
        return std::nullopt;
    }
    std::vector<char> ptx(size);
    nvrtcGetPTX(program, ptx.data());
    ptx.resize(size - 1); // the terminating NUL
    m_cache.store(key, ptx, {{"kind", "ptx"}});
    return countPtxInstructions(std::string_view(ptx.data(), ptx.size()));
}

CompiledModule NvrtcCompiler::compile(const CompileSpec &spec, const std::string &arch)
{
    const auto started = std::chrono::steady_clock::now();
    const auto elapsedMs
        = [&] { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count(); };
    CompiledModule out;
    out.info.name = spec.name;
    out.info.arch = arch;
    out.info.options = optionsFor(spec, arch);
    std::vector<std::string> keyOptions;
    for (const auto &o : out.info.options) {
        if (o.rfind("--include-path=", 0) != 0 && o != "--pch") // machine-specific, not part of the result
            keyOptions.push_back(o);
    }
    addNameExpressionKeys(spec, keyOptions);
    out.info.cacheKey = CubinCache::key(spec.source, keyOptions, arch, version());
    auto hit = m_cache.load(out.info.cacheKey);
    std::optional<std::vector<std::pair<std::string, std::string>>> cachedLowered;
    if (hit)
        cachedLowered = loweredFromMeta(hit->meta, spec);
    if (hit && cachedLowered) {
        out.info.loweredNames = std::move(*cachedLowered);
        out.cubin = std::move(hit->cubin);
        out.info.ok = true;
        out.info.cacheHit = true;
        out.info.log = hit->meta.value("log", "");
        out.info.pch = "not needed (cache hit)";
        out.info.kernels = resourcesFromMeta(hit->meta);
        out.info.binarySha256 = sha256Hex(std::string_view(out.cubin.data(), out.cubin.size()));
        out.info.compileMs = elapsedMs();
        return out;
    }

    std::vector<std::string> options = out.info.options;
    const bool wantPch = std::find(options.begin(), options.end(), "--pch") != options.end();
    if (wantPch) {
        std::error_code ec;
        std::filesystem::create_directories(m_cache.directory() / "pch", ec);
        options.push_back("--pch-dir=" + (m_cache.directory() / "pch").string());
    }
    nvrtcProgram program = nullptr;
    if (nvrtcResult r
        = nvrtcCreateProgram(&program, spec.source.c_str(), (spec.name + ".cu").c_str(), 0, nullptr, nullptr);
        r != NVRTC_SUCCESS) {
        out.info.log = std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(r);
        return out;
    }
    std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram *)> guard(
        &program, [](nvrtcProgram *p) { nvrtcDestroyProgram(p); });
    if (std::string error; !addNameExpressions(program, spec, error)) {
        out.info.log = error;
        out.info.diagnosis = error;
        return out;
    }
    std::vector<const char *> argv;
    argv.reserve(options.size());
    for (const auto &o : options)
        argv.push_back(o.c_str());
    const nvrtcResult compiled = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
    out.info.log = programLog(program);
    if (wantPch) {
        const nvrtcResult pch = nvrtcGetPCHCreateStatus(program);
        out.info.pch = pch == NVRTC_SUCCESS ? "created" : std::string("not created: ") + nvrtcGetErrorString(pch);
    } else {
        out.info.pch = "not used (no #include)";
    }
    if (compiled != NVRTC_SUCCESS) {
        if (out.info.log.empty())
            out.info.log = nvrtcGetErrorString(compiled);
        out.info.diagnosis = diagnoseCompileLog(
            out.info.log, spec.name + ".cu", spec.source, spec.entries, [this](const std::string &header) {
                return std::any_of(m_includeDirs.begin(), m_includeDirs.end(),
                    [&](const std::string &dir) { return std::filesystem::is_regular_file(dir + "/" + header); });
            });
        out.info.compileMs = elapsedMs();
        return out;
    }
    size_t size = 0;
    if (nvrtcGetCUBINSize(program, &size) != NVRTC_SUCCESS || size == 0) {
        out.info.log += "\nNVRTC produced no cubin for " + arch;
        return out;
    }
    out.cubin.resize(size);
    nvrtcGetCUBIN(program, out.cubin.data());
    out.info.ok = true;
    out.info.binarySha256 = sha256Hex(std::string_view(out.cubin.data(), out.cubin.size()));
    out.info.loweredNames = loweredNames(program, spec);
    out.info.kernels = parsePtxasReport(out.info.log);
    nameResourcesByEntry(out.info.kernels, out.info.loweredNames);
    m_cache.store(out.info.cacheKey, out.cubin,
        {{"log", out.info.log}, {"kernels", resourcesToMeta(out.info.kernels)},
            {"lowered_names", loweredToMeta(out.info.loweredNames)}});
    out.info.compileMs = elapsedMs();
    return out;
}

} // namespace gpuf::gpu
