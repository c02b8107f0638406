// SGEMM with 64x64 block tiles and a 4x4 register tile per thread: four times as many blocks as 128x128 tiles.
#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define THREADS ((BM / TM) * (BN / TN))

extern "C" __global__ void __launch_bounds__(THREADS) sgemm_tile64_reg4x4(const float* A, const float* B, float* C,
                                                                           int M, int N, int K)
{
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    int tid = threadIdx.x;
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    int threadCol = tid % (BN / TN), threadRow = tid / (BN / TN);
    int aRow = tid / BK, aCol = tid % BK; // rows aRow and aRow + THREADS/BK of the A tile
    int bRow = tid / BN, bCol = tid % BN; // rows bRow, bRow + THREADS/BN of the B tile

    float acc[TM][TN] = {{0.0f}};
    float regM[TM], regN[TN];
    for (int t = 0; t < K; t += BK) {
#pragma unroll
        for (int off = 0; off < BM; off += THREADS / BK) {
            int gr = rowBase + aRow + off, gk = t + aCol;
            As[(aRow + off) * BK + aCol] = (gr < M && gk < K) ? A[(size_t)gr * K + gk] : 0.0f;
        }
#pragma unroll
        for (int off = 0; off < BK; off += THREADS / BN) {
            int bk = t + bRow + off, gc = colBase + bCol;
            Bs[(bRow + off) * BN + bCol] = (bk < K && gc < N) ? B[(size_t)bk * N + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; ++i) {
                regM[i] = As[(threadRow * TM + i) * BK + k];
            }
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                regN[j] = Bs[k * BN + threadCol * TN + j];
            }
#pragma unroll
            for (int i = 0; i < TM; ++i) {
#pragma unroll
                for (int j = 0; j < TN; ++j) {
                    acc[i][j] += regM[i] * regN[j];
                }
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int row = rowBase + threadRow * TM + i;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            int col = colBase + threadCol * TN + j;
            if (row < M && col < N) {
                C[(size_t)row * N + col] = acc[i][j];
            }
        }
    }
}
