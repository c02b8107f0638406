// Histogram with 32 replicas per block laid out [bin][lane]: lane l always uses replica l, which sits in bank l.
#define BINS 256
#define REPLICAS 32

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

// Launched with BINS threads per block; 32 KB of shared memory.
extern "C" __global__ void __launch_bounds__(BINS) hist_lane_replicas(const unsigned char* x, int* hist, int n)
{
    // Word bin * 32 + lane is in bank lane: a warp's 32 atomics hit 32 different banks and never the same
    // address, whatever the data. Lanes of different warps still share a replica, hence the atomics.
    __shared__ int local[BINS * REPLICAS];
    int t = threadIdx.x, lane = t & 31;
    for (int k = t; k < BINS * REPLICAS; k += BINS) {
        local[k] = 0;
    }
    __syncthreads();
    int stride = gridDim.x * BINS;
    for (int i = blockIdx.x * BINS + t; i < n; i += stride) {
        atomicAdd(&local[x[i] * REPLICAS + lane], 1);
    }
    __syncthreads();
    // Thread t sums the 32 replicas of bin t. Reading them in the order r = (k + t) % 32 keeps the warp on 32
    // distinct banks; in plain order all 32 lanes would read bank k at once.
    int c = 0;
#pragma unroll 8
    for (int k = 0; k < REPLICAS; ++k) {
        c += local[t * REPLICAS + ((k + t) & (REPLICAS - 1))];
    }
    if (c != 0) {
        atomicAdd(&hist[t], c);
    }
}
