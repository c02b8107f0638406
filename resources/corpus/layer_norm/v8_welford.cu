// Layer norm, one block per row, Welford's running mean and M2 per thread, merged with Chan's formula.
#define THREADS 256
#define WARPS (THREADS / 32)

// Merges the partial statistics (nb, mb, qb) into (n, m, q): counts, means and sums of squared deviations.
__device__ __forceinline__ void merge(float& n, float& m, float& q, float nb, float mb, float qb)
{
    float total = n + nb;
    if (total > 0.0f) {
        float delta = mb - m;
        float wb = nb / total;
        m += delta * wb;
        q += qb + delta * delta * n * wb;
        n = total;
    }
}

__device__ __forceinline__ void warpMerge(float& n, float& m, float& q)
{
    for (int o = 16; o > 0; o >>= 1) {
        float nb = __shfl_xor_sync(0xffffffffu, n, o);
        float mb = __shfl_xor_sync(0xffffffffu, m, o);
        float qb = __shfl_xor_sync(0xffffffffu, q, o);
        merge(n, m, q, nb, mb, qb);
    }
}

extern "C" __global__ void layernorm_welford(const float* x, const float* gamma, const float* beta, float* y, int rows,
                                             int cols, float eps)
{
    __shared__ float wn[WARPS], wm[WARPS], wq[WARPS];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    // One sweep, numerically safe: the mean is updated with a division per element, no E[x^2] - mean^2.
    float n = 0.0f, m = 0.0f, q = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        float v = xr[c];
        n += 1.0f;
        float delta = v - m;
        m += delta / n;
        q += delta * (v - m);
    }
    warpMerge(n, m, q);
    if (lane == 0) {
        wn[warp] = n;
        wm[warp] = m;
        wq[warp] = q;
    }
    __syncthreads();
    // Every warp merges the WARPS partials itself, so all threads get the row's statistics.
    n = lane < WARPS ? wn[lane] : 0.0f;
    m = lane < WARPS ? wm[lane] : 0.0f;
    q = lane < WARPS ? wq[lane] : 0.0f;
    warpMerge(n, m, q);
    float mean = m;
    float rstd = rsqrtf(q / cols + eps);

    for (int c = threadIdx.x; c < cols; c += THREADS) {
        yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
    }
}
