// conv1d with the block's input tile plus its halo staged in shared memory: each input is read from global once
// per block.
#define TILE 256
#define MAX_K 33

extern "C" __global__ void __launch_bounds__(TILE) conv1d_smem_tile(const float* x, const float* w, float* y, int L,
                                                                    int K)
{
    __shared__ float xs[TILE + MAX_K - 1]; // xs[t] = x[i0 - R + t], zero outside the signal
    __shared__ float ws[MAX_K];
    int tid = threadIdx.x;
    int i0 = blockIdx.x * TILE;
    int R = K / 2;
    const float* row = x + (size_t)blockIdx.y * L;
    for (int t = tid; t < TILE + K - 1; t += TILE) {
        int j = i0 - R + t;
        xs[t] = (j >= 0 && j < L) ? row[j] : 0.0f;
    }
    if (tid < K) {
        ws[tid] = w[tid];
    }
    __syncthreads();
    int i = i0 + tid;
    if (i < L) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc += ws[k] * xs[tid + k]; // ws: broadcast; xs: 32 consecutive words, conflict-free
        }
        y[(size_t)blockIdx.y * L + i] = acc;
    }
}
