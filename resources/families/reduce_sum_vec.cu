// Vectorised sum reduction family: out[0] = sum of x[0..n). The vector is cut into tiles of BLOCK * ITEMS * VEC
// elements; each thread of a block issues ITEMS independent VEC-wide loads per tile (all of them before the first add)
// and keeps ITEMS partial sums. A grid capped at GRID_CAP blocks loops over further tiles, either interleaved
// (ORDER 0: block b takes tiles b, b + grid, b + 2 grid, ...) or in one contiguous run per block (ORDER 1). The block
// then combines its threads' sums (COMBINE: shared-memory tree, warp shuffles, or one atomic per warp) and adds into
// out[0] atomically. The tunables and derived values arrive as #defines above this text (gpuf-family/1).

// All launches are timed together and out[] starts poisoned, so a first one-thread launch clears the accumulator.
extern "C" __global__ void zero_output(float* out)
{
    out[0] = 0.0f;
}

// The sum of the VEC elements at x[i] (i is a multiple of VEC, so the address is VEC * 4-byte aligned: cuMemAlloc
// aligns the base). VEC 8 is two 16-byte loads from one 32-byte piece.
__device__ __forceinline__ float loadSumFull(const float* x, long long i)
{
#if VEC == 8
    const float4 p = *reinterpret_cast<const float4*>(x + i);
    const float4 q = *reinterpret_cast<const float4*>(x + i + 4);
    return ((p.x + p.y) + (p.z + p.w)) + ((q.x + q.y) + (q.z + q.w));
#elif VEC == 4
    const float4 q = *reinterpret_cast<const float4*>(x + i);
    return (q.x + q.y) + (q.z + q.w);
#elif VEC == 2
    const float2 q = *reinterpret_cast<const float2*>(x + i);
    return q.x + q.y;
#else
    return x[i];
#endif
}

// The same near the end of the vector: only the elements below n, one by one.
__device__ __forceinline__ float loadSumTail(const float* x, long long i, long long n)
{
    float s = 0.0f;
#pragma unroll
    for (int q = 0; q < VEC; ++q) {
        if (i + q < n) {
            s += x[i + q];
        }
    }
    return s;
}

__device__ __forceinline__ float warpSum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// Adds the block's per-thread sums into out[0].
__device__ __forceinline__ void combine(float v, float* out)
{
#if COMBINE == 0
    // Shared-memory tree: log2(BLOCK) levels with a barrier each; thread 0 adds the total.
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
    if (tid == 0) {
        atomicAdd(out, partial[0]);
    }
#elif COMBINE == 1
    // Warp shuffles, then one shared-memory round between the block's warps; thread 0 adds the total.
    __shared__ float warpTotals[BLOCK / 32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warpSum(v);
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        v = warpSum(lane < BLOCK / 32 ? warpTotals[lane] : 0.0f);
        if (lane == 0) {
            atomicAdd(out, v);
        }
    }
#else
    // Warp shuffles only: every warp's lane 0 adds its warp's total (BLOCK / 32 atomics per block, no barrier).
    v = warpSum(v);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(out, v);
    }
#endif
}

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_vec(const float* x, float* out, int n)
{
    const long long count = n;
    const long long tiles = (count + TILE - 1) / TILE;
#if ORDER == 0
    // Interleaved: at any moment the whole grid reads one region of the vector, tile after tile.
    const long long first = blockIdx.x;
    const long long step = gridDim.x;
    const long long last = tiles;
#else
    // Contiguous: block b owns tiles [b * per, (b + 1) * per) and walks them in order.
    const long long per = (tiles + gridDim.x - 1) / gridDim.x;
    const long long first = (long long)blockIdx.x * per;
    const long long step = 1;
    const long long last = min(tiles, first + per);
#endif
    float acc[ITEMS];
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        acc[it] = 0.0f;
    }
    for (long long tile = first; tile < last; tile += step) {
        const long long base = tile * TILE;
        if (base + TILE <= count) {
            // A whole tile: ITEMS unguarded loads, all issued before any of them is added (loads in flight).
            float v[ITEMS];
#pragma unroll
            for (int it = 0; it < ITEMS; ++it) {
                // Neighbouring threads read neighbouring VEC-element groups: every load instruction is coalesced.
                v[it] = loadSumFull(x, base + ((long long)it * BLOCK + threadIdx.x) * VEC);
            }
#pragma unroll
            for (int it = 0; it < ITEMS; ++it) {
                acc[it] += v[it];
            }
        } else {
#pragma unroll
            for (int it = 0; it < ITEMS; ++it) {
                acc[it] += loadSumTail(x, base + ((long long)it * BLOCK + threadIdx.x) * VEC, count);
            }
        }
    }
    float v = 0.0f;
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        v += acc[it];
    }
    combine(v, out);
}
