// JSON Lines protocol of gpuf-measure: one request object per line in, one response object per line out.
#include "core/gpu/protocol.h"

#include <cmath>

namespace gpuf::gpu {

using nlohmann::json;

const char *statusName(Status status)
{
    switch (status) {
    case Status::Ok:
        return "ok";
    case Status::Incorrect:
        return "incorrect";
    case Status::RuntimeError:
        return "runtime_error";
    case Status::Timeout:
        return "timeout";
    case Status::CompileFailed:
        return "compile_failed";
    case Status::InfrastructureFailure:
        return "infrastructure_failure";
    case Status::BadRequest:
        return "bad_request";
    }
    return "infrastructure_failure";
}

Status worse(Status a, Status b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

std::variant<Request, json> parseRequestLine(const std::string &line)
{
    json parsed = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded())
        return makeBadRequest(nullptr, "?", {"request: not valid JSON"});
    if (!parsed.is_object())
        return makeBadRequest(nullptr, "?", {"request: expected a JSON object"});
    json id = parsed.value("id", json());
    if (!id.is_null() && !id.is_string() && !id.is_number_integer())
        return makeBadRequest(nullptr, "?", {"id: expected a string or an integer"});
    auto type = parsed.find("type");
    if (type == parsed.end() || !type->is_string())
        return makeBadRequest(id, "?", {"type: required string (hello, device_info, compile, measure)"});
    const std::string t = type->get<std::string>();
    if (t != "hello" && t != "device_info" && t != "compile" && t != "measure" && t != "shutdown")
        return makeBadRequest(id, t, {"type: unknown request type '" + t + "'"});
    if (id.is_null())
        return makeBadRequest(nullptr, t, {"id: required (a string or an integer)"});
    return Request {id, t, std::move(parsed)};
}

json makeResponse(const json &id, const std::string &type, Status status, const std::string &message)
{
    json r = {{"id", id}, {"type", type}, {"status", statusName(status)}};
    if (!message.empty())
        r["message"] = message;
    return r;
}

json makeBadRequest(const json &id, const std::string &type, const std::vector<std::string> &errors)
{
    json r = makeResponse(id, type, Status::BadRequest, errors.empty() ? std::string() : errors.front());
    r["errors"] = errors;
    return r;
}

namespace {

template<typename T>
void readNumber(const json &o, const char *key, T &out, double lo, double hi, std::vector<std::string> &errors)
{
    auto it = o.find(key);
    if (it == o.end())
        return;
    const std::string field = std::string("options.") + key;
    if (!it->is_number()) {
        errors.push_back(field + ": expected a number");
        return;
    }
    const double v = it->get<double>();
    if (v < lo || v > hi) {
        errors.push_back(field + ": out of range [" + json(lo).dump() + ", " + json(hi).dump() + "]");
        return;
    }
    if constexpr (std::is_integral_v<T>) {
        if (v != std::floor(v)) {
            errors.push_back(field + ": expected an integer");
            return;
        }
    }
    out = static_cast<T>(v);
}

void readBool(const json &o, const char *key, bool &out, std::vector<std::string> &errors)
{
    auto it = o.find(key);
    if (it == o.end())
        return;
    if (!it->is_boolean())
        errors.push_back(std::string("options.") + key + ": expected true or false");
    else
        out = it->get<bool>();
}

} // namespace

std::variant<MeasureOptions, SpecErrors> parseMeasureOptions(const json &o)
{
    MeasureOptions m;
    std::vector<std::string> errors;
    if (o.is_null())
        return m;
    if (!o.is_object())
        return SpecErrors {{"options: expected an object"}};
    static const char *known[] = {"flush_l2", "timing", "warmup", "min_samples", "max_samples", "target_rse",
        "time_budget_ms", "timeout_ms", "correctness_runs", "time_reference", "check_correctness", "cases"};
    for (const auto &[key, value] : o.items()) {
        bool ok = false;
        for (const char *k : known)
            ok = ok || key == k;
        if (!ok)
            errors.push_back("options." + key + ": unknown option");
    }
    readBool(o, "flush_l2", m.flushL2, errors);
    readBool(o, "time_reference", m.timeReference, errors);
    readBool(o, "check_correctness", m.checkCorrectness, errors);
    readNumber(o, "warmup", m.warmup, 0, 1000, errors);
    readNumber(o, "min_samples", m.minSamples, 2, 100000, errors);
    readNumber(o, "max_samples", m.maxSamples, 2, 1000000, errors);
    readNumber(o, "target_rse", m.targetRelStdError, 0.0, 1.0, errors);
    readNumber(o, "time_budget_ms", m.timeBudgetMs, 1.0, 600000.0, errors);
    readNumber(o, "timeout_ms", m.timeoutMs, 10.0, 3600000.0, errors);
    readNumber(o, "correctness_runs", m.correctnessRuns, 1, 100, errors);
    if (auto it = o.find("timing"); it != o.end()) {
        if (!it->is_string() || (it->get<std::string>() != "cupti" && it->get<std::string>() != "events"))
            errors.emplace_back("options.timing: expected \"events\" or \"cupti\"");
        else
            m.timing = it->get<std::string>();
    }
    if (auto it = o.find("cases"); it != o.end()) {
        if (!it->is_array())
            errors.emplace_back("options.cases: expected an array of case names");
        for (std::size_t i = 0; it->is_array() && i < it->size(); ++i) {
            if (!(*it)[i].is_string())
                errors.push_back("options.cases[" + std::to_string(i) + "]: expected a case name");
            else
                m.cases.push_back((*it)[i].get<std::string>());
        }
    }
    if (m.maxSamples < m.minSamples)
        errors.emplace_back("options.max_samples: must be >= min_samples");
    if (!errors.empty())
        return SpecErrors {errors};
    return m;
}

json toJson(const KernelResources &k)
{
    return {{"entry", k.entry}, {"registers", k.registers}, {"static_shared_bytes", k.staticSharedBytes},
        {"local_bytes", k.localBytes}, {"const_bytes", k.constBytes}, {"max_threads_per_block", k.maxThreadsPerBlock},
        {"spill_store_bytes", k.spillStoreBytes}, {"spill_load_bytes", k.spillLoadBytes}, {"source", k.source}};
}

json toJson(const CompileResult &c)
{
    json kernels = json::array();
    for (const auto &k : c.kernels)
        kernels.push_back(toJson(k));
    json out = {{"ok", c.ok}, {"name", c.name}, {"arch", c.arch}, {"options", c.options}, {"log", c.log},
        {"cache_hit", c.cacheHit}, {"compile_ms", c.compileMs}, {"cache_key", c.cacheKey}, {"pch", c.pch},
        {"kernels", kernels}};
    if (!c.binarySha256.empty())
        out["binary_sha256"] = c.binarySha256;
    if (c.ptxMix)
        out["ptx_mix"] = toJson(*c.ptxMix);
    if (!c.loweredNames.empty()) {
        json lowered = json::object();
        for (const auto &[entry, symbol] : c.loweredNames)
            lowered[entry] = symbol;
        out["lowered_names"] = lowered;
    }
    if (!c.diagnosis.empty())
        out["diagnosis"] = c.diagnosis;
    return out;
}

json toJson(const ClockReading &c)
{
    if (!c.available)
        return {{"available", false}, {"reason", c.reason}};
    return {{"available", true}, {"sm_mhz", c.smMhz}, {"mem_mhz", c.memMhz}};
}

json toJson(const DeviceInfo &d)
{
    return {{"ordinal", d.ordinal}, {"name", d.name}, {"uuid", d.uuid},
        {"compute_capability", std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)}, {"arch", d.arch},
        {"sm_count", d.smCount}, {"total_memory_bytes", d.totalMemoryBytes}, {"l2_bytes", d.l2Bytes},
        {"max_threads_per_block", d.maxThreadsPerBlock}, {"max_threads_per_sm", d.maxThreadsPerSm},
        {"max_shared_per_block_optin", d.maxSharedPerBlockOptin}, {"memory_bus_width_bits", d.memoryBusWidthBits},
        {"memory_clock_khz", d.memoryClockKhz}, {"sm_clock_khz", d.smClockKhz},
        {"peak_bandwidth_gbs", d.peakBandwidthGBs}, {"driver_version", d.driverVersion},
        {"cuda_driver_api_version", d.cudaDriverApiVersion}, {"clocks", toJson(d.clocks)}};
}

