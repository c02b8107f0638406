// Sum with float4 loads, four independent accumulators, warp shuffles and one atomic per block.
#define THREADS 256

// All launches of a variant are timed together, so the accumulator is cleared by a first one-thread launch.
extern "C" __global__ void zero_output(float* out)
{
    out[0] = 0.0f;
}

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// Reduces one value per thread to one value per block; the result is valid in thread 0.
__device__ __forceinline__ float blockSum(float v)
{
    __shared__ float warpTotals[THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warpSum(v);
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    v = 0.0f;
    if (warp == 0) {
        v = warpSum(lane < THREADS / 32 ? warpTotals[lane] : 0.0f);
    }
    return v;
}

extern "C" __global__ void reduce_float4(const float* x, float* out, int n)
{
    const float4* x4 = reinterpret_cast<const float4*>(x);
    int nvec = n >> 2;
    int stride = gridDim.x * THREADS;
    int gid = blockIdx.x * THREADS + threadIdx.x;
    // Four accumulators break the single dependent chain of adds, so several loads can be outstanding.
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (int i = gid; i < nvec; i += stride) {
        float4 v = x4[i];
        a0 += v.x;
        a1 += v.y;
        a2 += v.z;
        a3 += v.w;
    }
    if (gid < (n & 3)) {
        a0 += x[(nvec << 2) + gid];
    }
    float acc = blockSum((a0 + a1) + (a2 + a3));
    if (threadIdx.x == 0) {
        atomicAdd(out, acc);
    }
}
