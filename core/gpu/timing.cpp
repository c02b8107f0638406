// Adaptive sampling: batches of samples between synchronisations, until the relative standard error of the
// mean reaches the target or the time budget ends; CUPTI spans are the primary figure where CUPTI works.
#include "core/gpu/timing.h"

#include "core/gpu/cupti_timer.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace gpuf::gpu {

L2Flusher::L2Flusher(const GpuDevice &gpu)
    : m_gpu(gpu)
{
    // Twice L2 (at least 64 MiB) so no line of the previous sample survives the rewrite.
    const std::size_t bytes = std::max<std::size_t>(64u << 20, 2u * static_cast<std::size_t>(gpu.info().l2Bytes));
    if (gpu.api().memAlloc(&m_pointer, bytes) != CUDA_SUCCESS)
        m_pointer = 0;
    m_words = bytes / 4;
}

L2Flusher::~L2Flusher()
{
    if (m_pointer && !m_gpu.lost()) // cuMemFree would wait for a hung kernel
        m_gpu.api().memFree(m_pointer);
}

std::optional<GpuFault> L2Flusher::flush()
{
    if (CUresult r = m_gpu.api().memsetD32Async(m_pointer, ++m_round, m_words, m_gpu.stream()); r != CUDA_SUCCESS)
        return m_gpu.fault(r, "L2 flush");
    return std::nullopt;
}

namespace {

class EventPool
{
public:
    EventPool(const GpuDevice &gpu, std::size_t pairs)
        : m_gpu(gpu)
        , m_api(gpu.api())
    {
        m_events.resize(2 * pairs);
        for (auto &e : m_events)
            m_api.eventCreate(&e, CU_EVENT_DEFAULT);
    }
    ~EventPool()
    {
        if (m_gpu.lost())
            return; // nothing more may touch the driver in a way that can wait for the hung kernel
        for (auto e : m_events)
            m_api.eventDestroy(e);
    }
    CUevent start(std::size_t i) const { return m_events[2 * i]; }
    CUevent end(std::size_t i) const { return m_events[2 * i + 1]; }

private:
    const GpuDevice &m_gpu;
    const DriverApi &m_api;
    std::vector<CUevent> m_events;
};

constexpr std::size_t kMaxBatch = 256;

struct Sampler
{
    const GpuDevice &gpu;
    const LaunchSequence &sequence;
    const MeasureOptions &options;
    L2Flusher *flusher;
    EventPool events;

    // Enqueues n samples and waits for them; appends event times (microseconds).
    std::optional<GpuFault> batch(std::size_t n, double expectedMs, std::vector<double> &eventUs)
    {
        const DriverApi &api = gpu.api();
        for (std::size_t i = 0; i < n; ++i) {
            if (flusher) {
                if (auto f = flusher->flush())
                    return f;
            }
            api.eventRecord(events.start(i), gpu.stream());
            if (auto f = sequence.run(gpu))
                return f;
            api.eventRecord(events.end(i), gpu.stream());
        }
        if (auto f = gpu.waitEvent(events.end(n - 1), options.timeoutMs + expectedMs, "timed samples"))
            return f;
        for (std::size_t i = 0; i < n; ++i) {
            float ms = 0.0f;
            api.eventElapsedTime(&ms, events.start(i), events.end(i));
            eventUs.push_back(ms * 1e3);
        }
        return std::nullopt;
    }
};

// One sample per group of `launches` consecutive kernel spans: first start to last end.
bool appendSpans(
    const std::vector<KernelSpan> &spans, std::size_t launches, std::size_t samples, std::vector<double> &out)
{
    if (spans.size() != launches * samples)
        return false;
    for (std::size_t s = 0; s < samples; ++s) {
        const std::uint64_t start = spans[s * launches].startNs;
        std::uint64_t end = 0;
        for (std::size_t k = 0; k < launches; ++k)
            end = std::max(end, spans[s * launches + k].endNs);
        out.push_back(static_cast<double>(end - start) / 1e3);
    }
    return true;
}

} // namespace

std::variant<TimingResult, GpuFault> timeSequence(
    const GpuDevice &gpu, const LaunchSequence &sequence, const MeasureOptions &options, L2Flusher *flusher)
{
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    TimingResult result;
    result.flushL2 = flusher != nullptr;
    result.warmup = options.warmup;
    Sampler sampler {gpu, sequence, options, flusher, EventPool(gpu, kMaxBatch)};

    // Warm-up doubles as the first estimate of one sample's length, which sizes the batches.
    std::vector<double> warm;
    if (auto f = sampler.batch(static_cast<std::size_t>(std::max(1, options.warmup)), 0.0, warm))
        return *f;
    const double estimateUs = std::max(1.0, warm.back());

    CuptiKernelTimer *cupti = nullptr;
    if (options.timing == "events") {
        result.methodNote = "CUDA events (the default; ask for \"timing\": \"cupti\" for CUPTI kernel records)";
    } else if (auto t = CuptiKernelTimer::instance(); !t) {
        result.methodNote = t.error();
    } else if (auto s = (*t)->start(); !s) {
        result.methodNote = s.error();
    } else {
        cupti = *t;
    }

    std::vector<double> eventUs;
    std::vector<double> cuptiUs;
    const std::size_t batchSize = std::clamp<std::size_t>(static_cast<std::size_t>(20000.0 / estimateUs), 1, kMaxBatch);
    for (;;) {
        const std::size_t remaining = static_cast<std::size_t>(options.maxSamples) - eventUs.size();
        const std::size_t n = std::min(batchSize, remaining);
        if (auto f = sampler.batch(n, n * estimateUs / 1e3 * 4.0, eventUs)) {
            // A forced CUPTI flush waits for the device: after a timeout the worker exits without it.
            if (cupti && !gpu.lost())
                cupti->stop();
            return *f;
        }
        if (cupti) {
            auto spans = cupti->collect();
            if (!spans || !appendSpans(*spans, sequence.size(), n, cuptiUs)) {
                result.methodNote = spans ? "CUPTI returned " + std::to_string(spans->size()) + " kernel records for "
                        + std::to_string(n * sequence.size()) + " launches; fell back to CUDA events"
                                          : spans.error();
                cupti->stop();
                cupti = nullptr;
                cuptiUs.clear();
            }
        }
        const std::vector<double> &primary = cupti ? cuptiUs : eventUs;
        const SampleStats stats = summarize(primary);
        const double elapsedMs = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
        const bool enough = stats.n >= options.minSamples;
        result.reachedTarget = enough && stats.relStdError <= options.targetRelStdError;
        if (result.reachedTarget || (enough && elapsedMs >= options.timeBudgetMs)
            || eventUs.size() >= static_cast<std::size_t>(options.maxSamples))
            break;
    }
    if (cupti)
        cupti->stop();
    result.method = cupti ? "cupti" : "cuda_events";
    result.eventStats = summarize(eventUs);
    result.stats = cupti ? summarize(cuptiUs) : result.eventStats;
    result.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    return result;
}

} // namespace gpuf::gpu
