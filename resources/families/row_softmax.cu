// Row softmax family: y[r][c] = exp(x[r][c] - max_r) / sum_c exp(x[r][c] - max_r). A block holds RPB rows; each row
// is handled by a group of TPR threads that read VEC floats at a time. ONLINE 1 keeps a running (max, rescaled sum)
// pair per thread, so the row is read twice instead of three times; EXP_FAST 1 uses the __expf approximation.
// The tunables arrive as #defines above this text (gpuf-family/1).
#define NEG_BIG (-3.402823466e+38f)
#define FULL_MASK 0xffffffffu

#if EXP_FAST
#define EXPF(v) __expf(v)
#else
#define EXPF(v) expf(v)
#endif

#if TPR > 32
#define WPR (TPR / 32)
#endif

// Sum and max over the TPR threads of one row group; every thread of the group gets the result. Groups of at most
// a warp reduce with shuffles alone (xor offsets below TPR stay inside the group); wider groups add a pass through
// shared memory. Every thread of the block calls these, so their barriers are reached by all.
__device__ __forceinline__ float groupSum(float v)
{
#pragma unroll
    for (int o = (TPR < 32 ? TPR : 32) / 2; o > 0; o >>= 1) {
        v += __shfl_xor_sync(FULL_MASK, v, o);
    }
#if TPR > 32
    __shared__ float part[RPB][WPR];
    const int g = threadIdx.x / TPR;
    const int w = (threadIdx.x % TPR) / 32;
    if ((threadIdx.x & 31) == 0) {
        part[g][w] = v;
    }
    __syncthreads();
    v = 0.0f;
#pragma unroll
    for (int i = 0; i < WPR; ++i) {
        v += part[g][i];
    }
    __syncthreads(); // all have read part[] before a later call overwrites it
#endif
    return v;
}

__device__ __forceinline__ float groupMax(float v)
{
#pragma unroll
    for (int o = (TPR < 32 ? TPR : 32) / 2; o > 0; o >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, o));
    }
#if TPR > 32
    __shared__ float part[RPB][WPR];
    const int g = threadIdx.x / TPR;
    const int w = (threadIdx.x % TPR) / 32;
    if ((threadIdx.x & 31) == 0) {
        part[g][w] = v;
    }
    __syncthreads();
    v = NEG_BIG;
#pragma unroll
    for (int i = 0; i < WPR; ++i) {
        v = fmaxf(v, part[g][i]);
    }
    __syncthreads();
#endif
    return v;
}

// Reads up to VEC elements of a row starting at column c into v; returns how many exist. The wide load only when the
// row is VEC-aligned (cols a multiple of VEC), in which case all VEC exist.
__device__ __forceinline__ int loadRow(const float* xr, int c, int cols, bool aligned, float* v)
{
#if VEC == 4
    if (aligned) {
        float4 q = *reinterpret_cast<const float4*>(xr + c);
        v[0] = q.x;
        v[1] = q.y;
        v[2] = q.z;
        v[3] = q.w;
        return 4;
    }
#elif VEC == 2
    if (aligned) {
        float2 q = *reinterpret_cast<const float2*>(xr + c);
        v[0] = q.x;
        v[1] = q.y;
        return 2;
    }
#endif
    const int cnt = cols - c < VEC ? cols - c : VEC;
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
        v[i] = i < cnt ? xr[c + i] : NEG_BIG;
    }
    return cnt;
}

__device__ __forceinline__ void storeRow(float* yr, int c, int cnt, bool aligned, const float* v)
{
#if VEC == 4
    if (aligned) {
        *reinterpret_cast<float4*>(yr + c) = make_float4(v[0], v[1], v[2], v[3]);
        return;
    }
#elif VEC == 2
    if (aligned) {
        *reinterpret_cast<float2*>(yr + c) = make_float2(v[0], v[1]);
        return;
    }
#endif
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
        if (i < cnt) {
            yr[c + i] = v[i];
        }
    }
}

extern "C" __global__ void __launch_bounds__(THREADS) softmax_family(const float* x, float* y, int rows, int cols)
{
    const int group = threadIdx.x / TPR;
    const int lane = threadIdx.x % TPR;
    const int row = blockIdx.x * RPB + group;
    // A group past the last row still takes part in the barriers, over an empty row.
    const int n = row < rows ? cols : 0;
    const size_t offset = row < rows ? (size_t)row * cols : 0;
    const float* xr = x + offset;
    float* yr = y + offset;
    const bool aligned = (cols % VEC) == 0;
    float v[VEC];

#if ONLINE
    // Running maximum m and sum s of exp(x - m): a larger element rescales the sum instead of needing a first pass.
    float m = NEG_BIG;
    float s = 0.0f;
    for (int c = lane * VEC; c < n; c += TPR * VEC) {
        const int cnt = loadRow(xr, c, n, aligned, v);
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
            if (i < cnt) {
                if (v[i] > m) {
                    s = s * EXPF(m - v[i]) + 1.0f;
                    m = v[i];
                } else {
                    s += EXPF(v[i] - m);
                }
            }
        }
    }
    const float rowMax = groupMax(m);
    // Each thread's sum was taken against its own maximum: bring it to the row's before adding.
    const float rowSum = groupSum(s * EXPF(m - rowMax));
#else
    float m = NEG_BIG;
    for (int c = lane * VEC; c < n; c += TPR * VEC) {
        loadRow(xr, c, n, aligned, v);
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
            m = fmaxf(m, v[i]); // missing elements read as NEG_BIG
        }
    }
    const float rowMax = groupMax(m);
    float s = 0.0f;
    for (int c = lane * VEC; c < n; c += TPR * VEC) {
        const int cnt = loadRow(xr, c, n, aligned, v);
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
            if (i < cnt) {
                s += EXPF(v[i] - rowMax);
            }
        }
    }
    const float rowSum = groupSum(s);
#endif
    const float inv = 1.0f / rowSum;
    for (int c = lane * VEC; c < n; c += TPR * VEC) {
        const int cnt = loadRow(xr, c, n, aligned, v);
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
            v[i] = EXPF(v[i] - rowMax) * inv;
        }
        storeRow(yr, c, cnt, aligned, v);
    }
}
