// Global-atomic histogram with warp aggregation: lanes holding the same bin elect one lane to add their count.
// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

extern "C" __global__ void hist_warp_aggregated(const unsigned char* x, int* hist, int n)
{
    int lane = threadIdx.x & 31;
    int stride = gridDim.x * blockDim.x;
    // base is the same for the whole warp, so all 32 lanes run the same iterations and can join __match_any_sync.
    for (int base = blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < n; base += stride) {
        int i = base + lane;
        int bin = i < n ? (int)x[i] : -1; // lanes past the end form their own group and add nothing
        unsigned int peers = __match_any_sync(0xffffffffu, bin);
        int leader = __ffs(peers) - 1;
        if (bin >= 0 && lane == leader) {
            atomicAdd(&hist[bin], __popc(peers));
        }
    }
}
