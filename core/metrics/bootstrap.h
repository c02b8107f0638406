// Bootstrap building blocks: a platform-independent index sampler and percentile intervals.
#pragma once

#include <QtGlobal>

#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <vector>

namespace gpuf::metrics {

struct Interval
{
    double low = std::numeric_limits<double>::quiet_NaN();
    double high = std::numeric_limits<double>::quiet_NaN();
};

// Uniform integers in [0, n) from std::mt19937_64 (whose output the standard fixes) by Lemire's
// multiply-and-reject method; std::uniform_int_distribution is avoided because its algorithm differs
// between standard libraries, and results must be identical on every platform.
class IndexSampler
{
public:
    explicit IndexSampler(quint64 seed);
    std::uint64_t next(std::uint64_t n);

    // An independent, reproducible stream per replicate: seeds are mixed so that neighbouring
    // replicates do not share state and a parallel run would reproduce a serial one.
    static quint64 streamSeed(quint64 seed, quint64 stream);

private:
    std::mt19937_64 m_engine;
};

// Percentile interval of the finite values (linear interpolation between order statistics, the usual
// "type 7" quantile); NaN bounds when no value is finite. `values` is reordered.
Interval percentileInterval(std::vector<double> &values, double level);

} // namespace gpuf::metrics
