// Half-precision GEMM on the FP32 units with 32x32 shared-memory tiles (converted to f32 once, when staged).
#include <cuda_fp16.h>

#define TILE 32

extern "C" __global__ void __launch_bounds__(1024) hgemm_simt_smem_tile(const __half* A, const __half* B, float* C,
                                                                         int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        // Out-of-range elements (M, N, K are multiples of 16, not of 32) load as zero and add nothing.
        As[ty][tx] = (row < M && t + tx < K) ? __half2float(A[(size_t)row * K + t + tx]) : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? __half2float(B[(size_t)(t + ty) * N + col]) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    if (row < M && col < N) {
        C[(size_t)row * N + col] = acc;
    }
}
