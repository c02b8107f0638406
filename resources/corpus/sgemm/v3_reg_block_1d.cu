// SGEMM with 64x64 block tiles and 8 results per thread down a column: each Bs value read is reused 8 times.
#define BM 64
#define BN 64
#define BK 8
#define TM 8

extern "C" __global__ void __launch_bounds__(512) sgemm_reg_block_1d(const float* A, const float* B, float* C, int M,
                                                                      int N, int K)
{
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    int tid = threadIdx.x;
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    int threadCol = tid % BN, threadRow = tid / BN; // threadRow in [0, BM / TM)
    int aRow = tid / BK, aCol = tid % BK;            // one A element per thread per tile
    int bRow = tid / BN, bCol = tid % BN;            // one B element per thread per tile

    float acc[TM] = {0.0f};
    for (int t = 0; t < K; t += BK) {
        int gr = rowBase + aRow, gk = t + aCol;
        As[aRow * BK + aCol] = (gr < M && gk < K) ? A[(size_t)gr * K + gk] : 0.0f;
        int bk = t + bRow, gc = colBase + bCol;
        Bs[bRow * BN + bCol] = (bk < K && gc < N) ? B[(size_t)bk * N + gc] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float b = Bs[k * BN + threadCol];
#pragma unroll
            for (int i = 0; i < TM; ++i) {
                acc[i] += As[(threadRow * TM + i) * BK + k] * b;
            }
        }
        __syncthreads();
    }
    int col = colBase + threadCol;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int row = rowBase + threadRow * TM + i;
        if (row < M && col < N) {
            C[(size_t)row * N + col] = acc[i];
        }
    }
}
