// Row softmax, one block per row, warp-shuffle reductions, with the __expf hardware approximation.
#define THREADS 256
#define WARPS (THREADS / 32)
#define NEG_BIG (-3.402823466e+38f)

__device__ __forceinline__ float warpMax(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

extern "C" __global__ void softmax_fast_exp(const float* x, float* y, int rows, int cols)
{
    __shared__ float wmax[WARPS];
    __shared__ float wsum[WARPS];
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float m = NEG_BIG;
    for (int c = tid; c < cols; c += THREADS) {
        m = fmaxf(m, xr[c]);
    }
    m = warpMax(m);
    if (lane == 0) {
        wmax[warp] = m;
    }
    __syncthreads();
    m = lane < WARPS ? wmax[lane] : NEG_BIG;
    float rowMax = warpMax(m);

    // __expf is one multiply and one MUFU.EX2 instead of expf's range reduction: a few ulp, fine for x <= 0.
    float sum = 0.0f;
    for (int c = tid; c < cols; c += THREADS) {
        sum += __expf(xr[c] - rowMax);
    }
    sum = warpSum(sum);
    if (lane == 0) {
        wsum[warp] = sum;
    }
    __syncthreads();
    sum = lane < WARPS ? wsum[lane] : 0.0f;
    float inv = 1.0f / warpSum(sum);

    for (int c = tid; c < cols; c += THREADS) {
        yr[c] = __expf(xr[c] - rowMax) * inv;
    }
}
