// The worker's JSON Lines protocol (docs/measure-protocol.md): request parsing and response serialisation.
#pragma once

#include "core/gpu/measure_types.h"

#include <nlohmann/json.hpp>

#include <string>

namespace gpuf::gpu {

inline constexpr const char *kProtocolVersion = "gpuf-measure/1";

struct Request
{
    nlohmann::json id; // string or number, echoed back verbatim
    std::string type;
    nlohmann::json body;
};

// Either a request, or the error response to send back (id null when the line had none).
std::variant<Request, nlohmann::json> parseRequestLine(const std::string &line);

nlohmann::json makeResponse(
    const nlohmann::json &id, const std::string &type, Status status, const std::string &message = {});
nlohmann::json makeBadRequest(
    const nlohmann::json &id, const std::string &type, const std::vector<std::string> &errors);

// Measure options with defaults for absent fields; errors name the field ("options.warmup: ...").
std::variant<MeasureOptions, SpecErrors> parseMeasureOptions(const nlohmann::json &options);

nlohmann::json toJson(const KernelResources &k);
nlohmann::json toJson(const CompileResult &c);
nlohmann::json toJson(const ClockReading &c);
nlohmann::json toJson(const DeviceInfo &d);
nlohmann::json toJson(const SampleStats &s);
nlohmann::json toJson(const TimingResult &t);
nlohmann::json toJson(const CorrectnessResult &c);
nlohmann::json toJson(const CaseResult &c);
// The rule that ended sampling, as the measure response's provenance names it (`stop_rule`): the target RSE, the
// sample bounds, the time budget and the warm-up launches; each case's `timing.reached_target` says which one fired.
nlohmann::json stopRuleJson(const MeasureOptions &o);

} // namespace gpuf::gpu
