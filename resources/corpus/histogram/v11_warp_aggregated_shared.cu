// Block-private histogram with warp aggregation: one shared atomic per distinct bin in each warp.
#define BINS 256

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

extern "C" __global__ void __launch_bounds__(BINS) hist_warp_aggregated_shared(const unsigned char* x, int* hist, int n)
{
    __shared__ int local[BINS];
    int t = threadIdx.x, lane = t & 31;
    local[t] = 0;
    __syncthreads();
    int stride = gridDim.x * BINS;
    // base is warp-uniform, so all 32 lanes take part in every __match_any_sync.
    for (int base = blockIdx.x * BINS + (t & ~31); base < n; base += stride) {
        int i = base + lane;
        int bin = i < n ? (int)x[i] : -1;
        unsigned int peers = __match_any_sync(0xffffffffu, bin);
        if (bin >= 0 && lane == __ffs(peers) - 1) {
            atomicAdd(&local[bin], __popc(peers));
        }
    }
    __syncthreads();
    int c = local[t];
    if (c != 0) {
        atomicAdd(&hist[t], c);
    }
}
