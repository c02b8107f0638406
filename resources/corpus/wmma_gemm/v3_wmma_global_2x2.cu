// Half-precision GEMM with WMMA, each warp computing a 32x32 block of C (2x2 fragments) straight from global memory.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

extern "C" __global__ void __launch_bounds__(128) hgemm_wmma_global_2x2(const __half* A, const __half* B, float* C,
                                                                         int M, int N, int K)
{
    // Block = 2x2 warps = a 64x64 block of C. M, N are multiples of 16 only, so each 16x16 fragment is checked;
    // the checks are uniform across the warp.
    int warp = threadIdx.y;
    int row0 = blockIdx.y * 64 + (warp >> 1) * 32;
    int col0 = blockIdx.x * 64 + (warp & 1) * 32;
    bool rowOk[2] = {row0 < M, row0 + 16 < M};
    bool colOk[2] = {col0 < N, col0 + 16 < N};
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
    for (int k = 0; k < K; k += 16) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            if (rowOk[i]) {
                wmma::load_matrix_sync(a[i], A + (size_t)(row0 + 16 * i) * K + k, K);
            }
        }
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            if (colOk[j]) {
                wmma::load_matrix_sync(b[j], B + (size_t)k * N + col0 + 16 * j, N);
            }
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                if (rowOk[i] && colOk[j]) { // each A fragment feeds 2 MMAs, each B fragment 2
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
                }
            }
        }
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            if (rowOk[i] && colOk[j]) {
                wmma::store_matrix_sync(C + (size_t)(row0 + 16 * i) * N + col0 + 16 * j, acc[i][j], N,
                                        wmma::mem_row_major);
            }
        }
    }
}
