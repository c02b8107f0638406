// Inclusive int32 scan by a single 1024-thread block that walks the whole array in 8192-element tiles, carrying the
// running total from one tile to the next: one launch, no scratch arrays, and one SM doing all the work.
#define THREADS 1024
#define ITEMS 8
#define TILE (THREADS * ITEMS)

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

// Loads the 8 consecutive elements starting at base (a multiple of 8, so 32-byte aligned) with two 16-byte loads,
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

extern "C" __global__ void __launch_bounds__(THREADS) scan_single_block(const int* x, int* y, int n)
{
    int carry = 0;
    for (int tileBase = 0; tileBase < n; tileBase += TILE) {
        int base = tileBase + threadIdx.x * ITEMS;
        int v[ITEMS];
        loadItems(x, base, n, v);
#pragma unroll
        for (int k = 1; k < ITEMS; ++k) {
            v[k] += v[k - 1];
        }
        int total;
        int offset = blockExclusiveScan(v[ITEMS - 1], &total) + carry;
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            v[k] += offset;
        }
        storeItems(y, base, n, v);
        carry += total;
        __syncthreads(); // everyone has read warpTotals before the next tile's scan overwrites it
    }
}
