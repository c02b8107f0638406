// conv1d, shared-memory tile, 4 consecutive outputs per thread sharing a sliding window of inputs held in registers.
#define THREADS 256
#define OUTS 4
#define TILE (THREADS * OUTS)
#define MAX_K 33

extern "C" __global__ void __launch_bounds__(THREADS) conv1d_smem_reg_window(const float* x, const float* w, float* y,
                                                                             int L, int K)
{
    __shared__ float xs[TILE + MAX_K - 1]; // xs[t] = x[i0 - R + t], zero outside the signal
    __shared__ float ws[MAX_K];
    int tid = threadIdx.x;
    int i0 = blockIdx.x * TILE;
    int R = K / 2;
    const float* row = x + (size_t)blockIdx.y * L;
    for (int t = tid; t < TILE + K - 1; t += THREADS) {
        int j = i0 - R + t;
        xs[t] = (j >= 0 && j < L) ? row[j] : 0.0f;
    }
    if (tid < K) {
        ws[tid] = w[tid];
    }
    __syncthreads();

    // Outputs i0 + 4*tid + {0..3}; for tap k they need xs[4*tid + k + {0..3}]: keep those four in registers and
    // shift one new value in per tap. Lanes read words 4 apart, so each load is a 4-way bank conflict.
    const float* base = xs + OUTS * tid;
    float v0 = base[0], v1 = base[1], v2 = base[2], v3;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (int k = 0; k < K; ++k) {
        v3 = base[k + 3]; // last tap reads xs[4*255 + K + 2], the last staged element
        float wk = ws[k];
        a0 += wk * v0;
        a1 += wk * v1;
        a2 += wk * v2;
        a3 += wk * v3;
        v0 = v1;
        v1 = v2;
        v2 = v3;
    }
    float* out = y + (size_t)blockIdx.y * L;
    int i = i0 + OUTS * tid;
    if (i < L) out[i] = a0;
    if (i + 1 < L) out[i + 1] = a1;
    if (i + 2 < L) out[i + 2] = a2;
    if (i + 3 < L) out[i + 3] = a3;
}
