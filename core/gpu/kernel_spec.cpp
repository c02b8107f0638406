// Parser and validator for gpuf-kernel/1: mirrors resources/schemas/gpuf-kernel-1.schema.json field by field,
// then checks what a schema cannot (names that must resolve, expressions that must evaluate in every case).
#include "core/gpu/kernel_spec.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <string_view>

namespace gpuf::gpu {

using nlohmann::json;

std::size_t dtypeSize(Dtype dtype)
{
    switch (dtype) {
    case Dtype::F32:
    case Dtype::I32:
        return 4;
    case Dtype::F16:
    case Dtype::BF16:
        return 2;
    case Dtype::I64:
        return 8;
    case Dtype::U8:
        return 1;
    }
    return 1;
}

bool isFloatDtype(Dtype dtype) { return dtype == Dtype::F32 || dtype == Dtype::F16 || dtype == Dtype::BF16; }

const char *dtypeName(Dtype dtype)
{
    switch (dtype) {
    case Dtype::F32:
        return "f32";
    case Dtype::F16:
        return "f16";
    case Dtype::BF16:
        return "bf16";
    case Dtype::I32:
        return "i32";
    case Dtype::I64:
        return "i64";
    case Dtype::U8:
        return "u8";
    }
    return "?";
}

const BufferSpec *KernelSpec::buffer(const std::string &name) const
{
    for (const auto &b : buffers) {
        if (b.name == name)
            return &b;
    }
    return nullptr;
}

const CaseSpec *KernelSpec::findCase(const std::string &name) const
{
    for (const auto &c : cases) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

namespace {

// Reads typed fields out of JSON objects and records one error per bad field, with its full path.
class FieldReader
{
public:
    std::vector<std::string> errors;

    void fail(const std::string &path, const std::string &what) { errors.push_back(path + ": " + what); }

    static std::string join(const std::string &path, const std::string &key)
    {
        return path.empty() ? key : path + "." + key;
    }
    static std::string index(const std::string &path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

    bool object(const json &j, const std::string &path)
    {
        if (j.is_object())
            return true;
        fail(path.empty() ? std::string("spec") : path, "expected an object");
        return false;
    }

    // Unknown keys are errors, so that a misspelt optional field is not silently ignored.
    void onlyKeys(const json &j, const std::string &path, std::initializer_list<const char *> allowed)
    {
        for (const auto &[key, value] : j.items()) {
            bool known = false;
            for (const char *a : allowed)
                known = known || key == a;
            if (!known)
                fail(join(path, key), "unknown field");
        }
    }

    const json *required(const json &j, const std::string &path, const char *key)
    {
        auto it = j.find(key);
        if (it == j.end()) {
            fail(join(path, key), "required field is missing");
            return nullptr;
        }
        return &*it;
    }

    std::optional<std::string> string(
        const json &j, const std::string &path, bool nonEmpty = true, const char *what = "expected a string")
    {
        if (!j.is_string()) {
            fail(path, what);
            return std::nullopt;
        }
        auto s = j.get<std::string>();
        if (nonEmpty && s.empty()) {
            fail(path, "must not be empty");
            return std::nullopt;
        }
        return s;
    }

    std::optional<std::string> requiredString(
        const json &j, const std::string &path, const char *key, const char *what = "expected a string")
    {
        const json *v = required(j, path, key);
        return v ? string(*v, join(path, key), true, what) : std::nullopt;
    }

    std::optional<double> number(const json &j, const std::string &path, bool nonNegative = false)
    {
        if (!j.is_number()) {
            fail(path, "expected a number");
            return std::nullopt;
        }
        const double v = j.get<double>();
        if (nonNegative && v < 0) {
            fail(path, "must be >= 0");
            return std::nullopt;
        }
        return v;
    }

    template<typename E>
    std::optional<E> enumerated(
        const json &j, const std::string &path, std::initializer_list<std::pair<const char *, E>> values)
    {
        std::string allowed;
        for (const auto &[name, value] : values) {
            if (j.is_string() && j.get<std::string>() == name)
                return value;
            allowed += (allowed.empty() ? "" : ", ") + std::string(name);
        }
        fail(path, "expected one of " + allowed);
        return std::nullopt;
    }
};

bool isIdentifier(const std::string &s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    for (char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    }
    return true;
}

// A possibly qualified C++ name: identifiers joined by "::", with an optional leading "::".
bool isQualifiedName(const std::string &s)
{
    std::size_t at = s.rfind("::", 0) == 0 ? 2 : 0;
    while (true) {
        const std::size_t next = s.find("::", at);
        if (!isIdentifier(s.substr(at, next == std::string::npos ? std::string::npos : next - at)))
            return false;
        if (next == std::string::npos)
            return true;
        at = next + 2;
    }
}

std::optional<BufferInit> parseInit(FieldReader &r, const json &j, const std::string &path)
{
    if (!r.object(j, path))
        return std::nullopt;
    const json *kind = r.required(j, path, "kind");
    if (!kind)
        return std::nullopt;
    auto k = r.enumerated<InitKind>(*kind, FieldReader::join(path, "kind"),
        {{"uniform", InitKind::Uniform}, {"normal", InitKind::Normal}, {"constant", InitKind::Constant},
            {"iota", InitKind::Iota}});
    if (!k)
        return std::nullopt;
    BufferInit init;
    init.kind = *k;
    const std::size_t before = r.errors.size();
    auto num = [&](const char *key, double &out, bool nonNegative = false) {
        if (const json *v = r.required(j, path, key)) {
            if (auto n = r.number(*v, FieldReader::join(path, key), nonNegative))
                out = *n;
        }
    };
    auto seed = [&]() {
        if (const json *v = r.required(j, path, "seed")) {
            if (v->is_number_integer() && v->get<std::int64_t>() >= 0)
                init.seed = v->get<std::uint64_t>();
            else
                r.fail(FieldReader::join(path, "seed"), "expected a non-negative integer");
        }
    };
    switch (init.kind) {
    case InitKind::Uniform:
        r.onlyKeys(j, path, {"kind", "low", "high", "seed"});
        num("low", init.a);
        num("high", init.b);
        seed();
        if (r.errors.size() == before && init.b < init.a)
            r.fail(FieldReader::join(path, "high"), "must be >= low");
        break;
    case InitKind::Normal:
        r.onlyKeys(j, path, {"kind", "mean", "std", "seed"});
        num("mean", init.a);
        num("std", init.b, true);
        seed();
        break;
    case InitKind::Constant:
        r.onlyKeys(j, path, {"kind", "value"});
        num("value", init.a);
        break;
    case InitKind::Iota:
        r.onlyKeys(j, path, {"kind", "start", "step"});
        num("start", init.a);
        num("step", init.b);
        break;
    }
    return r.errors.size() == before ? std::optional<BufferInit>(init) : std::nullopt;
}

void parseBuffers(FieldReader &r, const json &j, KernelSpec &spec)
{
    if (!j.is_array() || j.empty()) {
        r.fail("buffers", "expected a non-empty array");
        return;
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string path = FieldReader::index("buffers", i);
        const json &b = j[i];
        if (!r.object(b, path))
            continue;
        r.onlyKeys(b, path, {"name", "dtype", "count", "role", "init"});
        BufferSpec buf;
        if (auto name = r.requiredString(b, path, "name")) {
            buf.name = *name;
            if (!isIdentifier(buf.name))
                r.fail(path + ".name", "expected an identifier");
            else if (!names.insert(buf.name).second)
                r.fail(path + ".name", "duplicate buffer name '" + buf.name + "'");
        }
        if (const json *d = r.required(b, path, "dtype")) {
            if (auto dt = r.enumerated<Dtype>(*d, path + ".dtype",
                    {{"f32", Dtype::F32}, {"f16", Dtype::F16}, {"bf16", Dtype::BF16}, {"i32", Dtype::I32},
                        {"i64", Dtype::I64}, {"u8", Dtype::U8}}))
                buf.dtype = *dt;
        }
        if (auto count = r.requiredString(b, path, "count", "expected a string expression"))
            buf.count = *count;
        if (const json *role = r.required(b, path, "role")) {
            if (auto ro = r.enumerated<BufferRole>(*role, path + ".role",
                    {{"input", BufferRole::Input}, {"output", BufferRole::Output}, {"inout", BufferRole::Inout}}))
                buf.role = *ro;
        }
        auto init = b.find("init");
        if (init != b.end()) {
            if (buf.role == BufferRole::Output)
                r.fail(path + ".init", "an output buffer has no initialiser (it is poisoned before each run)");
            else
                buf.init = parseInit(r, *init, path + ".init");
        } else if (buf.role != BufferRole::Output && b.contains("role") && b["role"].is_string()) {
            r.fail(path + ".init", "required for input and inout buffers");
        }
        spec.buffers.push_back(std::move(buf));
    }
}

std::optional<std::array<std::string, 3>> parseDim3(
    FieldReader &r, const json &launch, const std::string &path, const char *key)
{
    const json *v = r.required(launch, path, key);
    if (!v)
        return std::nullopt;
    const std::string field = FieldReader::join(path, key);
    if (!v->is_array() || v->size() != 3) {
        r.fail(field, "expected an array of 3 string expressions");
        return std::nullopt;
    }
    std::array<std::string, 3> out;
    bool good = true;
    for (std::size_t d = 0; d < 3; ++d) {
        auto s = r.string((*v)[d], FieldReader::index(field, d), true, "expected a string expression");
        good = good && s.has_value();
        out[d] = s.value_or("");
    }
    return good ? std::optional(out) : std::nullopt;
}

std::optional<KernelArg> parseArg(FieldReader &r, const json &a, const std::string &path)
{
    if (!r.object(a, path))
        return std::nullopt;
    KernelArg arg;
    if (a.contains("buffer")) {
        r.onlyKeys(a, path, {"buffer"});
        auto name = r.string(a["buffer"], path + ".buffer");
        if (!name)
            return std::nullopt;
        arg.isBuffer = true;
        arg.buffer = *name;
        return arg;
    }
    if (a.contains("scalar")) {
        r.onlyKeys(a, path, {"scalar", "dtype"});
        auto expr = r.string(a["scalar"], path + ".scalar", true, "expected a string expression");
        const json *d = r.required(a, path, "dtype");
        std::optional<ScalarType> type;
        if (d)
            type = r.enumerated<ScalarType>(*d, path + ".dtype",
                {{"i32", ScalarType::I32}, {"i64", ScalarType::I64}, {"f32", ScalarType::F32},
                    {"f64", ScalarType::F64}});
        if (!expr || !type)
            return std::nullopt;
        arg.isBuffer = false;
        arg.expression = *expr;
        arg.scalarType = *type;
        return arg;
    }
    r.fail(path, "expected {\"buffer\": NAME} or {\"scalar\": EXPR, \"dtype\": TYPE}");
    return std::nullopt;
}

void parseLaunches(FieldReader &r, const json &j, std::vector<LaunchSpec> &out, bool entriesOnly)
{
    if (!j.is_array() || j.empty()) {
        r.fail("launches", "expected a non-empty array");
        return;
    }
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string path = FieldReader::index("launches", i);
        const json &l = j[i];
        if (!r.object(l, path))
            continue;
        r.onlyKeys(l, path, {"entry", "grid", "block", "shared_bytes", "args"});
        LaunchSpec launch;
        if (auto entry = r.requiredString(l, path, "entry")) {
            launch.entry = *entry;
            if (const std::string why = entryError(launch.entry); !why.empty())
                r.fail(path + ".entry", why);
        }
        if (!entriesOnly) {
            if (auto g = parseDim3(r, l, path, "grid"))
                launch.grid = *g;
            if (auto b = parseDim3(r, l, path, "block"))
                launch.block = *b;
            if (auto it = l.find("shared_bytes"); it != l.end()) {
                if (auto s = r.string(*it, path + ".shared_bytes", true, "expected a string expression"))
                    launch.sharedBytes = *s;
            }
            if (const json *args = r.required(l, path, "args")) {
                if (!args->is_array()) {
                    r.fail(path + ".args", "expected an array");
                } else {
                    for (std::size_t k = 0; k < args->size(); ++k) {
                        if (auto arg = parseArg(r, (*args)[k], FieldReader::index(path + ".args", k)))
                            launch.args.push_back(*arg);
                    }
                }
            }
        }
        out.push_back(std::move(launch));
    }
}

void parseCases(FieldReader &r, const json &j, KernelSpec &spec)
{
    if (!j.is_array() || j.empty()) {
        r.fail("cases", "expected a non-empty array");
        return;
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string path = FieldReader::index("cases", i);
        const json &c = j[i];
        if (!r.object(c, path))
            continue;
        r.onlyKeys(c, path, {"name", "vars"});
        CaseSpec cs;
        if (auto name = r.requiredString(c, path, "name")) {
            cs.name = *name;
            if (!names.insert(cs.name).second)
                r.fail(path + ".name", "duplicate case name '" + cs.name + "'");
        }
        if (const json *vars = r.required(c, path, "vars")) {
            if (!vars->is_object()) {
                r.fail(path + ".vars", "expected an object of numbers");
            } else {
                const std::string prefix = path + ".vars.";
                for (const auto &[key, value] : vars->items()) {
                    const std::string field = prefix + key;
                    if (!isValidVariableName(key))
                        r.fail(field, "not a valid variable name");
                    else if (auto n = r.number(value, field))
                        cs.vars[key] = *n;
                }
            }
        }
        spec.cases.push_back(std::move(cs));
    }
}

void parseTolerance(FieldReader &r, const json &t, KernelSpec &spec)
{
    if (!r.object(t, "tolerance"))
        return;
    r.onlyKeys(t, "tolerance", {"rtol", "atol"});
    if (const json *v = r.required(t, "tolerance", "rtol")) {
        if (auto n = r.number(*v, "tolerance.rtol", true))
            spec.rtol = *n;
    }
    if (const json *v = r.required(t, "tolerance", "atol")) {
        if (auto n = r.number(*v, "tolerance.atol", true))
            spec.atol = *n;
    }
}

void parseOptions(FieldReader &r, const json &j, std::vector<std::string> &out)
{
    auto it = j.find("options");
    if (it == j.end())
        return;
    if (!it->is_array()) {
        r.fail("options", "expected an array of strings");
        return;
    }
    for (std::size_t i = 0; i < it->size(); ++i) {
        if (auto s = r.string((*it)[i], FieldReader::index("options", i)))
            out.push_back(*s);
    }
}

void parseHeader(FieldReader &r, const json &j, std::string &name, std::string &source)
{
    if (const json *f = r.required(j, "", "format")) {
        if (!f->is_string() || f->get<std::string>() != "gpuf-kernel/1")
            r.fail("format", "expected \"gpuf-kernel/1\"");
    }
    if (auto it = j.find("language"); it != j.end() && !(it->is_string() && it->get<std::string>() == "cuda"))
        r.fail("language", "expected \"cuda\"");
    if (auto it = j.find("description"); it != j.end() && !it->is_string())
        r.fail("description", "expected a string");
    if (auto n = r.requiredString(j, "", "name"))
        name = *n;
    if (auto s = r.requiredString(j, "", "source"))
        source = *s;
}

// Everything that depends on a case: each expression evaluates, each count/geometry is a valid integer.
void checkCase(FieldReader &r, const KernelSpec &spec, std::size_t caseIndex)
{
    const CaseSpec &cs = spec.cases[caseIndex];
    const std::string prefix = "cases[" + std::to_string(caseIndex) + "] (" + cs.name + "): ";
    ExpressionEvaluator eval(cs.vars);
    for (std::size_t i = 0; i < spec.buffers.size(); ++i) {
        if (auto n = eval.evaluateCount(spec.buffers[i].count); !n)
            r.errors.push_back(prefix + FieldReader::index("buffers", i) + ".count: " + n.error());
    }
    for (std::size_t i = 0; i < spec.launches.size(); ++i) {
        const LaunchSpec &l = spec.launches[i];
        const std::string path = FieldReader::index("launches", i);
        if (auto g = evaluateGeometry(l, eval); !g)
            r.errors.push_back(prefix + path + "." + g.error());
        for (std::size_t k = 0; k < l.args.size(); ++k) {
            if (l.args[k].isBuffer)
                continue;
            const std::string field = prefix + path + ".args[" + std::to_string(k) + "].scalar: ";
            auto v = eval.evaluate(l.args[k].expression);
            if (!v)
                r.errors.push_back(field + v.error());
            else if ((l.args[k].scalarType == ScalarType::I32 || l.args[k].scalarType == ScalarType::I64)
                && *v != std::floor(*v))
                r.errors.push_back(field + "'" + l.args[k].expression + "' is not an integer");
        }
    }
    if (!spec.bytesMoved.empty()) {
        if (auto v = eval.evaluate(spec.bytesMoved); !v)
            r.errors.push_back(prefix + "bytes_moved: " + v.error());
    }
    if (!spec.flops.empty()) {
        if (auto v = eval.evaluate(spec.flops); !v)
            r.errors.push_back(prefix + "flops: " + v.error());
    }
}

} // namespace

std::variant<KernelSpec, SpecErrors> parseKernelSpec(const json &j)
{
    FieldReader r;
    if (!r.object(j, ""))
        return SpecErrors {r.errors};
    r.onlyKeys(j, "",
        {"format", "name", "language", "description", "source", "options", "launches", "buffers", "cases", "tolerance",
            "bytes_moved", "flops"});
    KernelSpec spec;
    parseHeader(r, j, spec.name, spec.source);
    parseOptions(r, j, spec.options);
    if (const json *l = r.required(j, "", "launches"))
        parseLaunches(r, *l, spec.launches, false);
    if (const json *b = r.required(j, "", "buffers"))
        parseBuffers(r, *b, spec);
    if (const json *c = r.required(j, "", "cases"))
        parseCases(r, *c, spec);
    if (const json *t = r.required(j, "", "tolerance"))
        parseTolerance(r, *t, spec);
    if (auto it = j.find("bytes_moved"); it != j.end()) {
        if (auto s = r.string(*it, "bytes_moved", true, "expected a string expression"))
            spec.bytesMoved = *s;
    }
    if (auto it = j.find("flops"); it != j.end()) {
        if (auto s = r.string(*it, "flops", true, "expected a string expression"))
            spec.flops = *s;
    }
    if (!r.errors.empty())
        return SpecErrors {r.errors};

    for (std::size_t i = 0; i < spec.launches.size(); ++i) {
        for (std::size_t k = 0; k < spec.launches[i].args.size(); ++k) {
            const KernelArg &a = spec.launches[i].args[k];
            if (a.isBuffer && !spec.buffer(a.buffer))
                r.fail("launches[" + std::to_string(i) + "].args[" + std::to_string(k) + "].buffer",
                    "no buffer named '" + a.buffer + "'");
        }
    }
    for (std::size_t c = 0; c < spec.cases.size(); ++c)
        checkCase(r, spec, c);
    if (!r.errors.empty())
        return SpecErrors {r.errors};
    return spec;
}

std::variant<CompileSpec, SpecErrors> parseCompileSpec(const json &j)
{
    FieldReader r;
    if (!r.object(j, ""))
        return SpecErrors {r.errors};
    CompileSpec spec;
    parseHeader(r, j, spec.name, spec.source);
    parseOptions(r, j, spec.options);
    std::vector<LaunchSpec> launches;
    if (auto it = j.find("launches"); it != j.end())
        parseLaunches(r, *it, launches, true);
    for (const auto &l : launches)
        spec.entries.push_back(l.entry);
    if (!r.errors.empty())
        return SpecErrors {r.errors};
    return spec;
}

bool isPlainEntry(const std::string &entry) { return isIdentifier(entry); }

std::string entryError(const std::string &entry)
{
    const auto first = entry.find_first_not_of(' ');
    if (first == std::string::npos)
        return "must not be empty";
    if (entry.front() == ' ' || entry.back() == ' ')
        return "has leading or trailing spaces";
    const std::size_t open = entry.find('<');
    if (open == std::string::npos) {
        return isQualifiedName(entry) ? std::string()
                                      : "expected a kernel name such as scale, ns::scale or sgemm<64, 8>";
    }
    if (!isQualifiedName(entry.substr(0, open)))
        return "expected a kernel name before '<' (as in sgemm<64, 8>)";
    if (entry.back() != '>')
        return "a template instantiation ends with '>' (as in sgemm<64, 8>)";
    // The arguments are compiled by NVRTC as written: allow what template arguments are made of (names, numbers,
    // types, arithmetic, nested brackets) and nothing that could end the expression or start a statement.
    int angle = 0;
    int paren = 0;
    for (std::size_t i = open; i < entry.size(); ++i) {
        const char c = entry[i];
        if (c == '<')
            ++angle;
        else if (c == '>')
            --angle;
        else if (c == '(')
            ++paren;
        else if (c == ')')
            --paren;
        else if (!(std::isalnum(static_cast<unsigned char>(c))
                     || std::string_view("_ ,:*&.+-/%").find(c) != std::string_view::npos))
            return std::string("character '") + c + "' cannot appear in template arguments";
        if (angle < 0 || paren < 0 || (angle == 0 && i + 1 < entry.size()))
            return "unbalanced '<' and '>' (as in sgemm<64, 8>)";
    }
    if (angle != 0 || paren != 0)
        return "unbalanced brackets in the template arguments";
    return {};
}

Expected<LaunchGeometry> evaluateGeometry(const LaunchSpec &launch, const ExpressionEvaluator &eval)
{
    LaunchGeometry g;
    constexpr std::int64_t limit = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t d = 0; d < 3; ++d) {
        auto grid = eval.evaluateCount(launch.grid[d]);
        if (!grid)
            return Failure {"grid[" + std::to_string(d) + "]: " + grid.error()};
        auto block = eval.evaluateCount(launch.block[d]);
        if (!block)
            return Failure {"block[" + std::to_string(d) + "]: " + block.error()};
        if (*grid == 0)
            return Failure {"grid[" + std::to_string(d) + "]: '" + launch.grid[d] + "' is 0 (must be at least 1)"};
        if (*block == 0)
            return Failure {"block[" + std::to_string(d) + "]: '" + launch.block[d] + "' is 0 (must be at least 1)"};
        if (*grid > limit || *block > limit)
            return Failure {"launch dimension " + std::to_string(d) + " is out of range"};
        g.grid[d] = static_cast<std::uint32_t>(*grid);
        g.block[d] = static_cast<std::uint32_t>(*block);
    }
    auto shared = eval.evaluateCount(launch.sharedBytes);
    if (!shared)
        return Failure {"shared_bytes: " + shared.error()};
    if (*shared > limit)
        return Failure {"shared_bytes is out of range"};
    g.sharedBytes = static_cast<std::uint32_t>(*shared);
    return g;
}

} // namespace gpuf::gpu
