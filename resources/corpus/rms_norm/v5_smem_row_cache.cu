// RMS norm, one block per row, with the row staged in dynamic shared memory (shared_bytes = cols*4) by the first
// pass, so the scaling pass reads shared memory instead of global memory.
#define THREADS 256

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

extern "C" __global__ void rmsnorm_smem_row(const float* x, const float* w, float* y, int rows, int cols, float eps)
{
    extern __shared__ float srow[];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float sq = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        float v = xr[c];
        srow[c] = v;
        sq += v * v;
    }
    // Each thread reads back only the elements it stored itself, so blockSum's barrier is all the ordering needed.
    float scale = 1.0f / sqrtf(blockSum(sq) / cols + eps);
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        yr[c] = srow[c] * scale * w[c];
    }
}
