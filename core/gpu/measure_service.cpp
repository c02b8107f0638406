// The worker's request handlers. measure = compile both specs, then per case: correctness runs on fresh seeded
// inputs with poisoned outputs, then the candidate's timing; faults become statuses, never crashes.
#include "core/gpu/measure_service.h"

#include "core/gpu/kernel_runner.h"
#include "core/gpu/timing.h"

#include <sstream>

namespace gpuf::gpu {

using nlohmann::json;

namespace {

CompileSpec toCompileSpec(const KernelSpec &spec)
{
    CompileSpec c;
    c.name = spec.name;
    c.source = spec.source;
    c.options = spec.options;
    for (const auto &l : spec.launches)
        c.entries.push_back(l.entry);
    return c;
}

std::vector<std::string> prefixed(const std::string &prefix, const std::vector<std::string> &errors)
{
    std::vector<std::string> out;
    out.reserve(errors.size());
    for (const auto &e : errors)
        out.push_back(prefix + e);
    return out;
}

// The reference and the candidate must agree on everything but source and launches (docs/kernel-spec.md).
std::vector<std::string> sharedPartDiffers(const KernelSpec &candidate, const KernelSpec &reference)
{
    std::vector<std::string> errors;
    if (candidate.buffers.size() != reference.buffers.size())
        errors.emplace_back("reference.buffers: differs from the candidate's");
    for (std::size_t i = 0; i < std::min(candidate.buffers.size(), reference.buffers.size()); ++i) {
        const BufferSpec &a = candidate.buffers[i];
        const BufferSpec &b = reference.buffers[i];
        if (a.name != b.name || a.dtype != b.dtype || a.count != b.count || a.role != b.role)
            errors.push_back("reference.buffers[" + std::to_string(i) + "]: differs from the candidate's");
    }
    for (const auto &c : candidate.cases) {
        const CaseSpec *r = reference.findCase(c.name);
        if (!r || r->vars != c.vars)
            errors.push_back("reference.cases: has no case '" + c.name + "' with the candidate's variables");
    }
    return errors;
}

// ": <diagnosis>" when the compile log named a cause (a missing #include, an unknown entry), else nothing.
std::string because(const CompileResult &info)
{
    return info.diagnosis.empty() ? std::string() : ": " + info.diagnosis;
}

std::string failedToCompile(const std::string &name, const CompileResult &info)
{
    return "NVRTC failed to compile " + name + because(info);
}

std::string describeMismatch(const CorrectnessResult &c)
{
    std::ostringstream out;
    out << c.mismatches << " of " << c.elements << " elements differ";
    for (const auto &b : c.buffers) {
        if (b.mismatches == 0)
            continue;
        if (b.candidateNaN > 0)
            out << "; " << b.buffer << ": " << b.candidateNaN << " NaN or unwritten (still poisoned)";
        if (!b.first.empty()) {
            const Mismatch &m = b.first.front();
            out << "; first " << m.buffer << "[" << m.index << "]: expected " << m.expected << ", got " << m.actual;
        }
        break;
    }
    return out.str();
}

} // namespace

struct MeasureService::CaseRun
{
    GpuDevice &gpu;
    const KernelSpec &candidate;
    const KernelSpec *reference;
    const LoadedKernels &candidateKernels;
    const LoadedKernels *referenceKernels;
    const MeasureOptions &options;
    const CaseSpec &spec;
    L2Flusher *flusher;
};

MeasureService::MeasureService(ServiceConfig config)
    : m_config(std::move(config))
    , m_compiler(CubinCache(m_config.cacheDir), m_config.includeDirs)
{ }

MeasureService::~MeasureService() = default;

Expected<GpuDevice *> MeasureService::device()
{
    if (!m_deviceTried) {
        m_deviceTried = true;
        auto opened = GpuDevice::open(m_config.deviceOrdinal);
        if (opened)
            m_device = std::move(opened.value());
        else
            m_deviceFailure = opened.error();
    }
    if (!m_device)
        return Failure {m_deviceFailure};
    return m_device.get();
}

json MeasureService::handle(const Request &request)
{
    if (request.type == "hello")
        return hello(request);
    if (request.type == "device_info")
        return deviceInfo(request);
    if (request.type == "compile")
        return compile(request);
    if (request.type == "measure")
        return measure(request);
    return makeBadRequest(request.id, request.type, {"type: unknown request type '" + request.type + "'"});
}

json MeasureService::hello(const Request &request)
{
    json r = makeResponse(request.id, "hello", Status::Ok);
    r["protocol"] = kProtocolVersion;
    r["worker_version"] = m_config.workerVersion;
    r["nvrtc_version"] = NvrtcCompiler::version();
    r["cache_dir"] = m_config.cacheDir.string();
    json devices = json::array();
    auto list = listDevices();
    if (list) {
        for (const auto &d : *list)
            devices.push_back({{"ordinal", d.ordinal}, {"name", d.name}, {"uuid", d.uuid},
                {"compute_capability", std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)}, {"arch", d.arch}});
    }
    r["devices"] = devices;
    r["python"] = {{"interpreter", m_config.python.interpreter}, {"harness_dir", m_config.python.harnessDir.string()},
        {"problems_dir", m_config.python.problemsDir.string()}, {"candidate_format", kPythonCandidateFormat}};
    const SandboxStatus &box = sandbox();
    r["python"]["sandbox"] = {{"available", box.available}, {"unsandboxed_allowed", m_config.python.allowUnsandboxed}};
    r["python"]["sandbox"][box.available ? "version" : "reason"] = box.available ? box.version : box.reason;
    if (!box.available && !m_config.python.allowUnsandboxed)
        r["python"]["sandbox"]["refusal"] = sandboxRefusal(box);
    r["gpu_available"] = list.ok() && !list->empty();
    if (!list)
        r["gpu_unavailable_reason"] = list.error();
    else if (list->empty())
        r["gpu_unavailable_reason"] = "no CUDA device found";
    return r;
}

