// axpy launched on a two-dimensional grid: the block index is rebuilt from blockIdx.x and blockIdx.y.
extern "C" __global__ void axpy_grid_2d(const float* x, const float* y, float* out, float a, int n)
{
    int block = blockIdx.y * gridDim.x + blockIdx.x;
    int i = block * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a * x[i] + y[i];
    }
}
