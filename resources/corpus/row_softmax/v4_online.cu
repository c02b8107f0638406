// Row softmax, one warp per row, with the online normaliser: maximum and sum in one pass over the row.
#define NEG_BIG (-3.402823466e+38f)

// Merges two (max, sum-of-exp relative to max) pairs.
__device__ __forceinline__ void mergeOnline(float& m, float& s, float m2, float s2)
{
    float mNew = fmaxf(m, m2);
    s = s * expf(m - mNew) + s2 * expf(m2 - mNew);
    m = mNew;
}

extern "C" __global__ void softmax_online(const float* x, float* y, int rows, int cols)
{
    int lane = threadIdx.x & 31;
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) {
        return;
    }
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;

    float m = NEG_BIG, s = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        float v = xr[c];
        if (v > m) {
            s = s * expf(m - v) + 1.0f; // rescale the running sum to the new maximum
            m = v;
        } else {
            s += expf(v - m);
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        float s2 = __shfl_xor_sync(0xffffffffu, s, o);
        mergeOnline(m, s, m2, s2);
    }
    float inv = 1.0f / s;
    for (int c = lane; c < cols; c += 32) {
        yr[c] = expf(xr[c] - m) * inv;
    }
}