json MeasureService::deviceInfo(const Request &request)
{
    auto gpu = device();
    if (!gpu)
        return makeResponse(request.id, "device_info", Status::InfrastructureFailure, gpu.error());
    json r = makeResponse(request.id, "device_info", Status::Ok);
    DeviceInfo info = (*gpu)->info();
    info.clocks = (*gpu)->clocks();
    r["device"] = toJson(info);
    return r;
}

json MeasureService::compile(const Request &request)
{
    auto specIt = request.body.find("spec");
    if (specIt == request.body.end())
        return makeBadRequest(request.id, "compile", {"spec: required (a gpuf-kernel/1 object)"});
    auto parsed = parseCompileSpec(*specIt);
    if (auto *errors = std::get_if<SpecErrors>(&parsed))
        return makeBadRequest(request.id, "compile", prefixed("spec.", errors->errors));
    const CompileSpec &spec = std::get<CompileSpec>(parsed);

    std::string arch;
    if (auto a = request.body.find("arch"); a != request.body.end()) {
        if (!a->is_string() || !isValidArch(a->get<std::string>()))
            return makeBadRequest(request.id, "compile", {"arch: expected an architecture such as \"sm_90\""});
        arch = a->get<std::string>();
    }
    bool wantPtxMix = false;
    if (auto m = request.body.find("ptx_mix"); m != request.body.end()) {
        if (!m->is_boolean())
            return makeBadRequest(request.id, "compile", {"ptx_mix: expected true or false"});
        wantPtxMix = m->get<bool>();
    }
    GpuDevice *gpu = nullptr;
    if (arch.empty()) {
        auto d = device();
        if (!d)
            return makeResponse(request.id, "compile", Status::InfrastructureFailure,
                "no GPU to compile for (" + d.error() + "); give \"arch\"");
        gpu = *d;
        arch = gpu->info().arch;
    } else if (auto d = device(); d && (*d)->info().arch == arch) {
        gpu = *d;
    }

    CompiledModule module = m_compiler.compile(spec, arch);
    if (module.info.ok && wantPtxMix) {
        std::string error;
        module.info.ptxMix = m_compiler.ptxMix(spec, arch, error);
        if (!module.info.ptxMix)
            module.info.log += "\n" + error; // the cubin stands; only the mix is missing
    }
    if (module.info.ok && gpu && !spec.entries.empty()) {
        // With the device at hand, the driver's figures replace ptxas's (spills stay from ptxas).
        KernelSpec entriesOnly;
        for (const auto &e : spec.entries)
            entriesOnly.launches.push_back(LaunchSpec {e, {}, {}, "0", {}});
        auto loaded = LoadedKernels::load(*gpu, entriesOnly, module.cubin, module.info.loweredNames);
        if (auto *fault = std::get_if<GpuFault>(&loaded)) {
            json r = makeResponse(request.id, "compile", fault->status, fault->message);
            r["compile"] = toJson(module.info);
            return r;
        }
        const auto &kernels = *std::get<std::unique_ptr<LoadedKernels>>(loaded);
        std::vector<KernelResources> refined;
        for (std::size_t i = 0; i < spec.entries.size(); ++i) {
            KernelResources k = kernels.resources(i);
            for (const auto &p : module.info.kernels) {
                if (p.entry == k.entry) {
                    k.spillStoreBytes = p.spillStoreBytes;
                    k.spillLoadBytes = p.spillLoadBytes;
                }
            }
            refined.push_back(k);
        }
        module.info.kernels = refined;
    }
    json r = makeResponse(request.id, "compile", module.info.ok ? Status::Ok : Status::CompileFailed,
        module.info.ok ? std::string() : failedToCompile(spec.name, module.info));
    r["compile"] = toJson(module.info);
    return r;
}

