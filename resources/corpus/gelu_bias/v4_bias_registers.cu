// gelu(x + bias) where each thread owns one column of a 16-row band: it loads bias[col] once into a register and
// walks down the rows, so bias is read once per 16 elements and no index needs a modulo.
#define ROWS_PER_BLOCK 16
// GELU, tanh approximation: 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))).
__device__ __forceinline__ float gelu(float v)
{
    const float k0 = 0.7978845608f; // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

extern "C" __global__ void gelu_bias_registers(const float* x, const float* bias, float* y, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) {
        return;
    }
    float b = bias[col];
    int r0 = blockIdx.y * ROWS_PER_BLOCK;
    int r1 = min(r0 + ROWS_PER_BLOCK, rows);
#pragma unroll 4
    for (int r = r0; r < r1; ++r) {
        size_t i = (size_t)r * cols + col;
        y[i] = gelu(x[i] + b);
    }
}
