// Reduce-then-scan with 8 elements per thread, CPU style: in the scan pass each thread reads and writes its own
// 8 consecutive elements directly in global memory, one scalar access at a time (uncoalesced).
#define THREADS 256
#define ITEMS 8
#define TILE (THREADS * ITEMS)
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

// Exclusive scan of one value per thread over the block; *total receives the block total. Two barriers; a caller
// that scans again must put a barrier in between, since warpTotals is reused.
__device__ __forceinline__ int blockExclusiveScan(int v, int* total)
{
    __shared__ int warpTotals[THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int inc = warpInclusiveScan(v);
    if (lane == 31) {
        warpTotals[warp] = inc;
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
    *total = warpTotals[THREADS / 32 - 1];
    return inc - v + (warp > 0 ? warpTotals[warp - 1] : 0);
}

// Pass 1: each thread sums its 8 elements of the tile at a stride of THREADS (coalesced; integer addition is
// associative, so the order does not matter), then the block adds the 256 partial sums.
extern "C" __global__ void reduce_tiles(const int* x, int n)
{
    __shared__ int warpTotals[THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int base = blockIdx.x * TILE + threadIdx.x;
    int s = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        int i = base + k * THREADS;
        s += i < n ? x[i] : 0;
    }
    s = warpSum(s);
    if (lane == 0) {
        warpTotals[warp] = s;
    }
    __syncthreads();
    if (warp == 0) {
        s = warpSum(lane < THREADS / 32 ? warpTotals[lane] : 0);
        if (lane == 0) {
            g_sums[blockIdx.x] = s;
        }
    }
}

extern "C" __global__ void scan_tiles_thread_chunks(const int* x, int* y, int n)
{
    int base = blockIdx.x * TILE + threadIdx.x * ITEMS;
    // Each thread walks its own 8 consecutive elements: at every step the 32 lanes of a warp touch addresses
    // 32 bytes apart, so one warp-wide load spans 1 KB and 32 sectors to deliver 128 useful bytes.
    int v[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        v[k] = base + k < n ? x[base + k] : 0;
    }
#pragma unroll
    for (int k = 1; k < ITEMS; ++k) {
        v[k] += v[k - 1];
    }
    int total;
    int offset = blockExclusiveScan(v[ITEMS - 1], &total) + g_sums[blockIdx.x];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        if (base + k < n) {
            y[base + k] = v[k] + offset;
        }
    }
}
