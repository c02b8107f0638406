// conv1d with the filter in __constant__ memory but each lane starting at a different tap: divergent constant reads.
#define MAX_K 64

__constant__ float c_w[MAX_K];

// Stands in for cudaMemcpyToSymbol (see v1_constant_filter).
extern "C" __global__ void conv1d_load_filter(const float* w, int K)
{
    float* dst;
    asm volatile("mov.b64 %0, %1;" : "=l"(dst) : "l"((const float*)c_w));
    for (int k = threadIdx.x; k < K && k < MAX_K; k += blockDim.x) {
        dst[k] = w[k];
    }
}

extern "C" __global__ void conv1d_constant_divergent(const float* x, float* y, int L, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= L) {
        return;
    }
    const float* row = x + (size_t)blockIdx.y * L;
    int R = K / 2;
    int rot = (threadIdx.x & 31) % K; // lane l walks the taps in the order rot, rot+1, ..., K-1, 0, ..., rot-1
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        int kk = k + rot;
        kk = kk >= K ? kk - K : kk;
        int j = i + kk - R;
        if (j >= 0 && j < L) {
            acc += c_w[kk] * row[j]; // up to min(K, 32) distinct addresses per warp: the constant cache serialises
        }
    }
    y[(size_t)blockIdx.y * L + i] = acc;
}