json toJson(const SampleStats &s)
{
    return {{"n", s.n}, {"median_us", s.medianUs}, {"mean_us", s.meanUs}, {"min_us", s.minUs}, {"max_us", s.maxUs},
        {"std_us", s.stdUs}, {"rel_std_error", s.relStdError}};
}

json toJson(const TimingResult &t)
{
    json j = toJson(t.stats);
    j["method"] = t.method;
    if (!t.methodNote.empty())
        j["method_note"] = t.methodNote;
    j["events"] = toJson(t.eventStats);
    j["flush_l2"] = t.flushL2;
    j["warmup"] = t.warmup;
    j["reached_target"] = t.reachedTarget;
    j["wall_ms"] = t.wallMs;
    return j;
}

json stopRuleJson(const MeasureOptions &o)
{
    return {{"target_rel_std_error", o.targetRelStdError}, {"min_samples", o.minSamples}, {"max_samples", o.maxSamples},
        {"time_budget_ms", o.timeBudgetMs}, {"warmup", o.warmup}};
}

json toJson(const CorrectnessResult &c)
{
    json j = {{"checked", c.checked}, {"runs", c.runs}, {"elements", c.elements}, {"mismatches", c.mismatches}};
    if (!c.note.empty())
        j["note"] = c.note;
    json buffers = json::array();
    json first = json::array();
    for (const auto &b : c.buffers) {
        buffers.push_back({{"buffer", b.buffer}, {"elements", b.elements}, {"mismatches", b.mismatches},
            {"candidate_nan", b.candidateNaN}, {"reference_nan", b.referenceNaN}, {"max_abs_error", b.maxAbsError},
            {"max_rel_error", b.maxRelError}});
        for (const auto &m : b.first) {
            // NaN is not JSON; a poisoned (unwritten) element is reported as null.
            first.push_back({{"buffer", m.buffer}, {"index", m.index},
                {"expected", std::isfinite(m.expected) ? json(m.expected) : json()},
                {"actual", std::isfinite(m.actual) ? json(m.actual) : json()}});
        }
    }
    j["buffers"] = buffers;
    j["first_mismatches"] = first;
    return j;
}

