// Block-private histogram whose increments are compare-and-swap loops: retries pile up on popular bins.
#define BINS 256

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

// An increment written the way atomics for unsupported types are emulated: read, try to swap, retry on failure.
__device__ __forceinline__ void casIncrement(int* addr)
{
    int old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed + 1);
    } while (old != assumed);
}

extern "C" __global__ void __launch_bounds__(BINS) hist_shared_cas(const unsigned char* x, int* hist, int n)
{
    __shared__ int local[BINS];
    int t = threadIdx.x;
    local[t] = 0;
    __syncthreads();
    int stride = gridDim.x * BINS;
    for (int i = blockIdx.x * BINS + t; i < n; i += stride) {
        casIncrement(&local[x[i]]);
    }
    __syncthreads();
    int c = local[t];
    if (c != 0) {
        atomicAdd(&hist[t], c);
    }
}
