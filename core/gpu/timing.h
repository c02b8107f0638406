// The timing loop: warm-up, optional L2 flush, CUDA events per sample, CUPTI kernel spans, adaptive stopping.
#pragma once

#include "core/gpu/device_query.h"
#include "core/gpu/kernel_runner.h"

#include <variant>

namespace gpuf::gpu {

// A device buffer larger than L2 that is rewritten before each sample so every sample starts with a cold L2.
class L2Flusher
{
public:
    explicit L2Flusher(const GpuDevice &gpu);
    ~L2Flusher();
    std::optional<GpuFault> flush();
    bool usable() const { return m_pointer != 0; }

private:
    const GpuDevice &m_gpu;
    CUdeviceptr m_pointer = 0;
    std::size_t m_words = 0;
    unsigned m_round = 0;
};

// Times every launch of the sequence as one sample (first launch start to last launch end).
std::variant<TimingResult, GpuFault> timeSequence(
    const GpuDevice &gpu, const LaunchSequence &sequence, const MeasureOptions &options, L2Flusher *flusher);

} // namespace gpuf::gpu
