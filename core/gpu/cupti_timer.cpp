// CUPTI binding: only the activity API entry points for concurrent-kernel records, resolved with dlsym.
#include "core/gpu/cupti_timer.h"

#include <cupti_activity.h>

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace gpuf::gpu {

namespace {

struct CuptiApi
{
    CUptiResult (*activityEnable)(CUpti_ActivityKind) = nullptr;
    CUptiResult (*activityDisable)(CUpti_ActivityKind) = nullptr;
    CUptiResult (*registerCallbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc) = nullptr;
    CUptiResult (*flushAll)(uint32_t) = nullptr;
    CUptiResult (*nextRecord)(uint8_t *, size_t, CUpti_Activity **) = nullptr;
    CUptiResult (*resultString)(CUptiResult, const char **) = nullptr;

    std::string describe(CUptiResult r) const
    {
        const char *s = nullptr;
        if (resultString)
            resultString(r, &s);
        return s ? s : "CUPTI error " + std::to_string(static_cast<int>(r));
    }
};

CuptiApi g_api;
std::mutex g_mutex;
std::vector<KernelSpan> g_spans;
constexpr size_t kBufferBytes = size_t {8} * 1024 * 1024;

void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxNumRecords)
{
    *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t validSize)
{
    CUpti_Activity *record = nullptr;
    std::lock_guard lock(g_mutex);
    while (g_api.nextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(record);
            g_spans.push_back({k->start, k->end});
        }
    }
    std::free(buffer);
}

void *openCupti(std::string &why)
{
    // The toolkit's copy first (same version as the headers), then the loader's search path.
    const std::string candidates[] = {std::string(GPUF_CUDA_LIBRARY_DIR) + "/libcupti.so.13",
        "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", "libcupti.so.13", "libcupti.so"};
    for (const auto &c : candidates) {
        if (void *h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))
            return h;
        const char *e = dlerror();
        why = e ? e : c;
    }
    return nullptr;
}

} // namespace

Expected<CuptiKernelTimer *> CuptiKernelTimer::instance()
{
    static const Expected<CuptiKernelTimer *> timer = []() -> Expected<CuptiKernelTimer *> {
        if (const char *off = std::getenv("GPUF_NO_CUPTI"); off && *off)
            return Failure {"CUPTI disabled by GPUF_NO_CUPTI"};
        std::string why;
        void *h = openCupti(why);
        if (!h)
            return Failure {"CUPTI not available (" + why + ")"};
        g_api.activityEnable = reinterpret_cast<decltype(g_api.activityEnable)>(dlsym(h, "cuptiActivityEnable"));
        g_api.activityDisable = reinterpret_cast<decltype(g_api.activityDisable)>(dlsym(h, "cuptiActivityDisable"));
        g_api.registerCallbacks
            = reinterpret_cast<decltype(g_api.registerCallbacks)>(dlsym(h, "cuptiActivityRegisterCallbacks"));
        g_api.flushAll = reinterpret_cast<decltype(g_api.flushAll)>(dlsym(h, "cuptiActivityFlushAll"));
        g_api.nextRecord = reinterpret_cast<decltype(g_api.nextRecord)>(dlsym(h, "cuptiActivityGetNextRecord"));
        g_api.resultString = reinterpret_cast<decltype(g_api.resultString)>(dlsym(h, "cuptiGetResultString"));
        if (!g_api.activityEnable || !g_api.activityDisable || !g_api.registerCallbacks || !g_api.flushAll
            || !g_api.nextRecord)
            return Failure {"CUPTI library lacks the activity API"};
        if (CUptiResult r = g_api.registerCallbacks(bufferRequested, bufferCompleted); r != CUPTI_SUCCESS)
            return Failure {"cuptiActivityRegisterCallbacks: " + g_api.describe(r)};
        static CuptiKernelTimer instance;
        return &instance;
    }();
    return timer;
}

Done CuptiKernelTimer::start()
{
    {
        std::lock_guard lock(g_mutex);
        g_spans.clear();
    }
    if (CUptiResult r = g_api.activityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); r != CUPTI_SUCCESS)
        return Failure {"cuptiActivityEnable: " + g_api.describe(r)};
    m_running = true;
    return {};
}

Expected<std::vector<KernelSpan>> CuptiKernelTimer::collect()
{
    if (CUptiResult r = g_api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); r != CUPTI_SUCCESS)
        return Failure {"cuptiActivityFlushAll: " + g_api.describe(r)};
    std::vector<KernelSpan> out;
    {
        std::lock_guard lock(g_mutex);
        out.swap(g_spans);
    }
    std::sort(out.begin(), out.end(), [](const KernelSpan &a, const KernelSpan &b) { return a.startNs < b.startNs; });
    return out;
}

void CuptiKernelTimer::stop()
{
    if (!m_running)
        return;
    g_api.activityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    g_api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::lock_guard lock(g_mutex);
    g_spans.clear();
    m_running = false;
}

} // namespace gpuf::gpu
