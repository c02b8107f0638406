// gelu(x + bias) as two kernels, the way an unfused framework graph runs it: y = x + bias, then y = gelu(y) in
// place. The intermediate makes a full round trip through memory.
// GELU, tanh approximation: 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))).
__device__ __forceinline__ float gelu(float v)
{
    const float k0 = 0.7978845608f; // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

extern "C" __global__ void add_bias(const float* x, const float* bias, float* y, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        y[i] = x[i] + bias[i % cols];
    }
}

extern "C" __global__ void gelu_inplace(float* y, int total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) {
        y[i] = gelu(y[i]);
    }
}
