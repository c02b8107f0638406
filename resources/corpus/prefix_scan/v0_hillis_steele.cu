// Inclusive int32 scan, reference: Hillis-Steele per 512-element tile in shared memory, a one-block scan of the
// tile totals, then a pass that adds each tile's offset (three launches).
#define TILE 512
#define SUMS_CAP (1 << 18)

// Tile totals, turned into exclusive tile offsets by scan_tile_sums. Module scope, so no extra buffer is needed;
// SUMS_CAP bounds ceil_div(n, TILE) (97 657 tiles for the largest case).
__device__ int g_sums[SUMS_CAP];

// One thread per element; log2(512) = 9 steps, each reading one buffer and writing the other (double buffering),
// so a single barrier per step is enough.
extern "C" __global__ void scan_tiles_hillis_steele(const int* x, int* y, int n)
{
    __shared__ int buf[2][TILE];
    int tid = threadIdx.x;
    int i = blockIdx.x * TILE + tid;
    buf[0][tid] = i < n ? x[i] : 0;
    __syncthreads();
    int in = 0;
    for (int offset = 1; offset < TILE; offset <<= 1) {
        int v = buf[in][tid];
        if (tid >= offset) {
            v += buf[in][tid - offset];
        }
        buf[in ^ 1][tid] = v;
        in ^= 1;
        __syncthreads();
    }
    int v = buf[in][tid];
    if (i < n) {
        y[i] = v;
    }
    if (tid == TILE - 1) {
        g_sums[blockIdx.x] = v; // zero padding past n keeps the last tile's total right
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
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n) {
        y[i] += g_sums[blockIdx.x];
    }
}
