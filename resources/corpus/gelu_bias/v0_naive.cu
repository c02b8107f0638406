// y = gelu(x + bias[col]) over a rows x cols matrix, reference: one thread per element of the flattened matrix.
// GELU, tanh approximation: 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))).
__device__ __forceinline__ float gelu(float v)
{
    const float k0 = 0.7978845608f; // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

extern "C" __global__ void gelu_bias_naive(const float* x, const float* bias, float* y, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        y[i] = gelu(x[i] + bias[i % cols]);
    }
}