json MeasureService::provenance(const GpuDevice &gpu, const std::vector<std::string> &compileOptions) const
{
    const DeviceInfo &d = gpu.info();
    return {{"gpu_name", d.name}, {"gpu_uuid", d.uuid},
        {"compute_capability", std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)},
        {"driver_version", d.driverVersion}, {"cuda_driver_api_version", d.cudaDriverApiVersion},
        {"toolkit_version", "NVRTC " + NvrtcCompiler::version()}, {"worker_version", m_config.workerVersion},
        {"peak_bandwidth_gbs", d.peakBandwidthGBs}, {"l2_bytes", d.l2Bytes}, {"sm_count", d.smCount},
        {"compile_options", compileOptions}, {"clocks", toJson(gpu.clocks())}};
}

namespace {

// Applies a fault to a case result; returns true when the worker must stop (context poisoned).
bool applyFault(CaseResult &result, const GpuFault &fault, const std::string &who)
{
    result.status = worse(result.status, fault.status);
    result.message = who + ": " + fault.message;
    return fault.restartRequired;
}

// Runs a sequence once on prepared buffers and downloads every output and inout buffer.
std::variant<std::map<std::string, std::vector<std::uint8_t>>, GpuFault> runOnce(
    const GpuDevice &gpu, const LaunchSequence &sequence, CaseBuffers &buffers, double timeoutMs)
{
    if (auto f = sequence.run(gpu))
        return *f;
    if (auto f = gpu.waitIdle(timeoutMs, "kernel run"))
        return *f;
    std::map<std::string, std::vector<std::uint8_t>> out;
    for (const auto &b : buffers.spec().buffers) {
        if (b.role == BufferRole::Input)
            continue;
        auto data = buffers.download(b.name);
        if (auto *f = std::get_if<GpuFault>(&data))
            return *f;
        out[b.name] = std::move(std::get<std::vector<std::uint8_t>>(data));
    }
    return out;
}

using Outputs = std::map<std::string, std::vector<std::uint8_t>>;

// Correctness: per run fresh seeded inputs (salt = run), poisoned outputs, reference then candidate.
bool checkCorrectness(const GpuDevice &gpu, const KernelSpec &spec, const LaunchSequence &reference,
    const LaunchSequence &candidate, CaseBuffers &buffers, const MeasureOptions &options, CaseResult &result)
{
    CorrectnessResult &c = result.correctness;
    c.checked = true;
    for (int run = 0; run < options.correctnessRuns; ++run) {
        const auto salt = static_cast<std::uint64_t>(run);
        Outputs outputs[2];
        const LaunchSequence *sequences[2] = {&reference, &candidate};
        const char *who[2] = {"reference", "candidate"};
        for (int k = 0; k < 2; ++k) {
            if (auto f = buffers.prepare(salt))
                return applyFault(result, *f, "preparing buffers");
            auto out = runOnce(gpu, *sequences[k], buffers, options.timeoutMs);
            if (auto *f = std::get_if<GpuFault>(&out))
                return applyFault(result, *f, who[k]);
            outputs[k] = std::move(std::get<Outputs>(out));
        }
        c.runs = run + 1;
        c.buffers.clear();
        c.elements = 0;
        c.mismatches = 0;
        for (const auto &b : spec.buffers) {
            if (b.role == BufferRole::Input)
                continue;
            c.buffers.push_back(
                compareBuffers(b.name, b.dtype, outputs[0][b.name], outputs[1][b.name], spec.rtol, spec.atol, 5));
            c.elements += c.buffers.back().elements;
            c.mismatches += c.buffers.back().mismatches;
        }
        if (c.mismatches > 0) {
            result.status = worse(result.status, Status::Incorrect);
            result.message = "incorrect (run " + std::to_string(run) + "): " + describeMismatch(c);
            return false;
        }
    }
    c.note = "compared every output and inout element over " + std::to_string(c.runs) + " run(s) of fresh inputs";
    return false;
}

void reportLaunches(const GpuDevice &gpu, const KernelSpec &spec, const LoadedKernels &kernels,
    const LaunchSequence &sequence, CaseResult &result)
{
    for (std::size_t i = 0; i < sequence.size(); ++i) {
        LaunchReport l;
        l.entry = spec.launches[i].entry;
        l.geometry = sequence.geometry()[i];
        const int threads = static_cast<int>(l.geometry.block[0] * l.geometry.block[1] * l.geometry.block[2]);
        int blocks = 0;
        if (gpu.api().occupancyMaxActiveBlocks(&blocks, kernels.function(i), threads, l.geometry.sharedBytes)
            == CUDA_SUCCESS) {
            l.activeBlocksPerSm = blocks;
            l.occupancy = static_cast<double>(blocks * threads) / std::max(1, gpu.info().maxThreadsPerSm);
        }
        result.launches.push_back(l);
    }
}

} // namespace

