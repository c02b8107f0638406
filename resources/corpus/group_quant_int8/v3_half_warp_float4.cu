// Per-group int8 quantisation, 16 lanes per group (two groups per warp): two float4 loads and char4 stores per lane.
#define GROUP 128

__device__ __forceinline__ signed char quant(float x, float inv)
{
    int r = __float2int_rn(x * inv);
    return (signed char)min(max(r, -127), 127);
}

__device__ __forceinline__ float absmax4(float4 v)
{
    return fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w)));
}

extern "C" __global__ void gq_half_warp_float4(const float* x, unsigned char* q, float* s, int G)
{
    int g = (blockIdx.x * blockDim.x + threadIdx.x) >> 4;
    int h = threadIdx.x & 15; // lane within the half-warp that owns group g
    bool valid = g < G;       // no early return: both halves of the warp must reach the shuffles
    float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f), b = a;
    if (valid) {
        const float4* xg = reinterpret_cast<const float4*>(x + (size_t)g * GROUP);
        a = xg[h];      // elements 4h .. 4h+3
        b = xg[h + 16]; // elements 64 + 4h .. 64 + 4h + 3
    }
    float amax = fmaxf(absmax4(a), absmax4(b));
#pragma unroll
    for (int off = 8; off > 0; off >>= 1) { // offsets below 16 keep the exchange inside each half-warp
        amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, off));
    }
    if (!valid) {
        return;
    }
    if (h == 0) {
        s[g] = amax / 127.0f;
    }
    float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    char4* qg = reinterpret_cast<char4*>(q + (size_t)g * GROUP);
    qg[h] = make_char4(quant(a.x, inv), quant(a.y, inv), quant(a.z, inv), quant(a.w, inv));
    qg[h + 16] = make_char4(quant(b.x, inv), quant(b.y, inv), quant(b.z, inv), quant(b.w, inv));
}
