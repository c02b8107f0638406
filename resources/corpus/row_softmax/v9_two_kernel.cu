// Row softmax in two launches: per-row (max, 1/sum) into a module-scope array, then an element-wise normalise.
#define THREADS 256
#define WARPS (THREADS / 32)
#define NEG_BIG (-3.402823466e+38f)
// The apply launch puts rows on gridDim.y, whose limit is 65535, so no case can have more rows than this.
#define MAX_ROWS 65535

// Scratch that belongs to this module: written by softmax_row_stats, read by softmax_apply.
__device__ float2 g_stats[MAX_ROWS];

__device__ __forceinline__ void mergeOnline(float& m, float& s, float m2, float s2)
{
    float mNew = fmaxf(m, m2);
    s = s * expf(m - mNew) + s2 * expf(m2 - mNew);
    m = mNew;
}

__device__ __forceinline__ void addFour(float& m, float& s, float4 v)
{
    float vm = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    if (vm > m) {
        s *= expf(m - vm);
        m = vm;
    }
    s += (expf(v.x - m) + expf(v.y - m)) + (expf(v.z - m) + expf(v.w - m));
}

extern "C" __global__ void __launch_bounds__(THREADS) softmax_row_stats(const float* x, int rows, int cols)
{
    __shared__ float wm[WARPS];
    __shared__ float ws[WARPS];
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const float* xr = x + (size_t)blockIdx.x * cols;
    int nvec = (cols & 3) == 0 ? cols >> 2 : 0;
    const float4* x4 = reinterpret_cast<const float4*>(xr);

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
    if (warp == 0) {
        m = lane < WARPS ? wm[lane] : NEG_BIG;
        s = lane < WARPS ? ws[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1) {
            mergeOnline(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
        }
        if (lane == 0) {
            g_stats[blockIdx.x] = make_float2(m, 1.0f / s);
        }
    }
}

// One thread per 4 consecutive columns of one row (blockIdx.y); the row's statistics come from g_stats.
extern "C" __global__ void __launch_bounds__(THREADS) softmax_apply(const float* x, float* y, int rows, int cols)
{
    int row = blockIdx.y;
    int c = (blockIdx.x * THREADS + threadIdx.x) * 4;
    if (c >= cols) {
        return;
    }
    float2 st = g_stats[row];
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    if ((cols & 3) == 0) { // c is a multiple of 4 and so is cols: all four columns exist and are 16-byte aligned
        float4 v = *reinterpret_cast<const float4*>(xr + c);
        v.x = expf(v.x - st.x) * st.y;
        v.y = expf(v.y - st.x) * st.y;
        v.z = expf(v.z - st.x) * st.y;
        v.w = expf(v.w - st.x) * st.y;
        *reinterpret_cast<float4*>(yr + c) = v;
    } else {
        for (int k = c; k < c + 4 && k < cols; ++k) {
            yr[k] = expf(xr[k] - st.x) * st.y;
        }
    }
}
