// Counter-based seeded initialisers and the element-wise comparison used by the correctness check.
#include "core/gpu/host_data.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpuf::gpu {

namespace {

std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Uniform in (0, 1): never exactly 0, so Box-Muller's log is finite.
double unit(std::uint64_t key)
{
    return (static_cast<double>(splitmix64(key) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

double initValue(const BufferInit &init, std::uint64_t streamKey, std::int64_t i, bool integral)
{
    switch (init.kind) {
    case InitKind::Constant:
        return init.a;
    case InitKind::Iota:
        return init.a + init.b * static_cast<double>(i);
    case InitKind::Uniform: {
        const double u = unit(streamKey + static_cast<std::uint64_t>(i));
        if (integral)
            return std::min(init.b, std::floor(init.a + u * (init.b - init.a + 1.0)));
        return init.a + u * (init.b - init.a);
    }
    case InitKind::Normal: {
        const std::uint64_t k = streamKey + 2 * static_cast<std::uint64_t>(i);
        const double r = std::sqrt(-2.0 * std::log(unit(k)));
        const double v = init.a + init.b * r * std::cos(6.283185307179586 * unit(k + 1));
        return integral ? std::round(v) : v;
    }
    }
    return 0.0;
}

template<typename T>
void store(std::uint8_t *out, std::int64_t i, T value)
{
    std::memcpy(out + i * static_cast<std::int64_t>(sizeof(T)), &value, sizeof(T));
}

template<typename T>
T load(const std::uint8_t *in, std::int64_t i)
{
    T value;
    std::memcpy(&value, in + i * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
    return value;
}

} // namespace

std::uint16_t floatToHalf(float value)
{
    std::uint32_t x;
    std::memcpy(&x, &value, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t absx = x & 0x7FFFFFFFu;
    if (absx > 0x7F800000u)
        return static_cast<std::uint16_t>(sign | 0x7E00u);
    if (absx >= 0x477FF000u) // rounds to >= 65520: infinity
        return static_cast<std::uint16_t>(sign | 0x7C00u);
    if (absx < 0x38800000u) { // subnormal half (or zero): scale into the 10-bit mantissa, round to nearest even
        const float f = std::fabs(value) * 16777216.0f; // 2^24
        return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(f)));
    }
    const std::uint32_t mant = absx & 0x7FFFFFu;
    std::uint32_t h = ((absx >> 23) - 112u) << 10 | (mant >> 13);
    const std::uint32_t rest = mant & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        ++h;
    return static_cast<std::uint16_t>(sign | h);
}

float halfToFloat(std::uint16_t bits)
{
    const std::uint32_t sign = (bits & 0x8000u) << 16;
    const std::uint32_t exp = (bits >> 10) & 0x1Fu;
    const std::uint32_t mant = bits & 0x3FFu;
    float out;
    if (exp == 0) {
        out = std::ldexp(static_cast<float>(mant), -24);
        return sign ? -out : out;
    }
    const std::uint32_t x
        = exp == 31 ? (sign | 0x7F800000u | (mant << 13)) : (sign | ((exp + 112u) << 23) | (mant << 13));
    std::memcpy(&out, &x, 4);
    return out;
}

std::uint16_t floatToBf16(float value)
{
    std::uint32_t x;
    std::memcpy(&x, &value, 4);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u)
        return static_cast<std::uint16_t>((x >> 16) | 0x40u);
    x += 0x7FFFu + ((x >> 16) & 1u);
    return static_cast<std::uint16_t>(x >> 16);
}

float bf16ToFloat(std::uint16_t bits)
{
    const std::uint32_t x = static_cast<std::uint32_t>(bits) << 16;
    float out;
    std::memcpy(&out, &x, 4);
    return out;
}

std::vector<std::uint8_t> makeHostData(Dtype dtype, const BufferInit &init, std::int64_t count, std::uint64_t salt)
{
    std::vector<std::uint8_t> out(static_cast<std::size_t>(count) * dtypeSize(dtype));
    const std::uint64_t streamKey = splitmix64(init.seed * 0x100000001B3ull ^ splitmix64(salt)) << 1;
    const bool integral = !isFloatDtype(dtype);
    std::uint8_t *p = out.data();
    for (std::int64_t i = 0; i < count; ++i) {
        const double v = initValue(init, streamKey, i, integral);
        switch (dtype) {
        case Dtype::F32:
            store<float>(p, i, static_cast<float>(v));
            break;
        case Dtype::F16:
            store<std::uint16_t>(p, i, floatToHalf(static_cast<float>(v)));
            break;
        case Dtype::BF16:
            store<std::uint16_t>(p, i, floatToBf16(static_cast<float>(v)));
            break;
        case Dtype::I32:
            store<std::int32_t>(p, i, static_cast<std::int32_t>(v));
            break;
        case Dtype::I64:
            store<std::int64_t>(p, i, static_cast<std::int64_t>(v));
            break;
        case Dtype::U8:
            store<std::uint8_t>(p, i, static_cast<std::uint8_t>(std::clamp(v, 0.0, 255.0)));
            break;
        }
    }
    return out;
}

HostDataCache::HostDataCache(std::size_t capacityBytes)
    : m_capacity(capacityBytes)
{ }

std::shared_ptr<const std::vector<std::uint8_t>> HostDataCache::get(
    Dtype dtype, const BufferInit &init, std::int64_t count, std::uint64_t salt)
{
    const Key key {static_cast<int>(dtype), static_cast<int>(init.kind), init.a, init.b, init.seed, count, salt};
    if (auto it = m_entries.find(key); it != m_entries.end())
        return it->second;
    auto data = std::make_shared<const std::vector<std::uint8_t>>(makeHostData(dtype, init, count, salt));
    if (data->size() > m_capacity)
        return data; // handed out, never kept
    // Holders keep their copy alive (shared_ptr), so dropping an entry never invalidates a buffer in use.
    while (!m_order.empty() && m_bytes + data->size() > m_capacity) {
        auto oldest = m_entries.find(m_order.front());
        m_bytes -= oldest->second->size();
        m_entries.erase(oldest);
        m_order.pop_front();
    }
    m_entries.emplace(key, data);
    m_order.push_back(key);
    m_bytes += data->size();
    return data;
}

HostDataCache &workerHostDataCache()
{
    static HostDataCache cache(std::size_t(3) << 29);
    return cache;
}

PoisonPattern poisonPattern(Dtype dtype)
{
    switch (dtype) {
    case Dtype::F32:
        return {4, 0x7FC00000u};
    case Dtype::F16:
        return {2, 0x7E00u};
    case Dtype::BF16:
        return {2, 0x7FC0u};
    default:
        return {1, 0xFFu};
    }
}

double elementAsDouble(Dtype dtype, const std::uint8_t *bytes, std::int64_t index)
{
    switch (dtype) {
    case Dtype::F32:
        return load<float>(bytes, index);
    case Dtype::F16:
        return halfToFloat(load<std::uint16_t>(bytes, index));
    case Dtype::BF16:
        return bf16ToFloat(load<std::uint16_t>(bytes, index));
    case Dtype::I32:
        return load<std::int32_t>(bytes, index);
    case Dtype::I64:
        return static_cast<double>(load<std::int64_t>(bytes, index));
    case Dtype::U8:
        return load<std::uint8_t>(bytes, index);
    }
    return 0.0;
}

BufferComparison compareBuffers(const std::string &name, Dtype dtype, const std::vector<std::uint8_t> &reference,
    const std::vector<std::uint8_t> &candidate, double rtol, double atol, std::size_t maxReported)
{
    BufferComparison c;
    c.buffer = name;
    const std::size_t size = dtypeSize(dtype);
    c.elements = static_cast<std::int64_t>(std::min(reference.size(), candidate.size()) / size);
    for (std::int64_t i = 0; i < c.elements; ++i) {
        const double ref = elementAsDouble(dtype, reference.data(), i);
        const double cand = elementAsDouble(dtype, candidate.data(), i);
        bool bad = false;
        if (std::isnan(ref)) {
            ++c.referenceNaN;
            bad = !std::isnan(cand);
        } else if (std::isnan(cand)) {
            ++c.candidateNaN;
            bad = true;
        } else if (std::isinf(ref) || std::isinf(cand)) {
            bad = ref != cand; // an infinity matches only itself; the relative bound would accept anything
        } else {
            const double err = std::fabs(cand - ref);
            bad = !(err <= atol + rtol * std::fabs(ref));
            if (std::isfinite(err)) {
                c.maxAbsError = std::max(c.maxAbsError, err);
                if (ref != 0.0)
                    c.maxRelError = std::max(c.maxRelError, err / std::fabs(ref));
            }
        }
        if (bad) {
            ++c.mismatches;
            if (c.first.size() < maxReported)
                c.first.push_back({name, i, ref, cand});
        }
    }
    return c;
}

} // namespace gpuf::gpu
