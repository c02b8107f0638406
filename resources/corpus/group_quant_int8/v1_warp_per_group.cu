// Per-group int8 quantisation with one warp per group: 4 values per lane, absmax by warp shuffles, one pass.
#define GROUP 128

extern "C" __global__ void gq_warp_per_group(const float* x, unsigned char* q, float* s, int G)
{
    int g = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (g >= G) { // uniform per warp, so the shuffles below always see all 32 lanes
        return;
    }
    const float* xg = x + (size_t)g * GROUP;
    float v[4];
    float amax = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        v[j] = xg[lane + 32 * j]; // 32 consecutive floats per load: coalesced
        amax = fmaxf(amax, fabsf(v[j]));
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, off));
    }
    if (lane == 0) {
        s[g] = amax / 127.0f;
    }
    float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    unsigned char* qg = q + (size_t)g * GROUP;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        int r = __float2int_rn(v[j] * inv);
        r = min(max(r, -127), 127);
        qg[lane + 32 * j] = (unsigned char)r; // 32 consecutive bytes per store
    }
}
