// Sum in one launch: per-block partials, and the last block to finish (found with an atomic ticket) adds them up.
#define THREADS 256
#define MAX_PARTIALS 1024

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// Reduces one value per thread to one value per block; the result is valid in thread 0.
__device__ __forceinline__ float blockSum(float v, float* warpTotals)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warpSum(v);
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    v = 0.0f;
    if (warp == 0) {
        v = warpSum(lane < THREADS / 32 ? warpTotals[lane] : 0.0f);
    }
    return v;
}

// Module-scope scratch. g_done counts finished blocks; the last block resets it, so every launch starts at 0.
__device__ float g_partials[MAX_PARTIALS];
__device__ unsigned int g_done = 0;

// Launched with at most MAX_PARTIALS blocks of THREADS threads.
extern "C" __global__ void __launch_bounds__(THREADS) reduce_last_block(const float* x, float* out, int n)
{
    __shared__ float warpTotals[THREADS / 32];
    __shared__ float warpTotals2[THREADS / 32];
    __shared__ bool isLast;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    int nvec = n >> 2;
    int stride = gridDim.x * THREADS;
    int gid = blockIdx.x * THREADS + threadIdx.x;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (int i = gid; i < nvec; i += stride) {
        float4 v = x4[i];
        a0 += v.x;
        a1 += v.y;
        a2 += v.z;
        a3 += v.w;
    }
    if (gid < (n & 3)) {
        a0 += x[(nvec << 2) + gid];
    }
    float acc = blockSum((a0 + a1) + (a2 + a3), warpTotals);
    if (threadIdx.x == 0) {
        g_partials[blockIdx.x] = acc;
        __threadfence(); // the partial must be visible device-wide before the ticket says this block is done
        unsigned int ticket = atomicAdd(&g_done, 1u);
        isLast = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (!isLast) {
        return;
    }
    // Only the last block gets here; volatile loads bypass L1, which is not coherent with other SMs' stores.
    const volatile float* partials = g_partials;
    float total = 0.0f;
    for (int i = threadIdx.x; i < gridDim.x; i += THREADS) {
        total += partials[i];
    }
    total = blockSum(total, warpTotals2);
    if (threadIdx.x == 0) {
        out[0] = total;
        g_done = 0;
    }
}
