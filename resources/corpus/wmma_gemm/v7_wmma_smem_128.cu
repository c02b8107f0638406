// Half-precision GEMM with WMMA: 128x128 block tiles in padded shared memory, 8 warps each computing 64x32 of C.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define PAD 8
#define THREADS 256

extern "C" __global__ void __launch_bounds__(THREADS) hgemm_wmma_smem_128(const __half* A, const __half* B, float* C,
                                                                           int M, int N, int K)
{
    __shared__ __align__(128) __half As[BM][BK + PAD]; // 10240 bytes
    __shared__ __align__(128) __half Bs[BK][BN + PAD]; // 8704 bytes
    int tid = threadIdx.x;
    int warp = tid >> 5;
    int wr = warp >> 2, wc = warp & 3; // 2x4 warps, 64x32 of C each: 4x2 fragments
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;

    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[4];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            wmma::fill_fragment(acc[i][j], 0.0f);
        }
    }
    for (int k0 = 0; k0 < K; k0 += BK) {
        // Each thread copies two 16-byte chunks of each tile; chunks outside the matrix are zero-filled.
#pragma unroll
        for (int c = tid; c < BM * BK / 8; c += THREADS) {
            int r = c / (BK / 8), kc = (c % (BK / 8)) * 8;
            int gr = rowBase + r, gk = k0 + kc;
            uint4 v = make_uint4(0u, 0u, 0u, 0u);
            if (gr < M && gk < K) {
                v = *reinterpret_cast<const uint4*>(A + (size_t)gr * K + gk);
            }
            *reinterpret_cast<uint4*>(&As[r][kc]) = v;
        }
#pragma unroll
        for (int c = tid; c < BK * BN / 8; c += THREADS) {
            int r = c / (BN / 8), nc = (c % (BN / 8)) * 8;
            int gk = k0 + r, gc = colBase + nc;
            uint4 v = make_uint4(0u, 0u, 0u, 0u);
            if (gk < K && gc < N) {
                v = *reinterpret_cast<const uint4*>(B + (size_t)gk * N + gc);
            }
            *reinterpret_cast<uint4*>(&Bs[r][nc]) = v;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                wmma::load_matrix_sync(a[i], &As[wr * 64 + 16 * i][kk], BK + PAD);
            }
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                wmma::load_matrix_sync(b[j], &Bs[kk][wc * 32 + 16 * j], BN + PAD);
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) {
#pragma unroll
                for (int j = 0; j < 2; ++j) {
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]); // 8 MMAs per 6 fragment loads
                }
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            int row = rowBase + wr * 64 + 16 * i, col = colBase + wc * 32 + 16 * j;
            if (row < M && col < N) {
                wmma::store_matrix_sync(C + (size_t)row * N + col, acc[i][j], N, wmma::mem_row_major);
            }
        }
    }
}
