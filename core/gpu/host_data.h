// Host-side buffer contents: seeded initialisers, dtype conversion, output poison, and the tolerance comparison.
#pragma once

#include "core/gpu/kernel_spec.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace gpuf::gpu {

// Deterministic for (init, salt, index) on every machine: a counter-based generator, not std::distributions.
// salt varies per correctness run, so each run draws fresh inputs; salt 0 is the spec's own seed.
std::vector<std::uint8_t> makeHostData(Dtype dtype, const BufferInit &init, std::int64_t count, std::uint64_t salt);

// makeHostData's results kept across requests: inputs are a pure function of (dtype, initialiser, count, salt), so a
// worker measuring many candidates of one problem (a family sweep, a search) generates each input once instead of
// once per request. Bounded by bytes; the oldest entries are dropped first.
class HostDataCache
{
public:
    explicit HostDataCache(std::size_t capacityBytes);
    std::shared_ptr<const std::vector<std::uint8_t>> get(
        Dtype dtype, const BufferInit &init, std::int64_t count, std::uint64_t salt);
    std::size_t bytes() const { return m_bytes; }
    std::size_t entries() const { return m_entries.size(); }

private:
    using Key = std::tuple<int, int, double, double, std::uint64_t, std::int64_t, std::uint64_t>;
    std::size_t m_capacity;
    std::size_t m_bytes = 0;
    std::map<Key, std::shared_ptr<const std::vector<std::uint8_t>>> m_entries;
    std::deque<Key> m_order; // insertion order, oldest first
};

// The worker's cache (it serves one request at a time): 1.5 GiB, a few large problems' inputs for two salts.
HostDataCache &workerHostDataCache();

// The poison an output is filled with before a run: NaN for float types, 0xFF bytes for integers.
struct PoisonPattern
{
    unsigned width = 1; // 1, 2 or 4 bytes
    std::uint32_t value = 0xFF;
};
PoisonPattern poisonPattern(Dtype dtype);

double elementAsDouble(Dtype dtype, const std::uint8_t *bytes, std::int64_t index);

std::uint16_t floatToHalf(float value);
float halfToFloat(std::uint16_t bits);
std::uint16_t floatToBf16(float value);
float bf16ToFloat(std::uint16_t bits);

struct Mismatch
{
    std::string buffer;
    std::int64_t index = 0;
    double expected = 0.0;
    double actual = 0.0;
};

struct BufferComparison
{
    std::string buffer;
    std::int64_t elements = 0;
    std::int64_t mismatches = 0;
    std::int64_t candidateNaN = 0; // elements left poisoned (or computed as NaN) where the reference is finite
    std::int64_t referenceNaN = 0; // the reference itself produced NaN (or left the element unwritten)
    double maxAbsError = 0.0;
    double maxRelError = 0.0;
    std::vector<Mismatch> first; // at most maxReported
};

// |cand - ref| <= atol + rtol * |ref| element-wise; NaN in the candidate fails unless the reference is NaN too.
BufferComparison compareBuffers(const std::string &name, Dtype dtype, const std::vector<std::uint8_t> &reference,
    const std::vector<std::uint8_t> &candidate, double rtol, double atol, std::size_t maxReported);

} // namespace gpuf::gpu
