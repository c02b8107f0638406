// Histogram with 32 replicas per block padded to 33 words per bin: padding that creates bank conflicts.
#define BINS 256
#define REPLICAS 32
#define STRIDE (REPLICAS + 1)

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

// Launched with BINS threads per block; 33 KB of shared memory.
extern "C" __global__ void __launch_bounds__(BINS) hist_padded_replicas(const unsigned char* x, int* hist, int n)
{
    // Word bin * 33 + lane is in bank (bin + lane) % 32: two lanes now collide whenever their bins differ by
    // the difference of their lane numbers (mod 32), which random data does often.
    __shared__ int local[BINS * STRIDE];
    int t = threadIdx.x, lane = t & 31;
    for (int k = t; k < BINS * STRIDE; k += BINS) {
        local[k] = 0;
    }
    __syncthreads();
    int stride = gridDim.x * BINS;
    for (int i = blockIdx.x * BINS + t; i < n; i += stride) {
        atomicAdd(&local[x[i] * STRIDE + lane], 1);
    }
    __syncthreads();
    // The merge is where padding helps: word t * 33 + k is in bank (t + k) % 32, distinct across the warp.
    int c = 0;
#pragma unroll 8
    for (int k = 0; k < REPLICAS; ++k) {
        c += local[t * STRIDE + k];
    }
    if (c != 0) {
        atomicAdd(&hist[t], c);
    }
}
