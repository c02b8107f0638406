// gelu(x + bias) with a grid-stride loop over the flattened matrix and a fixed grid of at most 1056 blocks.
// GELU, tanh approximation: 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))).
__device__ __forceinline__ float gelu(float v)
{
    const float k0 = 0.7978845608f; // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

extern "C" __global__ void gelu_bias_grid_stride(const float* x, const float* bias, float* y, int rows, int cols)
{
    int total = rows * cols;
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        y[i] = gelu(x[i] + bias[i % cols]);
    }
}
