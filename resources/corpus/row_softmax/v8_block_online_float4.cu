// Row softmax, one block per row, online (max, sum) statistics over float4 loads: the row is read twice.
#define THREADS 256
#define WARPS (THREADS / 32)
#define NEG_BIG (-3.402823466e+38f)

// Merges the pair (m2, s2) into (m, s): both sums are rescaled to the larger maximum.
__device__ __forceinline__ void mergeOnline(float& m, float& s, float m2, float s2)
{
    float mNew = fmaxf(m, m2);
    s = s * expf(m - mNew) + s2 * expf(m2 - mNew);
    m = mNew;
}

// Adds four values at once: at most one rescale per vector instead of a branch per element.
__device__ __forceinline__ void addFour(float& m, float& s, float4 v)
{
    float vm = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    if (vm > m) {
        s *= expf(m - vm);
        m = vm;
    }
    s += (expf(v.x - m) + expf(v.y - m)) + (expf(v.z - m) + expf(v.w - m));
}

extern "C" __global__ void __launch_bounds__(THREADS) softmax_block_online_float4(const float* x, float* y, int rows,
                                                                                   int cols)
{
    __shared__ float wm[WARPS];
    __shared__ float ws[WARPS];
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    // Rows start on a 16-byte boundary only when cols is a multiple of 4; otherwise everything is scalar.
    int nvec = (cols & 3) == 0 ? cols >> 2 : 0;
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    float4* y4 = reinterpret_cast<float4*>(yr);

    float m = NEG_BIG, s = 0.0f;
    for (int i = tid; i < nvec; i += THREADS) {
        addFour(m, s, x4[i]);
    }
    for (int c = (nvec << 2) + tid; c < cols; c += THREADS) {
        float v = xr[c];
        if (v > m) {
            s *= expf(m - v);
            m = v;
        }
        s += expf(v - m);
    }
    for (int o = 16; o > 0; o >>= 1) {
        mergeOnline(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
    }
    if (lane == 0) {
        wm[warp] = m;
        ws[warp] = s;
    }
    __syncthreads();
    // Every warp merges the WARPS partial pairs itself (all 32 lanes end with the total), so no second barrier.
    m = lane < WARPS ? wm[lane] : NEG_BIG;
    s = lane < WARPS ? ws[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) {
        mergeOnline(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
    }
    float inv = 1.0f / s;

    for (int i = tid; i < nvec; i += THREADS) {
        float4 v = x4[i];
        v.x = expf(v.x - m) * inv;
        v.y = expf(v.y - m) * inv;
        v.z = expf(v.z - m) * inv;
        v.w = expf(v.w - m) * inv;
        y4[i] = v;
    }
    for (int c = (nvec << 2) + tid; c < cols; c += THREADS) {
        yr[c] = expf(xr[c] - m) * inv;
    }
}
