// Inclusive int32 scan as reduce-then-scan: pass 1 only sums each 512-element tile, pass 2 scans the tile totals,
// pass 3 reads x again and scans each tile starting from its offset. y is written once and never read back.
#define THREADS 512
#define TILE 512
#define SUMS_CAP (1 << 18)

__device__ int g_sums[SUMS_CAP];

__device__ __forceinline__ int warpInclusiveScan(int v)
{
    int lane = threadIdx.x & 31;
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) {
            v += u;
        }
    }
    return v;
}

// One block of 1024 threads turns the m tile totals into exclusive offsets, in place. Each thread owns a
// contiguous chunk (the array is small and L2-resident, so the uncoalesced chunk walk is cheap), the 1024 chunk
// totals are scanned with warp shuffles, then each thread rewrites its chunk.
extern "C" __global__ void scan_tile_sums(int m)
{
    __shared__ int warpTotals[32];
    int tid = threadIdx.x;
    int lane = tid & 31, warp = tid >> 5;
    int chunk = (m + 1023) / 1024;
    int begin = min(tid * chunk, m);
    int end = min(begin + chunk, m);
    int s = 0;
    for (int i = begin; i < end; ++i) {
        s += g_sums[i];
    }
    int inc = warpInclusiveScan(s);
    if (lane == 31) {
        warpTotals[warp] = inc;
    }
    __syncthreads();
    if (warp == 0) {
        warpTotals[lane] = warpInclusiveScan(warpTotals[lane]);
    }
    __syncthreads();
    int run = inc - s + (warp > 0 ? warpTotals[warp - 1] : 0);
    for (int i = begin; i < end; ++i) {
        int t = g_sums[i];
        g_sums[i] = run;
        run += t;
    }
}
__device__ __forceinline__ int warpSum(int v)
{
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

extern "C" __global__ void reduce_tiles(const int* x, int n)
{
    __shared__ int warpTotals[THREADS / 32];
    int tid = threadIdx.x;
    int lane = tid & 31, warp = tid >> 5;
    int i = blockIdx.x * TILE + tid;
    int v = warpSum(i < n ? x[i] : 0);
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        v = warpSum(lane < THREADS / 32 ? warpTotals[lane] : 0);
        if (lane == 0) {
            g_sums[blockIdx.x] = v;
        }
    }
}

extern "C" __global__ void scan_tiles_with_offset(const int* x, int* y, int n)
{
    __shared__ int warpTotals[THREADS / 32];
    int tid = threadIdx.x;
    int lane = tid & 31, warp = tid >> 5;
    int i = blockIdx.x * TILE + tid;
    int v = warpInclusiveScan(i < n ? x[i] : 0);
    if (lane == 31) {
        warpTotals[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        int w = lane < THREADS / 32 ? warpTotals[lane] : 0;
        w = warpInclusiveScan(w);
        if (lane < THREADS / 32) {
            warpTotals[lane] = w;
        }
    }
    __syncthreads();
    v += g_sums[blockIdx.x] + (warp > 0 ? warpTotals[warp - 1] : 0);
    if (i < n) {
        y[i] = v;
    }
}
