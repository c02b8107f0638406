// Per-group int8 quantisation, warp per group with float4/char4, built with --use_fast_math (approximate division).
#define GROUP 128

__device__ __forceinline__ signed char quant(float x, float inv)
{
    int r = __float2int_rn(x * inv);
    return (signed char)min(max(r, -127), 127);
}

extern "C" __global__ void gq_warp_float4_fast_math(const float* x, unsigned char* q, float* s, int G)
{
    int g = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (g >= G) {
        return;
    }
    // Group g starts at byte 512*g of x and 128*g of q: both aligned for 16- and 4-byte accesses.
    float4 v = reinterpret_cast<const float4*>(x + (size_t)g * GROUP)[lane];
    float amax = fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w)));
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, off));
    }
    if (lane == 0) {
        s[g] = amax / 127.0f;
    }
    float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    char4 c = make_char4(quant(v.x, inv), quant(v.y, inv), quant(v.z, inv), quant(v.w, inv));
    reinterpret_cast<char4*>(q + (size_t)g * GROUP)[lane] = c; // 4 bytes per lane, 128 per warp
}
