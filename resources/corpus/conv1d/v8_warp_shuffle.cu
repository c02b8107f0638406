// conv1d without shared memory: each warp loads a 64-element window once and passes inputs between lanes by shuffles.
extern "C" __global__ void conv1d_warp_shuffle(const float* x, const float* w, float* y, int L, int K)
{
    int lane = threadIdx.x & 31;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int base = i - lane; // first output of this warp
    const float* row = x + (size_t)blockIdx.y * L;
    int R = K / 2;
    // window[n] = x[base - R + n] for n < 64 (zero outside the signal): lane l holds n = l in lo, n = 32 + l in hi.
    int j0 = base - R + lane, j1 = j0 + 32;
    float lo = (j0 >= 0 && j0 < L) ? row[j0] : 0.0f;
    float hi = (j1 >= 0 && j1 < L) ? row[j1] : 0.0f;
    // No early return: lanes past the end still take part in the shuffles, they only skip the store.
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) { // output lane l, tap k needs window[l + k], l + k <= 31 + 32 for K <= 33
        int n = lane + k;
        float a = __shfl_sync(0xffffffffu, lo, n & 31);
        float b = __shfl_sync(0xffffffffu, hi, n & 31);
        acc += __ldg(w + k) * (n < 32 ? a : b);
    }
    if (i < L) {
        y[(size_t)blockIdx.y * L + i] = acc;
    }
}
