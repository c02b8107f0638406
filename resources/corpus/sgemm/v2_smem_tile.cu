// SGEMM with 32x32 shared-memory tiles of A and B: each global element is loaded once per block, not once per thread.
#define TILE 32

extern "C" __global__ void __launch_bounds__(1024) sgemm_smem_tile(const float* A, const float* B, float* C, int M,
                                                                    int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        // Out-of-range elements load as zero so partial tiles add nothing.
        As[ty][tx] = (row < M && t + tx < K) ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * Bs[k][tx]; // As: broadcast within the warp; Bs: 32 consecutive words
        }
        __syncthreads();
    }
    if (row < M && col < N) {
        C[(size_t)row * N + col] = acc;
    }
}
