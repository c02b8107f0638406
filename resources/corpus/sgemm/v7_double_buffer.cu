// SGEMM 128x128x8, 8x8 register tiles, float4 loads, double-buffered shared memory with register prefetch.
#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS ((BM / TM) * (BN / TN))

// One float4 of A (row aRow, k aQuad*4..+3) at k-offset t, zero outside the matrix.
__device__ __forceinline__ float4 loadA(const float* A, int M, int K, int gr, int gk, bool vecA)
{
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
    return a;
}

// One float4 of B (row bk, columns gc..gc+3), zero outside the matrix.
__device__ __forceinline__ float4 loadB(const float* B, int N, int K, int bk, int gc, bool vecB)
{
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
    return b;
}

extern "C" __global__ void __launch_bounds__(THREADS) sgemm_double_buffer(const float* A, const float* B, float* C,
                                                                           int M, int N, int K)
{
    // Two stages of each tile: while the block computes on one, the next tile's loads are in flight.
    __shared__ __align__(16) float As[2][BK * BM]; // k-major: As[s][k * BM + m]
    __shared__ __align__(16) float Bs[2][BK * BN];
    int tid = threadIdx.x;
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    int threadCol = tid % (BN / TN), threadRow = tid / (BN / TN);
    int aRow = tid / (BK / 4), aQuad = tid % (BK / 4);
    int bRow = tid / (BN / 4), bQuad = tid % (BN / 4);
    bool vecA = (K & 3) == 0, vecB = (N & 3) == 0;

    float4 a = loadA(A, M, K, rowBase + aRow, aQuad * 4, vecA);
    float4 b = loadB(B, N, K, bRow, colBase + bQuad * 4, vecB);
    As[0][(aQuad * 4 + 0) * BM + aRow] = a.x;
    As[0][(aQuad * 4 + 1) * BM + aRow] = a.y;
    As[0][(aQuad * 4 + 2) * BM + aRow] = a.z;
    As[0][(aQuad * 4 + 3) * BM + aRow] = a.w;
    *reinterpret_cast<float4*>(&Bs[0][bRow * BN + bQuad * 4]) = b;
    __syncthreads();

    float acc[TM][TN] = {{0.0f}};
    float regM[TM], regN[TN];
    int stage = 0;
    for (int t = 0; t < K; t += BK) {
        bool more = t + BK < K;
        if (more) { // issue the next tile's global loads now; they are consumed only after the FMAs below
            a = loadA(A, M, K, rowBase + aRow, t + BK + aQuad * 4, vecA);
            b = loadB(B, N, K, t + BK + bRow, colBase + bQuad * 4, vecB);
        }
        const float* as = As[stage];
        const float* bs = Bs[stage];
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                float4 v = *reinterpret_cast<const float4*>(&as[k * BM + threadRow * TM + i]);
                regM[i] = v.x;
                regM[i + 1] = v.y;
                regM[i + 2] = v.z;
                regM[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                float4 v = *reinterpret_cast<const float4*>(&bs[k * BN + threadCol * TN + j]);
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
        if (more) {
            // The other stage was last read in the previous iteration, before the barrier that ended it.
            int next = stage ^ 1;
            As[next][(aQuad * 4 + 0) * BM + aRow] = a.x;
            As[next][(aQuad * 4 + 1) * BM + aRow] = a.y;
            As[next][(aQuad * 4 + 2) * BM + aRow] = a.z;
            As[next][(aQuad * 4 + 3) * BM + aRow] = a.w;
            *reinterpret_cast<float4*>(&Bs[next][bRow * BN + bQuad * 4]) = b;
        }
        __syncthreads(); // one barrier per tile instead of two
        stage ^= 1;
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
            if (vecB && col < N) {
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
