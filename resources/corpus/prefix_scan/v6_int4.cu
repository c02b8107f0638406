// Reduce-then-scan with 8 consecutive elements per thread loaded straight into registers as two int4 (16-byte)
// vectors: no shared-memory staging of the tile at all (2048-element tiles, 256 threads).
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

// Loads the 8 consecutive elements starting at base (a multiple of 8, so 32-byte aligned) with 16-byte loads,
// or element by element with zero fill where the array ends inside them.
__device__ __forceinline__ void loadItems(const int* x, int base, int n, int v[ITEMS])
{
    if (base + ITEMS <= n) {
        const int4* p = reinterpret_cast<const int4*>(x + base);
#pragma unroll
        for (int q = 0; q < ITEMS / 4; ++q) {
            int4 a = p[q];
            v[4 * q] = a.x;
            v[4 * q + 1] = a.y;
            v[4 * q + 2] = a.z;
            v[4 * q + 3] = a.w;
        }
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            v[k] = base + k < n ? x[base + k] : 0;
        }
    }
}

__device__ __forceinline__ void storeItems(int* y, int base, int n, const int v[ITEMS])
{
    if (base + ITEMS <= n) {
        int4* p = reinterpret_cast<int4*>(y + base);
#pragma unroll
        for (int q = 0; q < ITEMS / 4; ++q) {
            p[q] = make_int4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
        }
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            if (base + k < n) {
                y[base + k] = v[k];
            }
        }
    }
}

extern "C" __global__ void reduce_tiles_int4(const int* x, int n)
{
    __shared__ int warpTotals[THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int v[ITEMS];
    loadItems(x, blockIdx.x * TILE + threadIdx.x * ITEMS, n, v);
    int s = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        s += v[k];
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

extern "C" __global__ void scan_tiles_int4(const int* x, int* y, int n)
{
    int base = blockIdx.x * TILE + threadIdx.x * ITEMS;
    int v[ITEMS];
    loadItems(x, base, n, v);
#pragma unroll
    for (int k = 1; k < ITEMS; ++k) {
        v[k] += v[k - 1];
    }
    int total;
    int offset = blockExclusiveScan(v[ITEMS - 1], &total) + g_sums[blockIdx.x];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        v[k] += offset;
    }
    storeItems(y, base, n, v);
}
