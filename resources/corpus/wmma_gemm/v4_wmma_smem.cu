// Half-precision GEMM with WMMA: 64x64 block tiles staged in padded shared memory (16-byte copies), 4 warps of 32x32.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define BM 64
#define BN 64
#define BK 32
#define PAD 8 // halves added to each shared row: 16 bytes keep rows aligned and shift them across banks
#define THREADS 128

extern "C" __global__ void __launch_bounds__(THREADS) hgemm_wmma_smem(const __half* A, const __half* B, float* C,
                                                                       int M, int N, int K)
{
    __shared__ __align__(128) __half As[BM][BK + PAD];
    __shared__ __align__(128) __half Bs[BK][BN + PAD];
    int tid = threadIdx.x;
    int warp = tid >> 5;
    int wr = warp >> 1, wc = warp & 1; // 2x2 warps, 32x32 of C each
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;

    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
    for (int i = 0; i < 2; ++i) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            wmma::fill_fragment(acc[i][j], 0.0f);
        }
    }
    for (int k0 = 0; k0 < K; k0 += BK) {
        // 16-byte chunks (8 halves). M, N, K are multiples of 16, so a chunk is entirely inside or outside the matrix;
        // outside chunks are zero-filled and add nothing.
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
            for (int i = 0; i < 2; ++i) {
                wmma::load_matrix_sync(a[i], &As[wr * 32 + 16 * i][kk], BK + PAD);
            }
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                wmma::load_matrix_sync(b[j], &Bs[kk][wc * 32 + 16 * j], BN + PAD);
            }
#pragma unroll
            for (int i = 0; i < 2; ++i) {
#pragma unroll
                for (int j = 0; j < 2; ++j) {
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
                }
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            int row = rowBase + wr * 32 + 16 * i, col = colBase + wc * 32 + 16 * j;
            if (row < M && col < N) { // fragments of zero-filled rows/columns are computed but not stored
                wmma::store_matrix_sync(C + (size_t)row * N + col, acc[i][j], N, wmma::mem_row_major);
            }
        }
    }
}
