// Row softmax, one warp per row, online normaliser with 16-byte loads and stores when rows are 16-byte aligned.
#define NEG_BIG (-3.402823466e+38f)

__device__ __forceinline__ void addOnline(float& m, float& s, float v)
{
    if (v > m) {
        s = s * expf(m - v) + 1.0f;
        m = v;
    } else {
        s += expf(v - m);
    }
}

extern "C" __global__ void softmax_online_float4(const float* x, float* y, int rows, int cols)
{
    int lane = threadIdx.x & 31;
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) {
        return;
    }
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    // Rows start on a 16-byte boundary only when cols is a multiple of 4; otherwise use the scalar path.
    bool vec = (cols & 3) == 0;
    int nvec = vec ? cols >> 2 : 0;
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    float4* y4 = reinterpret_cast<float4*>(yr);

    float m = NEG_BIG, s = 0.0f;
    for (int i = lane; i < nvec; i += 32) {
        float4 v = x4[i];
        addOnline(m, s, v.x);
        addOnline(m, s, v.y);
        addOnline(m, s, v.z);
        addOnline(m, s, v.w);
    }
    for (int c = (nvec << 2) + lane; c < cols; c += 32) {
        addOnline(m, s, xr[c]);
    }
    for (int o = 16; o > 0; o >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        float s2 = __shfl_xor_sync(0xffffffffu, s, o);
        float mNew = fmaxf(m, m2);
        s = s * expf(m - mNew) + s2 * expf(m2 - mNew);
        m = mNew;
    }
    float inv = 1.0f / s;
    for (int i = lane; i < nvec; i += 32) {
        float4 v = x4[i];
        v.x = expf(v.x - m) * inv;
        v.y = expf(v.y - m) * inv;
        v.z = expf(v.z - m) * inv;
        v.w = expf(v.w - m) * inv;
        y4[i] = v;
    }
    for (int c = (nvec << 2) + lane; c < cols; c += 32) {
        yr[c] = expf(xr[c] - m) * inv;
    }
}
