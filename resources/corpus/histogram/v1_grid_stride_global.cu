// Histogram with a grid-stride loop over a fixed grid; still one global atomicAdd per element.
// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

extern "C" __global__ void hist_grid_stride_global(const unsigned char* x, int* hist, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&hist[x[i]], 1);
    }
}
