// RMS norm in two launches: a warp per row computes each row's scale into a module-scope array, then a separate
// element-wise kernel (2-D grid: a 256-column strip of one row per block) applies it.
#define ROWS_CAP (1 << 16)

// One scale per row (rows <= ROWS_CAP); written by pass 1, read by pass 2, so no extra buffer is needed.
__device__ float g_scale[ROWS_CAP];

__device__ __forceinline__ float warpSum(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

extern "C" __global__ void rmsnorm_row_scales(const float* x, int rows, int cols, float eps)
{
    int lane = threadIdx.x & 31;
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) {
        return;
    }
    const float* xr = x + (size_t)row * cols;
    float sq = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        float v = xr[c];
        sq += v * v;
    }
    sq = warpSum(sq);
    if (lane == 0) {
        g_scale[row] = 1.0f / sqrtf(sq / cols + eps);
    }
}

extern "C" __global__ void rmsnorm_apply(const float* x, const float* w, float* y, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    if (col < cols) {
        size_t i = (size_t)row * cols + col;
        y[i] = x[i] * g_scale[row] * w[col];
    }
}
