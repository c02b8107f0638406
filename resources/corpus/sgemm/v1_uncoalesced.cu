// SGEMM with the thread mapping transposed: lanes walk down a column of C, so A and C are accessed with a stride.
extern "C" __global__ void sgemm_uncoalesced(const float* A, const float* B, float* C, int M, int N, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
        }
        C[(size_t)row * N + col] = acc;
    }
}