json toJson(const CaseResult &c)
{
    json launches = json::array();
    for (const auto &l : c.launches) {
        json g = {{"entry", l.entry}, {"grid", l.geometry.grid}, {"block", l.geometry.block},
            {"shared_bytes", l.geometry.sharedBytes}};
        if (l.activeBlocksPerSm >= 0) {
            g["active_blocks_per_sm"] = l.activeBlocksPerSm;
            g["occupancy"] = l.occupancy;
        }
        launches.push_back(g);
    }
    json j = {{"name", c.name}, {"vars", c.vars}, {"status", statusName(c.status)}, {"launches", launches},
        {"correctness", toJson(c.correctness)}};
    if (!c.message.empty())
        j["message"] = c.message;
    if (c.timing) {
        j["timing"] = toJson(*c.timing);
        j["clocks_before"] = toJson(c.clocksBefore); // read around the candidate's timing only
        j["clocks_after"] = toJson(c.clocksAfter);
    }
    if (c.referenceTiming)
        j["reference_timing"] = toJson(*c.referenceTiming);
    if (c.bytesMoved >= 0) {
        j["bytes_moved"] = c.bytesMoved;
        j["floor_us"] = c.floorUs;
        j["implausible"] = c.implausible;
        if (c.timing && c.timing->stats.medianUs > 0)
            j["achieved_bandwidth_gbs"] = c.bytesMoved / (c.timing->stats.medianUs * 1e3);
    }
    if (c.flops >= 0)
        j["flops"] = c.flops;
    return j;
}

} // namespace gpuf::gpu
