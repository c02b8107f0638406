// Half-precision GEMM on tensor cores with WMMA: one warp per 16x16 tile of C, fragments loaded straight from global.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

extern "C" __global__ void hgemm_wmma_global(const __half* A, const __half* B, float* C, int M, int N, int K)
{
    // Block = 4 warps stacked along M; M, N, K are multiples of 16, so a tile is either fully inside or fully outside.
    int tileRow = (blockIdx.y * blockDim.y + threadIdx.y) * 16;
    int tileCol = blockIdx.x * 16;
    if (tileRow >= M) { // the same for all lanes of the warp, as the *_sync calls require
        return;
    }
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + (size_t)tileRow * K + k, K); // 16 rows of 32 bytes
        wmma::load_matrix_sync(b, B + (size_t)k * N + tileCol, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)tileRow * N + tileCol, acc, N, wmma::mem_row_major);
}
