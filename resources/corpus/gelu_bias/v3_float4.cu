// gelu(x + bias) with 16-byte float4 accesses to x, bias and y when rows are 16-byte aligned (cols % 4 == 0);
// otherwise a coalesced scalar grid-stride loop over the same grid.
// GELU, tanh approximation: 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))).
__device__ __forceinline__ float gelu(float v)
{
    const float k0 = 0.7978845608f; // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

extern "C" __global__ void gelu_bias_float4(const float* x, const float* bias, float* y, int rows, int cols)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int total = rows * cols;
    if ((cols & 3) == 0) {
        // Four consecutive elements never straddle a row, and their column is a multiple of 4.
        if (4 * t < total) {
            float4 v = reinterpret_cast<const float4*>(x)[t];
            float4 b = *reinterpret_cast<const float4*>(bias + (4 * t) % cols);
            float4 r;
            r.x = gelu(v.x + b.x);
            r.y = gelu(v.y + b.y);
            r.z = gelu(v.z + b.z);
            r.w = gelu(v.w + b.w);
            reinterpret_cast<float4*>(y)[t] = r;
        }
    } else {
        int stride = gridDim.x * blockDim.x;
        for (int i = t; i < total; i += stride) {
            y[i] = gelu(x[i] + bias[i % cols]);
        }
    }
}
