// Per-group int8 quantisation, one 128-thread block per group: absmax by a shared-memory atomicMax on the float bits.
#define GROUP 128

extern "C" __global__ void __launch_bounds__(GROUP) gq_block_atomic_max(const float* x, unsigned char* q, float* s,
                                                                         int G)
{
    __shared__ unsigned int amax_bits;
    int g = blockIdx.x; // grid = G blocks exactly
    int t = threadIdx.x;
    if (t == 0) {
        amax_bits = 0u;
    }
    float v = x[(size_t)g * GROUP + t];
    __syncthreads();
    // Non-negative floats order like their bit patterns read as unsigned integers, so an integer max is a float max.
    // All 128 threads hit the same word: the atomics serialise.
    atomicMax(&amax_bits, __float_as_uint(fabsf(v)));
    __syncthreads();
    float amax = __uint_as_float(amax_bits);
    if (t == 0) {
        s[g] = amax / 127.0f;
    }
    float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    int r = __float2int_rn(v * inv);
    q[(size_t)g * GROUP + t] = (unsigned char)min(max(r, -127), 127);
}
