// Layer norm in two launches: per-row (mean, rstd) into a module-scope array, then an element-wise normalise.
#define THREADS 256
#define WARPS (THREADS / 32)
// The apply launch puts rows on gridDim.y, whose limit is 65535, so no case can have more rows than this.
#define MAX_ROWS 65535

// Scratch that belongs to this module: written by layernorm_row_stats, read by layernorm_apply.
__device__ float2 g_stats[MAX_ROWS];

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

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

// One block per row, the same two-pass statistics as the block-per-row kernels; no output row is written.
extern "C" __global__ void __launch_bounds__(THREADS) layernorm_row_stats(const float* x, int rows, int cols,
                                                                           float eps)
{
    __shared__ float totalsMean[WARPS];
    __shared__ float totalsVar[WARPS];
    const float* xr = x + (size_t)blockIdx.x * cols;
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
    if (threadIdx.x == 0) {
        g_stats[blockIdx.x] = make_float2(mean, rstd);
    }
}

// One thread per 4 consecutive columns of one row (blockIdx.y).
extern "C" __global__ void __launch_bounds__(THREADS) layernorm_apply(const float* x, const float* gamma,
                                                                       const float* beta, float* y, int rows, int cols)
{
    int row = blockIdx.y;
    int c = (blockIdx.x * THREADS + threadIdx.x) * 4;
    if (c >= cols) {
        return;
    }
    float2 st = g_stats[row];
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    if ((cols & 3) == 0) { // c and cols are multiples of 4: all four columns exist and are 16-byte aligned
        float4 v = *reinterpret_cast<const float4*>(xr + c);
        float4 g = *reinterpret_cast<const float4*>(gamma + c);
        float4 b = *reinterpret_cast<const float4*>(beta + c);
        v.x = (v.x - st.x) * st.y * g.x + b.x;
        v.y = (v.y - st.x) * st.y * g.y + b.y;
        v.z = (v.z - st.x) * st.y * g.z + b.z;
        v.w = (v.w - st.x) * st.y * g.w + b.w;
        *reinterpret_cast<float4*>(yr + c) = v;
    } else {
        for (int k = c; k < c + 4 && k < cols; ++k) {
            yr[k] = (xr[k] - st.x) * st.y * gamma[k] + beta[k];
        }
    }
}
