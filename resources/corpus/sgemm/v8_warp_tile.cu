// SGEMM 128x128x8 with warp tiling: each warp owns a 64x32 block of C, each lane four 4x4 sub-tiles of it.
#define BM 128
#define BN 128
#define BK 8
#define THREADS 256
// 8 warps as 2 (rows) x 4 (columns); a warp tile is 64x32 = WM_ITER x WN_ITER sub-tiles of 32x16, and the 32
// lanes cover a sub-tile as 8 (rows) x 4 (columns) lanes with a 4x4 fragment each.
#define WM 64
#define WN 32
#define WM_ITER 2
#define WN_ITER 2
#define SUB_M 32
#define SUB_N 16

extern "C" __global__ void __launch_bounds__(THREADS) sgemm_warp_tile(const float* A, const float* B, float* C, int M,
                                                                       int N, int K)
{
    __shared__ __align__(16) float As[BK * BM]; // k-major: As[k * BM + m]
    __shared__ __align__(16) float Bs[BK * BN];
    int tid = threadIdx.x;
    int warp = tid >> 5, lane = tid & 31;
    int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
    int laneRow = lane / 4, laneCol = lane % 4;
    // Offsets inside the block tile of this lane's first fragment; the others are SUB_M / SUB_N further on.
    int m0 = warpRow * WM + laneRow * 4;
    int n0 = warpCol * WN + laneCol * 4;
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    int aRow = tid / (BK / 4), aQuad = tid % (BK / 4);
    int bRow = tid / (BN / 4), bQuad = tid % (BN / 4);
    bool vecA = (K & 3) == 0, vecB = (N & 3) == 0;

    float acc[WM_ITER * 4][WN_ITER * 4] = {{0.0f}};
    float regM[WM_ITER * 4], regN[WN_ITER * 4];
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
            // A warp reads 8 distinct float4 of As and 4 of Bs per sub-tile, each broadcast to several lanes.
#pragma unroll
            for (int mi = 0; mi < WM_ITER; ++mi) {
                float4 v = *reinterpret_cast<const float4*>(&As[k * BM + m0 + mi * SUB_M]);
                regM[mi * 4 + 0] = v.x;
                regM[mi * 4 + 1] = v.y;
                regM[mi * 4 + 2] = v.z;
                regM[mi * 4 + 3] = v.w;
            }
#pragma unroll
            for (int ni = 0; ni < WN_ITER; ++ni) {
                float4 v = *reinterpret_cast<const float4*>(&Bs[k * BN + n0 + ni * SUB_N]);
                regN[ni * 4 + 0] = v.x;
                regN[ni * 4 + 1] = v.y;
                regN[ni * 4 + 2] = v.z;
                regN[ni * 4 + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < WM_ITER * 4; ++i) {
#pragma unroll
                for (int j = 0; j < WN_ITER * 4; ++j) {
                    acc[i][j] += regM[i] * regN[j];
                }
            }
        }
        __syncthreads();
    }
    // acc[mi*4 + r][ni*4 + c] belongs to row m0 + mi*SUB_M + r and column n0 + ni*SUB_N + c of the block tile.
#pragma unroll
    for (int mi = 0; mi < WM_ITER; ++mi) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            int row = rowBase + m0 + mi * SUB_M + r;
            if (row >= M) {
                continue;
            }
            float* cRow = C + (size_t)row * N;
#pragma unroll
            for (int ni = 0; ni < WN_ITER; ++ni) {
                int col = colBase + n0 + ni * SUB_N;
                const float* v = acc[mi * 4 + r] + ni * 4;
                if (vecB && col < N) { // N % 4 == 0 and col % 4 == 0: all four columns exist and are aligned
                    *reinterpret_cast<float4*>(cRow + col) = make_float4(v[0], v[1], v[2], v[3]);
                } else {
#pragma unroll
                    for (int q = 0; q < 4; ++q) {
                        if (col + q < N) {
                            cRow[col + q] = v[q];
                        }
                    }
                }
            }
        }
    }
}
