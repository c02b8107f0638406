// gelu(x + bias) with a column-major thread order on row-major data: consecutive threads walk down a column,
// so the 32 lanes of a warp touch 32 different rows, cols*4 bytes apart.
// GELU, tanh approximation: 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))).
__device__ __forceinline__ float gelu(float v)
{
    const float k0 = 0.7978845608f; // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

extern "C" __global__ void gelu_bias_column_major(const float* x, const float* bias, float* y, int rows, int cols)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < rows * cols) {
        int row = t % rows;
        int col = t / rows;
        size_t i = (size_t)row * cols + col;
        y[i] = gelu(x[i] + bias[col]);
    }
}
