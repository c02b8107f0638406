// Histogram privatised per block: shared-memory atomics during the sweep, 256 global atomics per block at the end.
#define BINS 256

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

// Launched with BINS threads per block: thread t clears and finally publishes bin t.
extern "C" __global__ void __launch_bounds__(BINS) hist_shared_private(const unsigned char* x, int* hist, int n)
{
    __shared__ int local[BINS];
    int t = threadIdx.x;
    local[t] = 0;
    __syncthreads();
    int stride = gridDim.x * BINS;
    for (int i = blockIdx.x * BINS + t; i < n; i += stride) {
        atomicAdd(&local[x[i]], 1);
    }
    __syncthreads();
    int c = local[t];
    if (c != 0) {
        atomicAdd(&hist[t], c);
    }
}
