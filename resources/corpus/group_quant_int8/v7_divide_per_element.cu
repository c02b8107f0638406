// Per-group int8 quantisation, warp per group with float4/char4, dividing every element by the scale (IEEE division).
#define GROUP 128

__device__ __forceinline__ signed char quant_div(float x, float scale)
{
    // x / scale is correctly rounded, x * (127 / absmax) is not the same number: near a .5 tie the two may round
    // to neighbouring integers, which the tolerance accepts.
    int r = scale > 0.0f ? __float2int_rn(x / scale) : 0;
    return (signed char)min(max(r, -127), 127);
}

extern "C" __global__ void gq_divide_per_element(const float* x, unsigned char* q, float* s, int G)
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
    float scale = amax / 127.0f;
    if (lane == 0) {
        s[g] = scale;
    }
    char4 c = make_char4(quant_div(v.x, scale), quant_div(v.y, scale), quant_div(v.z, scale), quant_div(v.w, scale));
    reinterpret_cast<char4*>(q + (size_t)g * GROUP)[lane] = c;
}
