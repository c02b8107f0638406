// Row softmax with one warp per row: reductions are pure register shuffles, no shared memory, no barriers.
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

extern "C" __global__ void softmax_warp_per_row(const float* x, float* y, int rows, int cols)
{
    int lane = threadIdx.x & 31;
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) {
        return; // the whole warp leaves together, so the shuffles below stay converged
    }
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;

    float m = NEG_BIG;
    for (int c = lane; c < cols; c += 32) {
        m = fmaxf(m, xr[c]);
    }
    m = warpMax(m);
    float sum = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        sum += expf(xr[c] - m);
    }
    float inv = 1.0f / warpSum(sum);
    for (int c = lane; c < cols; c += 32) {
        yr[c] = expf(xr[c] - m) * inv;
    }
}
