// Summary statistics of timing samples, and the stopping rule of the adaptive sampler.
#pragma once

#include <vector>

namespace gpuf::gpu {

struct SampleStats
{
    int n = 0;
    double medianUs = 0.0;
    double meanUs = 0.0;
    double minUs = 0.0;
    double maxUs = 0.0;
    double stdUs = 0.0; // sample standard deviation
    double relStdError = 0.0; // std / sqrt(n) / mean
};

SampleStats summarize(std::vector<double> samplesUs);

} // namespace gpuf::gpu
