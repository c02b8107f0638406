// 16-byte loads feeding 32 lane replicas per block laid out [bin][lane]: shared atomics free of bank conflicts.
#define BINS 256
#define REPLICAS 32

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

// Lane l adds to word bin * 32 + l, which is in bank l: a warp's atomics never share a bank or an address.
__device__ __forceinline__ void addWord(int* h, unsigned int w)
{
    atomicAdd(&h[(w & 0xFFu) * REPLICAS], 1);
    atomicAdd(&h[((w >> 8) & 0xFFu) * REPLICAS], 1);
    atomicAdd(&h[((w >> 16) & 0xFFu) * REPLICAS], 1);
    atomicAdd(&h[(w >> 24) * REPLICAS], 1);
}

// Launched with BINS threads per block; 32 KB of shared memory.
extern "C" __global__ void __launch_bounds__(BINS) hist_int4_lane_replicas(const unsigned char* x, int* hist, int n)
{
    __shared__ int local[BINS * REPLICAS];
    int t = threadIdx.x, lane = t & 31;
    for (int k = t; k < BINS * REPLICAS; k += BINS) {
        local[k] = 0;
    }
    __syncthreads();
    int* mine = local + lane;
    const uint4* x16 = reinterpret_cast<const uint4*>(x); // device buffers are at least 256-byte aligned
    int nvec = n >> 4;
    int stride = gridDim.x * BINS;
    int gid = blockIdx.x * BINS + t;
    for (int i = gid; i < nvec; i += stride) {
        uint4 v = x16[i];
        addWord(mine, v.x);
        addWord(mine, v.y);
        addWord(mine, v.z);
        addWord(mine, v.w);
    }
    if (gid < (n & 15)) {
        atomicAdd(&mine[x[(nvec << 4) + gid] * REPLICAS], 1);
    }
    __syncthreads();
    // Thread t sums the 32 replicas of bin t in the rotated order (k + t) % 32: 32 distinct banks per step.
    int c = 0;
#pragma unroll 8
    for (int k = 0; k < REPLICAS; ++k) {
        c += local[t * REPLICAS + ((k + t) & (REPLICAS - 1))];
    }
    if (c != 0) {
        atomicAdd(&hist[t], c);
    }
}
