// Sum in two deterministic passes: per-block partials in a module-scope array, then one block adds them up.
#define THREADS 256
#define MAX_PARTIALS 1024

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

// Scratch that belongs to this module, so no extra buffer is needed; pass 2 reads only what pass 1 wrote.
__device__ float g_partials[MAX_PARTIALS];

extern "C" __global__ void reduce_pass1(const float* x, int n)
{
    const float4* x4 = reinterpret_cast<const float4*>(x);
    int nvec = n >> 2;
    int stride = gridDim.x * THREADS;
    int gid = blockIdx.x * THREADS + threadIdx.x;
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
        g_partials[blockIdx.x] = acc;
    }
}

// Launched with one block of THREADS threads; numPartials is pass 1's grid size (at most MAX_PARTIALS).
extern "C" __global__ void reduce_pass2(float* out, int numPartials)
{
    float acc = 0.0f;
    for (int i = threadIdx.x; i < numPartials; i += THREADS) {
        acc += g_partials[i];
    }
    acc = blockSum(acc);
    if (threadIdx.x == 0) {
        out[0] = acc;
    }
}
