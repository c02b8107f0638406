// Histogram with one shared-memory sub-histogram per warp: atomics collide only within a warp, merged at the end.
#define BINS 256
#define WARPS 8

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

// Launched with BINS = 32 * WARPS threads per block.
extern "C" __global__ void __launch_bounds__(BINS) hist_warp_subhist(const unsigned char* x, int* hist, int n)
{
    __shared__ int local[WARPS * BINS];
    int t = threadIdx.x;
    for (int k = t; k < WARPS * BINS; k += BINS) {
        local[k] = 0;
    }
    __syncthreads();
    int* mine = local + (t >> 5) * BINS;
    int stride = gridDim.x * BINS;
    for (int i = blockIdx.x * BINS + t; i < n; i += stride) {
        atomicAdd(&mine[x[i]], 1);
    }
    __syncthreads();
    int c = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
        c += local[w * BINS + t];
    }
    if (c != 0) {
        atomicAdd(&hist[t], c);
    }
}
