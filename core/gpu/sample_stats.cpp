// Median, mean, min, max, sample standard deviation and relative standard error of the mean.
#include "core/gpu/sample_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuf::gpu {

SampleStats summarize(std::vector<double> samples)
{
    SampleStats s;
    s.n = static_cast<int>(samples.size());
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    s.medianUs = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    s.minUs = samples.front();
    s.maxUs = samples.back();
    s.meanUs = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
    if (n > 1) {
        double ss = 0.0;
        for (double v : samples)
            ss += (v - s.meanUs) * (v - s.meanUs);
        s.stdUs = std::sqrt(ss / static_cast<double>(n - 1));
        s.relStdError = s.meanUs > 0 ? s.stdUs / std::sqrt(static_cast<double>(n)) / s.meanUs : 0.0;
    } else {
        s.relStdError = 1.0; // one sample says nothing about its spread
    }
    return s;
}

} // namespace gpuf::gpu
