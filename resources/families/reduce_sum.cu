// Sum reduction family: out[0] = sum of x[0..n). Each block walks tiles of BLOCK * ITEMS * VEC elements (grid-stride
// once the grid is capped at GRID_CAP blocks), each thread keeping ITEMS independent partial sums; the block then
// combines its threads' sums with warp shuffles (SHUFFLE 1) or a shared-memory tree (SHUFFLE 0) and adds the result
// to out[0] with one atomic. The tunables arrive as #defines above this text (gpuf-family/1).

// All launches are timed together and out[] starts poisoned, so a first one-thread launch clears the accumulator.
extern "C" __global__ void zero_output(float* out)
{
    out[0] = 0.0f;
}

// The sum of VEC elements starting at x[i]; the wide load only when all VEC exist (i is a multiple of VEC, so the
// address is aligned: cuMemAlloc aligns the base).
__device__ __forceinline__ float loadSum(const float* x, long long i, long long n)
{
#if VEC == 4
    if (i + 4 <= n) {
        float4 q = *reinterpret_cast<const float4*>(x + i);
        return (q.x + q.y) + (q.z + q.w);
    }
#elif VEC == 2
    if (i + 2 <= n) {
        float2 q = *reinterpret_cast<const float2*>(x + i);
        return q.x + q.y;
    }
#endif
    float s = 0.0f;
#pragma unroll
    for (int q = 0; q < VEC; ++q) {
        if (i + q < n) {
            s += x[i + q];
        }
    }
    return s;
}

#if SHUFFLE
__device__ __forceinline__ float warpSum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// The block's total, valid in thread 0.
__device__ __forceinline__ float blockSum(float v)
{
    __shared__ float warpTotals[BLOCK / 32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warpSum(v);
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    v = 0.0f;
    if (warp == 0) {
        v = warpSum(lane < BLOCK / 32 ? warpTotals[lane] : 0.0f);
    }
    return v;
}
#else
// The block's total, valid in thread 0: a shared-memory tree with a barrier per level.
__device__ __forceinline__ float blockSum(float v)
{
    __shared__ float partial[BLOCK];
    const int tid = threadIdx.x;
    partial[tid] = v;
    __syncthreads();
#pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) {
            partial[tid] += partial[tid + s];
        }
        __syncthreads();
    }
    return partial[0];
}
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_family(const float* x, float* out, int n)
{
    float acc[ITEMS];
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        acc[it] = 0.0f;
    }
    const long long count = n;
    for (long long base = (long long)blockIdx.x * TILE; base < count; base += (long long)gridDim.x * TILE) {
#pragma unroll
        for (int it = 0; it < ITEMS; ++it) {
            // Neighbouring threads read neighbouring VEC-element groups: every load instruction is coalesced.
            const long long i = base + ((long long)it * BLOCK + threadIdx.x) * VEC;
            acc[it] += loadSum(x, i, count);
        }
    }
    float v = 0.0f;
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        v += acc[it];
    }
    v = blockSum(v);
    if (threadIdx.x == 0) {
        atomicAdd(out, v);
    }
}
