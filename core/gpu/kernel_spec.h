// The gpuf-kernel/1 spec as value types, and its parser/validator whose errors name the offending field.
#pragma once

#include "core/gpu/expressions.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace gpuf::gpu {

enum class Dtype { F32, F16, BF16, I32, I64, U8 };
enum class ScalarType { I32, I64, F32, F64 };
enum class BufferRole { Input, Output, Inout };
enum class InitKind { Uniform, Normal, Constant, Iota };

std::size_t dtypeSize(Dtype dtype);
bool isFloatDtype(Dtype dtype);
const char *dtypeName(Dtype dtype);

struct BufferInit
{
    InitKind kind = InitKind::Constant;
    double a = 0.0; // low / mean / value / start
    double b = 0.0; // high / std / step
    std::uint64_t seed = 0;
};

struct BufferSpec
{
    std::string name;
    Dtype dtype = Dtype::F32;
    std::string count;
    BufferRole role = BufferRole::Input;
    std::optional<BufferInit> init;
};

struct KernelArg
{
    bool isBuffer = true;
    std::string buffer; // isBuffer
    std::string expression; // !isBuffer
    ScalarType scalarType = ScalarType::I32;
};

struct LaunchSpec
{
    std::string entry;
    std::array<std::string, 3> grid;
    std::array<std::string, 3> block;
    std::string sharedBytes = "0";
    std::vector<KernelArg> args;
};

struct CaseSpec
{
    std::string name;
    CaseVars vars;
};

struct KernelSpec
{
    std::string name;
    std::string source;
    std::vector<std::string> options; // extra NVRTC options
    std::vector<LaunchSpec> launches;
    std::vector<BufferSpec> buffers;
    std::vector<CaseSpec> cases;
    double rtol = 1e-5;
    double atol = 1e-6;
    std::string bytesMoved; // empty when absent
    std::string flops;

    const BufferSpec *buffer(const std::string &name) const;
    const CaseSpec *findCase(const std::string &name) const;
};

// Only the parts NVRTC needs: source, name, extra options (a compile request carries no buffers or cases).
struct CompileSpec
{
    std::string name;
    std::string source;
    std::vector<std::string> options;
    std::vector<std::string> entries;
};

struct SpecErrors
{
    std::vector<std::string> errors; // each "field.path: what is wrong"
};

// Full validation: structure (as the JSON Schema says), names that must resolve, and every expression
// evaluated for every case. Either a spec or the complete list of errors.
std::variant<KernelSpec, SpecErrors> parseKernelSpec(const nlohmann::json &json);

// The same checks limited to name/source/options/launch entries, for compile requests.
std::variant<CompileSpec, SpecErrors> parseCompileSpec(const nlohmann::json &json);

// A launch's entry point: an `extern "C"` name ("scale"), a C++ name ("ns::scale", mangled by the compiler) or a
// template instantiation ("sgemm<64, 64, 8>"); the worker finds the latter two through NVRTC name expressions.
// Empty when `entry` is one of these forms, else why not.
std::string entryError(const std::string &entry);
// True for a plain identifier: the one form whose cubin does not depend on the entry being named to the compiler.
bool isPlainEntry(const std::string &entry);

// Evaluated geometry of one launch in one case.
struct LaunchGeometry
{
    std::array<std::uint32_t, 3> grid {};
    std::array<std::uint32_t, 3> block {};
    std::uint32_t sharedBytes = 0;
};

Expected<LaunchGeometry> evaluateGeometry(const LaunchSpec &launch, const ExpressionEvaluator &eval);

} // namespace gpuf::gpu
