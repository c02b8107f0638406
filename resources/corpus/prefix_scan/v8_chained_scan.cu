// Single-pass inclusive int32 scan with a chained (stream) hand-off: each 2048-element tile waits for the previous
// tile's inclusive prefix before it can publish its own, so the prefixes ripple through the tiles one at a time.
// A small first launch resets the status words and the tile counter.
#define THREADS 256
#define ITEMS 8
#define TILE (THREADS * ITEMS)

// Tile status words: high 32 bits = status, low 32 bits = value. One 64-bit word carries both, so a reader can
// never see a status with a stale value. A previous run's words would be wrong here, so every run starts with
// reset_lookback, a launch of its own.
#define FLAGS_CAP (1 << 16)
#define STATUS_EMPTY 0ull
#define STATUS_PREFIX 2ull // value = inclusive prefix up to and including this tile

__device__ unsigned long long g_status[FLAGS_CAP];
__device__ int g_tileCounter;

__device__ __forceinline__ unsigned long long packStatus(unsigned long long status, int value)
{
    return (status << 32) | (unsigned int)value;
}

extern "C" __global__ void reset_lookback(int numTiles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < numTiles) {
        g_status[i] = STATUS_EMPTY;
    }
    if (i == 0) {
        g_tileCounter = 0;
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

// Run by all 32 lanes of warp 0, but only lane 0 works: it waits until the previous tile has published its
// inclusive prefix, then publishes its own. Tiles finish strictly one after another.
__device__ int chainedPrefix(int tile, int aggregate)
{
    int exclusive = 0;
    if ((threadIdx.x & 31) == 0) {
        if (tile > 0) {
            unsigned long long word;
            do {
                word = *reinterpret_cast<volatile unsigned long long*>(&g_status[tile - 1]);
            } while ((word >> 32) != STATUS_PREFIX);
            exclusive = (int)(unsigned int)word;
        }
        atomicExch(&g_status[tile], packStatus(STATUS_PREFIX, exclusive + aggregate));
    }
    return exclusive;
}

extern "C" __global__ void __launch_bounds__(THREADS) scan_chained(const int* x, int* y, int n)
{
    __shared__ int tileShared;
    __shared__ int exclusiveShared;
    // Tiles are numbered in the order blocks start, not by blockIdx: a block only ever waits for tiles taken
    // by blocks that are already running, so the spin-wait cannot deadlock whatever the scheduling order.
    if (threadIdx.x == 0) {
        tileShared = atomicAdd(&g_tileCounter, 1);
    }
    __syncthreads();
    int tile = tileShared;
    int base = tile * TILE + threadIdx.x * ITEMS;
    int v[ITEMS];
    loadItems(x, base, n, v);
#pragma unroll
    for (int k = 1; k < ITEMS; ++k) {
        v[k] += v[k - 1];
    }
    int total;
    int offset = blockExclusiveScan(v[ITEMS - 1], &total);
    if (threadIdx.x < 32) {
        int exclusive = chainedPrefix(tile, total);
        if (threadIdx.x == 0) {
            exclusiveShared = exclusive;
        }
    }
    __syncthreads();
    offset += exclusiveShared;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        v[k] += offset;
    }
    storeItems(y, base, n, v);
}