CaseResult MeasureService::runCase(CaseRun &run)
{
    CaseResult result;
    result.name = run.spec.name;
    result.vars = run.spec.vars;
    ExpressionEvaluator eval(run.spec.vars);
    auto allocated = CaseBuffers::allocate(run.gpu, run.candidate, eval);
    if (auto *f = std::get_if<GpuFault>(&allocated)) {
        m_mustExit = applyFault(result, *f, "buffers") || m_mustExit;
        return result;
    }
    CaseBuffers &buffers = *std::get<std::unique_ptr<CaseBuffers>>(allocated);
    auto candidate = LaunchSequence::build(run.candidate, run.candidateKernels, buffers, eval);
    if (auto *e = std::get_if<std::string>(&candidate)) {
        result.status = Status::BadRequest;
        result.message = "candidate." + *e;
        return result;
    }
    const LaunchSequence &cand = std::get<LaunchSequence>(candidate);
    if (auto problem = cand.resourceProblem(run.gpu, run.candidateKernels)) {
        result.status = Status::RuntimeError;
        result.message = "candidate: " + *problem;
        return result;
    }
    reportLaunches(run.gpu, run.candidate, run.candidateKernels, cand, result);

    std::optional<LaunchSequence> ref;
    if (run.reference) {
        auto r = LaunchSequence::build(*run.reference, *run.referenceKernels, buffers, eval);
        if (auto *e = std::get_if<std::string>(&r)) {
            result.status = Status::BadRequest;
            result.message = "reference." + *e;
            return result;
        }
        ref = std::move(std::get<LaunchSequence>(r));
        if (auto problem = ref->resourceProblem(run.gpu, *run.referenceKernels)) {
            result.status = Status::RuntimeError;
            result.message = "reference: " + *problem;
            return result;
        }
    }
    if (ref && run.options.checkCorrectness) {
        if (checkCorrectness(run.gpu, run.candidate, *ref, cand, buffers, run.options, result)) {
            m_mustExit = true;
            return result;
        }
    } else {
        result.correctness.note = ref ? "correctness check switched off" : "no reference given";
    }
    if (result.status != Status::Ok)
        return result; // an incorrect candidate is not worth device time

    auto timeOne = [&](const LaunchSequence &seq, const char *who) -> std::optional<TimingResult> {
        if (auto f = buffers.prepare(0)) {
            m_mustExit = applyFault(result, *f, "preparing buffers") || m_mustExit;
            return std::nullopt;
        }
        auto timed = timeSequence(run.gpu, seq, run.options, run.flusher);
        if (auto *f = std::get_if<GpuFault>(&timed)) {
            m_mustExit = applyFault(result, *f, who) || m_mustExit;
            return std::nullopt;
        }
        return std::get<TimingResult>(timed);
    };
    result.clocksBefore = run.gpu.clocks();
    result.timing = timeOne(cand, "candidate timing");
    result.clocksAfter = run.gpu.clocks();
    if (result.timing && ref && run.options.timeReference && !m_mustExit)
        result.referenceTiming = timeOne(*ref, "reference timing");

    if (!run.candidate.bytesMoved.empty()) {
        result.bytesMoved = eval.evaluate(run.candidate.bytesMoved).value();
        const double peak = run.gpu.info().peakBandwidthGBs;
        result.floorUs = peak > 0 ? result.bytesMoved / (peak * 1e3) : -1.0;
        result.implausible = result.timing && result.floorUs > 0 && result.timing->stats.medianUs < result.floorUs;
    }
    if (!run.candidate.flops.empty())
        result.flops = eval.evaluate(run.candidate.flops).value();
    return result;
}

