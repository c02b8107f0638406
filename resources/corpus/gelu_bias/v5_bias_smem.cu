// gelu(x + bias) with a grid-stride loop whose blocks first copy the whole bias vector into dynamic shared memory
// (shared_bytes = cols*4), so the loop reads bias from shared memory instead of through L1.
// GELU, tanh approximation: 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))).
__device__ __forceinline__ float gelu(float v)
{
    const float k0 = 0.7978845608f; // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

extern "C" __global__ void gelu_bias_smem(const float* x, const float* bias, float* y, int rows, int cols)
{
    extern __shared__ float sbias[];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        sbias[c] = bias[c];
    }
    __syncthreads();
    int total = rows * cols;
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        y[i] = gelu(x[i] + sbias[i % cols]);
    }
}
