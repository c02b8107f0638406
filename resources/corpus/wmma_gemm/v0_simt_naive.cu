// Half-precision GEMM reference (C = A*B, f16 inputs, f32 accumulate and output) on the FP32 units: one thread per
// C element.
#include <cuda_fp16.h>

extern "C" __global__ void hgemm_simt_naive(const __half* A, const __half* B, float* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            // f16 x f16 products are exact in f32; only the additions round.
            acc += __half2float(A[(size_t)row * K + k]) * __half2float(B[(size_t)k * N + col]);
        }
        C[(size_t)row * N + col] = acc;
    }
}
