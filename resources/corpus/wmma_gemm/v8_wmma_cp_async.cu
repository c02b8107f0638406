// Half-precision GEMM with WMMA, 128x128 tiles, and cp.async double buffering: the next k-tile streams into shared
// memory while the tensor cores work on the current one.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define PAD 8
#define THREADS 256
#define STAGES 2

// 16-byte global -> shared copy that bypasses registers (and L1: .cg); src_bytes = 0 writes zeros and reads nothing.
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, int src_bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_bytes));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

__device__ __forceinline__ void cp_async_wait_one() { asm volatile("cp.async.wait_group 1;\n" ::); }

struct Tiles {
    __half A[STAGES][BM][BK + PAD]; // 2 x 10240 bytes
    __half B[STAGES][BK][BN + PAD]; // 2 x 8704 bytes: 37888 in all, under the 48 KB static limit
};

__device__ __forceinline__ void load_tiles(Tiles& t, int stage, const __half* A, const __half* B, int M, int N, int K,
                                           int rowBase, int colBase, int k0, int tid)
{
#pragma unroll
    for (int c = tid; c < BM * BK / 8; c += THREADS) {
        int r = c / (BK / 8), kc = (c % (BK / 8)) * 8;
        int gr = rowBase + r, gk = k0 + kc;
        bool in = gr < M && gk < K;
        cp_async16(&t.A[stage][r][kc], in ? A + (size_t)gr * K + gk : A, in ? 16 : 0);
    }
#pragma unroll
    for (int c = tid; c < BK * BN / 8; c += THREADS) {
        int r = c / (BN / 8), nc = (c % (BN / 8)) * 8;
        int gk = k0 + r, gc = colBase + nc;
        bool in = gk < K && gc < N;
        cp_async16(&t.B[stage][r][nc], in ? B + (size_t)gk * N + gc : B, in ? 16 : 0);
    }
}

extern "C" __global__ void __launch_bounds__(THREADS) hgemm_wmma_cp_async(const __half* A, const __half* B, float* C,
                                                                           int M, int N, int K)
{
    __shared__ __align__(128) Tiles t;
    int tid = threadIdx.x;
    int warp = tid >> 5;
    int wr = warp >> 2, wc = warp & 3;
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
    int tiles = (K + BK - 1) / BK;
    load_tiles(t, 0, A, B, M, N, K, rowBase, colBase, 0, tid);
    cp_async_commit();
    for (int kt = 0; kt < tiles; ++kt) {
        int cur = kt & 1;
        if (kt + 1 < tiles) { // prefetch the next k-tile into the other stage
            load_tiles(t, cur ^ 1, A, B, M, N, K, rowBase, colBase, (kt + 1) * BK, tid);
        }
        cp_async_commit(); // possibly empty: keeps "all but the newest group" meaning the current tile
        cp_async_wait_one();
        __syncthreads(); // every thread's copies of tile kt are visible
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                wmma::load_matrix_sync(a[i], &t.A[cur][wr * 64 + 16 * i][kk], BK + PAD);
            }
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                wmma::load_matrix_sync(b[j], &t.B[cur][kk][wc * 32 + 16 * j], BN + PAD);
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) {
#pragma unroll
                for (int j = 0; j < 2; ++j) {
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
                }
            }
        }
        __syncthreads(); // stage cur is overwritten by the prefetch issued in the next iteration
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
