// Blelloch scan per 1024-element tile with one padding word per 32 (index + index / 32), so the strided tree
// accesses fall in different shared-memory banks; then the tile-total scan and offset pass (three launches).
#define THREADS 512
#define TILE 1024
#define SUMS_CAP (1 << 18)
// One padding word after every 32: word i lives at PAD(i), which shifts each run of 32 into the next bank.
#define PAD(i) ((i) + ((i) >> 5))

__device__ int g_sums[SUMS_CAP];

extern "C" __global__ void scan_tiles_blelloch_padded(const int* x, int* y, int n)
{
    __shared__ int t[TILE + TILE / 32];
    int tid = threadIdx.x;
    int a = blockIdx.x * TILE + tid;
    int b = a + THREADS;
    int xa = a < n ? x[a] : 0;
    int xb = b < n ? x[b] : 0;
    t[PAD(tid)] = xa;
    t[PAD(tid + THREADS)] = xb;

    // Up-sweep: a reduction tree built in place; 1023 additions in 10 levels.
    int offset = 1;
    for (int d = TILE >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            t[PAD(bi)] += t[PAD(ai)];
        }
        offset <<= 1;
    }
    // Thread 0 did the last up-sweep step itself, so it can read the total without a barrier.
    int total = 0;
    if (tid == 0) {
        total = t[PAD(TILE - 1)];
        t[PAD(TILE - 1)] = 0;
    }
    // Down-sweep: turns the tree into an exclusive scan.
    for (int d = 1; d < TILE; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            int u = t[PAD(ai)];
            t[PAD(ai)] = t[PAD(bi)];
            t[PAD(bi)] += u;
        }
    }
    __syncthreads();
    if (a < n) {
        y[a] = t[PAD(tid)] + xa; // exclusive + own value = inclusive
    }
    if (b < n) {
        y[b] = t[PAD(tid + THREADS)] + xb;
    }
    if (tid == 0) {
        g_sums[blockIdx.x] = total;
    }
}

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
extern "C" __global__ void add_tile_offsets(int* y, int n)
{
    int a = blockIdx.x * TILE + threadIdx.x;
    int b = a + THREADS;
    int offset = g_sums[blockIdx.x];
    if (a < n) {
        y[a] += offset;
    }
    if (b < n) {
        y[b] += offset;
    }
}
