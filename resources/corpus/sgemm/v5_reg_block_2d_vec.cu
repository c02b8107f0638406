// SGEMM 128x128x8 with 8x8 register tiles, float4 global loads and A stored transposed in shared memory.
#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS ((BM / TM) * (BN / TN))

extern "C" __global__ void __launch_bounds__(THREADS) sgemm_reg_block_2d_vec(const float* A, const float* B, float* C,
                                                                              int M, int N, int K)
{
    // As is stored k-major (As[k][m]) so a thread's TM values for one k are contiguous: one 16-byte shared load.
    __shared__ __align__(16) float As[BK * BM];
    __shared__ __align__(16) float Bs[BK * BN];
    int tid = threadIdx.x;
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    int threadCol = tid % (BN / TN), threadRow = tid / (BN / TN);
    // One float4 of A (row aRow, k aQuad*4..+3) and one float4 of B (k bRow, columns bQuad*4..+3) per thread.
    int aRow = tid / (BK / 4), aQuad = tid % (BK / 4);
    int bRow = tid / (BN / 4), bQuad = tid % (BN / 4);
    // Rows of A (B) start 16-byte aligned only when K (N) is a multiple of 4; otherwise load element by element.
    bool vecA = (K & 3) == 0, vecB = (N & 3) == 0;

    float acc[TM][TN] = {{0.0f}};
    float regM[TM], regN[TN];
    for (int t = 0; t < K; t += BK) {
        int gr = rowBase + aRow, gk = t + aQuad * 4;
        float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (vecA) {
            if (gr < M && gk < K) {
                a = *reinterpret_cast<const float4*>(A + (size_t)gr * K + gk);
            }
        } else if (gr < M) {
            const float* p = A + (size_t)gr * K;
            a.x = gk < K ? p[gk] : 0.0f;
            a.y = gk + 1 < K ? p[gk + 1] : 0.0f;
            a.z = gk + 2 < K ? p[gk + 2] : 0.0f;
            a.w = gk + 3 < K ? p[gk + 3] : 0.0f;
        }
        As[(aQuad * 4 + 0) * BM + aRow] = a.x;
        As[(aQuad * 4 + 1) * BM + aRow] = a.y;
        As[(aQuad * 4 + 2) * BM + aRow] = a.z;
        As[(aQuad * 4 + 3) * BM + aRow] = a.w;

        int bk = t + bRow, gc = colBase + bQuad * 4;
        float4 b = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (vecB) {
            if (bk < K && gc < N) {
                b = *reinterpret_cast<const float4*>(B + (size_t)bk * N + gc);
            }
        } else if (bk < K) {
            const float* p = B + (size_t)bk * N;
            b.x = gc < N ? p[gc] : 0.0f;
            b.y = gc + 1 < N ? p[gc + 1] : 0.0f;
            b.z = gc + 2 < N ? p[gc + 2] : 0.0f;
            b.w = gc + 3 < N ? p[gc + 3] : 0.0f;
        }
        *reinterpret_cast<float4*>(&Bs[bRow * BN + bQuad * 4]) = b;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                float4 v = *reinterpret_cast<const float4*>(&As[k * BM + threadRow * TM + i]);
                regM[i] = v.x;
                regM[i + 1] = v.y;
                regM[i + 2] = v.z;
                regM[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                float4 v = *reinterpret_cast<const float4*>(&Bs[k * BN + threadCol * TN + j]);
                regN[j] = v.x;
                regN[j + 1] = v.y;
                regN[j + 2] = v.z;
                regN[j + 3] = v.w;
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
        if (row >= M) {
            continue;
        }
        float* cRow = C + (size_t)row * N;
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            int col = colBase + threadCol * TN + j;
            if (vecB && col < N) { // N % 4 == 0 and col % 4 == 0: all four columns exist and are aligned
                *reinterpret_cast<float4*>(cRow + col) =
                    make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else {
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    if (col + q < N) {
                        cRow[col + q] = acc[i][j + q];
                    }
                }
            }
        }
    }
}
