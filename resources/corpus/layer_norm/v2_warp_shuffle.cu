// Layer norm, one block per row, two-pass statistics with warp-shuffle reductions and one barrier each.
#define THREADS 256
#define WARPS (THREADS / 32)

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// Every warp finishes the reduction from the per-warp totals, so all threads get the block total.
__device__ __forceinline__ float blockSum(float v, float* warpTotals)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warpSum(v);
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    return warpSum(lane < WARPS ? warpTotals[lane] : 0.0f);
}

extern "C" __global__ void layernorm_warp_shuffle(const float* x, const float* gamma, const float* beta, float* y,
                                                  int rows, int cols, float eps)
{
    __shared__ float totalsMean[WARPS];
    __shared__ float totalsVar[WARPS]; // a second array, so no barrier is needed before reusing it
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        s += xr[c];
    }
    float mean = blockSum(s, totalsMean) / cols;

    float sq = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        float d = xr[c] - mean;
        sq += d * d;
    }
    float rstd = rsqrtf(blockSum(sq, totalsVar) / cols + eps);

    for (int c = threadIdx.x; c < cols; c += THREADS) {
        yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
    }
}