json MeasureService::measurePython(const Request &request)
{
    auto parsed = parsePythonJob(request.body, m_config.python);
    if (auto *errors = std::get_if<std::vector<std::string>>(&parsed))
        return makeBadRequest(request.id, "measure", *errors);
    PythonDevice pyDevice;
    pyDevice.ordinal = m_config.deviceOrdinal;
    json gpuProvenance = json::object();
    if (auto gpu = device(); gpu) {
        const DeviceInfo &d = (*gpu)->info();
        pyDevice.available = true;
        pyDevice.name = d.name;
        pyDevice.uuid = d.uuid;
        pyDevice.peakBandwidthGBs = d.peakBandwidthGBs;
        pyDevice.l2Bytes = d.l2Bytes;
        gpuProvenance = provenance(**gpu, {});
        gpuProvenance.erase("compile_options");
    } else {
        gpuProvenance["gpu_unavailable_reason"] = gpu.error();
    }
    json body = runPythonJob(std::get<PythonJob>(parsed), m_config.python, pyDevice, sandbox());
    json response = makeResponse(request.id, "measure", Status::Ok);
    for (auto &[key, value] : body.items())
        response[key] = value;
    json prov = gpuProvenance;
    if (auto p = body.find("provenance"); p != body.end() && p->is_object())
        prov.update(*p);
    prov["language"] = "python";
    prov["interpreter"] = m_config.python.interpreter;
    prov["worker_version"] = m_config.workerVersion;
    response["provenance"] = prov;
    response["restart_required"] = false; // the candidate ran in its own process; this worker's context is intact
    return response;
}

const SandboxStatus &MeasureService::sandbox()
{
    if (!m_sandbox)
        m_sandbox = probePythonSandbox(m_config.python);
    return *m_sandbox;
}

json MeasureService::measure(const Request &request)
{
    const json &body = request.body;
    if (auto c = body.find("candidate");
        c != body.end() && c->is_object() && c->value("format", std::string()) == kPythonCandidateFormat)
        return measurePython(request);
    std::vector<std::string> errors;
    std::optional<KernelSpec> candidate;
    std::optional<KernelSpec> reference;
    if (auto it = body.find("candidate"); it == body.end()) {
        errors.emplace_back("candidate: required (a gpuf-kernel/1 object)");
    } else if (auto parsed = parseKernelSpec(*it); auto *e = std::get_if<SpecErrors>(&parsed)) {
        auto p = prefixed("candidate.", e->errors);
        errors.insert(errors.end(), p.begin(), p.end());
    } else {
        candidate = std::get<KernelSpec>(parsed);
    }
    if (auto it = body.find("reference"); it != body.end() && !it->is_null()) {
        if (auto parsed = parseKernelSpec(*it); auto *e = std::get_if<SpecErrors>(&parsed)) {
            auto p = prefixed("reference.", e->errors);
            errors.insert(errors.end(), p.begin(), p.end());
        } else {
            reference = std::get<KernelSpec>(parsed);
        }
    }
    auto options = parseMeasureOptions(body.value("options", json()));
    if (auto *e = std::get_if<SpecErrors>(&options))
        errors.insert(errors.end(), e->errors.begin(), e->errors.end());
    if (candidate && reference) {
        auto diff = sharedPartDiffers(*candidate, *reference);
        errors.insert(errors.end(), diff.begin(), diff.end());
    }
    if (!errors.empty())
        return makeBadRequest(request.id, "measure", errors);
    const MeasureOptions &opts = std::get<MeasureOptions>(options);
    for (const auto &name : opts.cases) {
        if (!candidate->findCase(name))
            errors.push_back("options.cases: no case named '" + name + "'");
    }
    if (!errors.empty())
        return makeBadRequest(request.id, "measure", errors);

    auto gpu = device();
    if (!gpu)
        return makeResponse(request.id, "measure", Status::InfrastructureFailure, gpu.error());
    return measureOnDevice(request, **gpu, *candidate, reference ? &*reference : nullptr, opts);
}

