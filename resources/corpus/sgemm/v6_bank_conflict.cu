// SGEMM with 32x32 tiles where the B tile is stored transposed: every shared-memory access of B hits one bank.
#define TILE 32

extern "C" __global__ void __launch_bounds__(1024) sgemm_bank_conflict(const float* A, const float* B, float* C, int M,
                                                                        int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float BsT[TILE][TILE]; // BsT[n][k]: lanes (consecutive n) are TILE words apart
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[(size_t)row * K + t + tx] : 0.0f;
        BsT[tx][ty] = (t + ty < K && col < N) ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * BsT[tx][k];
        }
        __syncthreads();
    }
    if (row < M && col < N) {
        C[(size_t)row * N + col] = acc;
    }
}
