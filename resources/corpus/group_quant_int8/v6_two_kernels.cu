// Per-group int8 quantisation in two launches: one computes every group's scale, the next re-reads x to quantise.
#define GROUP 128

extern "C" __global__ void gq_scales(const float* x, float* s, int G)
{
    int g = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (g >= G) {
        return;
    }
    float4 v = reinterpret_cast<const float4*>(x + (size_t)g * GROUP)[lane];
    float amax = fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w)));
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, off));
    }
    if (lane == 0) {
        s[g] = amax / 127.0f;
    }
}

__device__ __forceinline__ signed char quant(float x, float inv)
{
    int r = __float2int_rn(x * inv);
    return (signed char)min(max(r, -127), 127);
}

extern "C" __global__ void gq_apply(const float* x, const float* s, unsigned char* q, int G)
{
    int g = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (g >= G) {
        return;
    }
    float scale = s[g]; // one broadcast load per warp
    // 1/scale is not bit-identical to 127/absmax: a product landing within an ulp of a .5 tie may round one step away.
    float inv = scale > 0.0f ? 1.0f / scale : 0.0f;
    float4 v = reinterpret_cast<const float4*>(x + (size_t)g * GROUP)[lane]; // second read of x: from DRAM again
    char4 c = make_char4(quant(v.x, inv), quant(v.y, inv), quant(v.z, inv), quant(v.w, inv));
    reinterpret_cast<char4*>(q + (size_t)g * GROUP)[lane] = c;
}
