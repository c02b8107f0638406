// Per-group int8 quantisation with one 128-thread block per group: absmax by a shared-memory tree with barriers.
#define GROUP 128

extern "C" __global__ void __launch_bounds__(GROUP) gq_block_smem_tree(const float* x, unsigned char* q, float* s,
                                                                        int G)
{
    __shared__ float red[GROUP];
    int g = blockIdx.x; // grid = G blocks exactly
    int t = threadIdx.x;
    float v = x[(size_t)g * GROUP + t];
    red[t] = fabsf(v);
    __syncthreads();
#pragma unroll
    for (int off = GROUP / 2; off > 0; off >>= 1) { // 7 halving steps, a barrier after each
        if (t < off) {
            red[t] = fmaxf(red[t], red[t + off]);
        }
        __syncthreads();
    }
    float amax = red[0];
    if (t == 0) {
        s[g] = amax / 127.0f;
    }
    float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    int r = __float2int_rn(v * inv);
    q[(size_t)g * GROUP + t] = (unsigned char)min(max(r, -127), 127);
}
