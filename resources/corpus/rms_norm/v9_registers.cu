// RMS norm, one block per row, reading x from global memory exactly once: each thread keeps its up to 20 strided
// elements of the row in registers between the reduction and the scaling (rows up to 20*256 = 5120 wide; any
// columns past that are read a second time).
#define THREADS 256
#define PER_THREAD 20

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// Every thread gets the block total: shuffles inside each warp, one exchange of the 8 warp totals, and every warp
// finishes the sum itself. One barrier.
__device__ __forceinline__ float blockSum(float v)
{
    __shared__ float warpTotals[THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warpSum(v);
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    return warpSum(lane < THREADS / 32 ? warpTotals[lane] : 0.0f);
}

extern "C" __global__ void __launch_bounds__(THREADS) rmsnorm_registers(const float* x, const float* w, float* y,
                                                                         int rows, int cols, float eps)
{
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float v[PER_THREAD];
    float sq = 0.0f;
    // Fully unrolled with constant indices, so v stays in registers and all loads can be in flight together.
#pragma unroll
    for (int k = 0; k < PER_THREAD; ++k) {
        int c = threadIdx.x + k * THREADS;
        v[k] = c < cols ? xr[c] : 0.0f;
        sq += v[k] * v[k];
    }
    for (int c = threadIdx.x + PER_THREAD * THREADS; c < cols; c += THREADS) {
        float t = xr[c];
        sq += t * t;
    }
    float scale = 1.0f / sqrtf(blockSum(sq) / cols + eps);
#pragma unroll
    for (int k = 0; k < PER_THREAD; ++k) {
        int c = threadIdx.x + k * THREADS;
        if (c < cols) {
            yr[c] = v[k] * scale * w[c];
        }
    }
    for (int c = threadIdx.x + PER_THREAD * THREADS; c < cols; c += THREADS) {
        yr[c] = xr[c] * scale * w[c];
    }
}
