// RMS norm, one 256-thread block per row, with warp-shuffle reduction and 16-byte float4 accesses to x, w and y
// when rows are 16-byte aligned (cols % 4 == 0); other widths use the scalar loops.
#define THREADS 256

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// Every thread gets the block total: shuffles inside each warp, one exchange of the 8 warp totals, and every warp
// finishes the sum itself. One barrier.
__device__ __forceinline__ float blockSum(float v)
{
    __shared__ float warpTotals[THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warpSum(v);
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    return warpSum(lane < THREADS / 32 ? warpTotals[lane] : 0.0f);
}

extern "C" __global__ void rmsnorm_block_float4(const float* x, const float* w, float* y, int rows, int cols,
                                                float eps)
{
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    int nvec = (cols & 3) == 0 ? cols >> 2 : 0;
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    float sq = 0.0f;
    for (int i = threadIdx.x; i < nvec; i += THREADS) {
        float4 v = x4[i];
        sq += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
    }
    for (int c = (nvec << 2) + threadIdx.x; c < cols; c += THREADS) {
        float v = xr[c];
        sq += v * v;
    }
    float scale = 1.0f / sqrtf(blockSum(sq) / cols + eps);
    const float4* w4 = reinterpret_cast<const float4*>(w);
    float4* y4 = reinterpret_cast<float4*>(yr);
    for (int i = threadIdx.x; i < nvec; i += THREADS) {
        float4 v = x4[i], g = w4[i], r;
        r.x = v.x * scale * g.x;
        r.y = v.y * scale * g.y;
        r.z = v.z * scale * g.z;
        r.w = v.w * scale * g.w;
        y4[i] = r;
    }
    for (int c = (nvec << 2) + threadIdx.x; c < cols; c += THREADS) {
        yr[c] = xr[c] * scale * w[c];
    }
}
