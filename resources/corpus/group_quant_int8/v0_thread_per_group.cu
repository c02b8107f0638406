// Per-group int8 quantisation reference: one thread per 128-value group, one pass for absmax, a second to quantise.
#define GROUP 128

extern "C" __global__ void gq_thread_per_group(const float* x, unsigned char* q, float* s, int G)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= G) {
        return;
    }
    const float* xg = x + (size_t)g * GROUP;
    float amax = 0.0f;
    for (int i = 0; i < GROUP; ++i) {
        amax = fmaxf(amax, fabsf(xg[i])); // lanes are 512 bytes apart: each warp load touches 32 lines
    }
    s[g] = amax / 127.0f;
    float inv = amax > 0.0f ? 127.0f / amax : 0.0f; // an all-zero group quantises to zeros
    unsigned char* qg = q + (size_t)g * GROUP;
    for (int i = 0; i < GROUP; ++i) { // second pass: the group's 512 bytes are usually still in L1
        int v = __float2int_rn(xg[i] * inv);
        v = min(max(v, -127), 127);
        qg[i] = (unsigned char)v; // int8 two's complement bit pattern in a u8 buffer
    }
}
