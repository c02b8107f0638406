// Sum with a grid-stride loop and warp-shuffle reductions: one barrier per block instead of eight.
#define THREADS 256

// All launches of a variant are timed together, so the accumulator is cleared by a first one-thread launch.
extern "C" __global__ void zero_output(float* out)
{
    out[0] = 0.0f;
}

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// Reduces one value per thread to one value per block; the result is valid in thread 0.
__device__ __forceinline__ float blockSum(float v)
{
    __shared__ float warpTotals[THREADS / 32];
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

extern "C" __global__ void reduce_warp_shuffle(const float* x, float* out, int n)
{
    float acc = 0.0f;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        acc += x[i];
    }
    acc = blockSum(acc);
    if (threadIdx.x == 0) {
        atomicAdd(out, acc);
    }
}
