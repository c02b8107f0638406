// Kernel start/end times from the CUPTI activity API (libcupti opened at run time), collected per window.
#pragma once

#include "core/gpu/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpuf::gpu {

struct KernelSpan
{
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
};

class CuptiKernelTimer
{
public:
    // The process-wide timer, or why CUPTI cannot be used here (library missing, another profiler attached...).
    static Expected<CuptiKernelTimer *> instance();

    Done start(); // begin recording kernel activity
    Expected<std::vector<KernelSpan>> collect(); // flush and take the spans recorded so far, sorted by start
    void stop();

private:
    CuptiKernelTimer() = default;
    bool m_running = false;
};

} // namespace gpuf::gpu