json MeasureService::measureOnDevice(const Request &request, GpuDevice &gpu, const KernelSpec &candidate,
    const KernelSpec *reference, const MeasureOptions &opts)
{
    json response = makeResponse(request.id, "measure", Status::Ok);
    gpu.setWatchdogMs(opts.timeoutMs);
    const std::string arch = gpu.info().arch;
    CompiledModule cand = m_compiler.compile(toCompileSpec(candidate), arch);
    std::optional<CompiledModule> ref;
    if (reference)
        ref = m_compiler.compile(toCompileSpec(*reference), arch);
    response["compile"] = {{"candidate", toJson(cand.info)}};
    if (ref)
        response["compile"]["reference"] = toJson(ref->info);
    response["provenance"] = provenance(gpu, cand.info.options);
    response["provenance"]["flush_l2"] = opts.flushL2;
    response["provenance"]["stop_rule"] = stopRuleJson(opts);
    if (!cand.info.ok || (ref && !ref->info.ok)) {
        response["status"] = statusName(Status::CompileFailed);
        response["message"] = !cand.info.ok ? "candidate failed to compile" + because(cand.info)
                                            : "reference failed to compile" + because(ref->info);
        return response;
    }
    auto candLoaded = LoadedKernels::load(gpu, candidate, cand.cubin, cand.info.loweredNames);
    std::variant<std::unique_ptr<LoadedKernels>, GpuFault> refLoaded = std::unique_ptr<LoadedKernels>();
    if (reference)
        refLoaded = LoadedKernels::load(gpu, *reference, ref->cubin, ref->info.loweredNames);
    for (auto [loaded, who] : {std::pair {&candLoaded, "candidate"}, std::pair {&refLoaded, "reference"}}) {
        if (auto *f = std::get_if<GpuFault>(loaded)) {
            m_mustExit = m_mustExit || f->restartRequired;
            response["status"] = statusName(f->status);
            response["message"] = std::string(who) + ": " + f->message;
            response["restart_required"] = m_mustExit;
            return response;
        }
    }
    const LoadedKernels *refKernels = reference ? std::get<std::unique_ptr<LoadedKernels>>(refLoaded).get() : nullptr;
    std::unique_ptr<L2Flusher> flusher;
    if (opts.flushL2) {
        flusher = std::make_unique<L2Flusher>(gpu);
        if (!flusher->usable())
            return makeResponse(
                request.id, "measure", Status::InfrastructureFailure, "could not allocate the L2 flush buffer");
    }
    Status overall = Status::Ok;
    std::string message;
    json cases = json::array();
    for (const auto &cs : candidate.cases) {
        if (!opts.cases.empty() && std::find(opts.cases.begin(), opts.cases.end(), cs.name) == opts.cases.end())
            continue;
        CaseRun run {gpu, candidate, reference, *std::get<std::unique_ptr<LoadedKernels>>(candLoaded), refKernels, opts,
            cs, flusher.get()};
        CaseResult result = runCase(run);
        if (result.status != Status::Ok && message.empty())
            message = "case " + cs.name + ": " + result.message;
        overall = worse(overall, result.status);
        if (result.timing && !response["provenance"].contains("timing_method"))
            response["provenance"]["timing_method"] = result.timing->method;
        cases.push_back(toJson(result));
        if (m_mustExit)
            break; // the context is gone; the remaining cases cannot run
    }
    response["status"] = statusName(overall);
    if (!message.empty())
        response["message"] = message;
    response["cases"] = cases;
    response["restart_required"] = m_mustExit;
    return response;
}

} // namespace gpuf::gpu
