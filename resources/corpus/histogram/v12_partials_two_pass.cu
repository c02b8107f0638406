// Per-warp sub-histograms fed by 16-byte loads; block histograms go to a scratch array, merged by a second launch.
#define BINS 256
#define WARPS 8
#define MAX_BLOCKS 1056
#define MERGE_BLOCKS 16

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

// Module-scope scratch: row b holds block b's histogram. Plain stores, no atomics, no contention.
__device__ int g_partials[MAX_BLOCKS * BINS];

__device__ __forceinline__ void addWord(int* h, unsigned int w)
{
    atomicAdd(&h[w & 0xFFu], 1);
    atomicAdd(&h[(w >> 8) & 0xFFu], 1);
    atomicAdd(&h[(w >> 16) & 0xFFu], 1);
    atomicAdd(&h[w >> 24], 1);
}

// Launched with at most MAX_BLOCKS blocks of BINS = 32 * WARPS threads.
extern "C" __global__ void __launch_bounds__(BINS) hist_partials(const unsigned char* x, int n)
{
    __shared__ int local[WARPS * BINS];
    int t = threadIdx.x;
    for (int k = t; k < WARPS * BINS; k += BINS) {
        local[k] = 0;
    }
    __syncthreads();
    int* mine = local + (t >> 5) * BINS;
    const uint4* x16 = reinterpret_cast<const uint4*>(x);
    int nvec = n >> 4;
    int stride = gridDim.x * BINS;
    int gid = blockIdx.x * BINS + t;
    for (int i = gid; i < nvec; i += stride) {
        uint4 v = x16[i];
        addWord(mine, v.x);
        addWord(mine, v.y);
        addWord(mine, v.z);
        addWord(mine, v.w);
    }
    if (gid < (n & 15)) {
        atomicAdd(&mine[x[(nvec << 4) + gid]], 1);
    }
    __syncthreads();
    int c = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
        c += local[w * BINS + t];
    }
    g_partials[blockIdx.x * BINS + t] = c;
}

// MERGE_BLOCKS blocks of BINS threads: block j adds rows j, j + MERGE_BLOCKS, ... (coalesced 1 KB rows), so
// each bin receives MERGE_BLOCKS global atomics instead of one per block of the first launch.
extern "C" __global__ void __launch_bounds__(BINS) hist_merge_partials(int* hist, int numPartials)
{
    int t = threadIdx.x;
    int c0 = 0, c1 = 0;
    int b = blockIdx.x;
    for (; b + MERGE_BLOCKS < numPartials; b += 2 * MERGE_BLOCKS) {
        c0 += g_partials[b * BINS + t];
        c1 += g_partials[(b + MERGE_BLOCKS) * BINS + t];
    }
    if (b < numPartials) {
        c0 += g_partials[b * BINS + t];
    }
    atomicAdd(&hist[t], c0 + c1);
}
