// axpy with a grid-stride loop: a fixed grid of blocks walks the whole vector.
extern "C" __global__ void axpy_grid_stride(const float* x, const float* y, float* out, float a, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        out[i] = a * x[i] + y[i];
    }
}
