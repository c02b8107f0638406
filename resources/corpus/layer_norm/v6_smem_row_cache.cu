// Layer norm, one block per row, with the row staged in dynamic shared memory: x is read from DRAM once.
#define THREADS 256
#define WARPS (THREADS / 32)

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

extern "C" __global__ void layernorm_smem_row(const float* x, const float* gamma, const float* beta, float* y,
                                              int rows, int cols, float eps)
{
    extern __shared__ float rowBuf[]; // cols floats
    __shared__ float totalsMean[WARPS];
    __shared__ float totalsVar[WARPS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        float v = xr[c];
        rowBuf[c] = v; // each thread rereads only the elements it wrote, so no barrier is needed for rowBuf
        s += v;
    }
    float mean = blockSum(s, totalsMean) / cols;

    float sq = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        float d = rowBuf[c] - mean;
        sq += d * d;
    }
    float rstd = rsqrtf(blockSum(sq, totalsVar) / cols + eps);

    for (int c = threadIdx.x; c < cols; c += THREADS) {
        yr[c] = (rowBuf[c] - mean) * rstd * gamma[c] + beta[c];
    }
}
