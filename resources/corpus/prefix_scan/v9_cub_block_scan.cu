// Reduce-then-scan with CUB's block-wide primitives: BlockLoad/BlockStore (warp-transposed, coalesced), BlockReduce
// and BlockScan over 8 elements per thread (2048-element tiles, 256 threads); the tile-total pass is the reference's.
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#define THREADS 256
#define ITEMS 8
#define TILE (THREADS * ITEMS)
#define SUMS_CAP (1 << 18)

__device__ int g_sums[SUMS_CAP];

typedef cub::BlockLoad<int, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE> TileLoad;
typedef cub::BlockStore<int, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE> TileStore;
typedef cub::BlockScan<int, THREADS> TileScan;
typedef cub::BlockReduce<int, THREADS> TileReduce;

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
extern "C" __global__ void reduce_tiles_cub(const int* x, int n)
{
    __shared__ TileReduce::TempStorage temp;
    int tileBase = blockIdx.x * TILE;
    int valid = min(TILE, n - tileBase);
    int v[ITEMS];
    // Striped order (element k*THREADS + tid) is coalesced without any exchange, and a sum does not care.
    cub::LoadDirectStriped<THREADS>(threadIdx.x, x + tileBase, v, valid, 0);
    int s = TileReduce(temp).Sum(v);
    if (threadIdx.x == 0) {
        g_sums[blockIdx.x] = s;
    }
}

extern "C" __global__ void scan_tiles_cub(const int* x, int* y, int n)
{
    __shared__ union {
        TileLoad::TempStorage load;
        TileScan::TempStorage scan;
        TileStore::TempStorage store;
    } temp;
    int tileBase = blockIdx.x * TILE;
    int valid = min(TILE, n - tileBase);
    int v[ITEMS];
    if (valid == TILE) {
        TileLoad(temp.load).Load(x + tileBase, v);
    } else {
        TileLoad(temp.load).Load(x + tileBase, v, valid, 0);
    }
    __syncthreads(); // temp is reused by the scan
    TileScan(temp.scan).InclusiveSum(v, v);
    __syncthreads();
    int offset = g_sums[blockIdx.x];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        v[k] += offset;
    }
    if (valid == TILE) {
        TileStore(temp.store).Store(y + tileBase, v);
    } else {
        TileStore(temp.store).Store(y + tileBase, v, valid);
    }
}
