// Per-group int8 quantisation, one thread per group as in the reference, but with float4 loads and char4 stores.
#define GROUP 128

__device__ __forceinline__ signed char quant(float x, float inv)
{
    int r = __float2int_rn(x * inv);
    return (signed char)min(max(r, -127), 127);
}

extern "C" __global__ void gq_thread_per_group_float4(const float* x, unsigned char* q, float* s, int G)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= G) {
        return;
    }
    const float4* xg = reinterpret_cast<const float4*>(x + (size_t)g * GROUP);
    float amax = 0.0f;
#pragma unroll 8
    for (int i = 0; i < GROUP / 4; ++i) {
        float4 v = xg[i]; // 16 bytes per lane, lanes 512 bytes apart
        amax = fmaxf(amax, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
    }
    s[g] = amax / 127.0f;
    float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    char4* qg = reinterpret_cast<char4*>(q + (size_t)g * GROUP);
#pragma unroll 8
    for (int i = 0; i < GROUP / 4; ++i) {
        float4 v = xg[i];
        qg[i] = make_char4(quant(v.x, inv), quant(v.y, inv), quant(v.z, inv), quant(v.w, inv));
    }
}
