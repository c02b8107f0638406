// Half-precision GEMM with mma.sync.m16n8k16, ldmatrix fragment loads and cp.async double buffering of the 128x128x32
// shared tiles: the next k-tile streams into shared memory while the tensor cores work on the current one.
#include <cuda_fp16.h>

#define BM 128
#define BN 128
#define BK 32
#define PAD 8
#define THREADS 256
#define STAGES 2

// D = A(16x16, row) * B(16x8, col) + D with f16 inputs and f32 accumulators.
__device__ __forceinline__ void mma16816(float* d, const unsigned* a, const unsigned* b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Four 8x8 b16 matrices; lanes 8m .. 8m+7 give the row addresses of matrix m, register m receives its piece.
__device__ __forceinline__ void ldmatrix_x4(unsigned* r, const void* smem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

// The same, each 8x8 matrix transposed on the way: turns row-major B rows into the column fragments mma wants.
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned* r, const void* smem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

// 16-byte global -> shared copy that bypasses registers (and L1: .cg); src_bytes = 0 writes zeros and reads nothing.
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, int src_bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_bytes));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

__device__ __forceinline__ void cp_async_wait_one() { asm volatile("cp.async.wait_group 1;\n" ::); }

struct Tiles {
    __half A[STAGES][BM][BK + PAD]; // 2 x 10240 bytes
    __half B[STAGES][BK][BN + PAD]; // 2 x 8704 bytes: 37888 in all, under the 48 KB static limit
};

__device__ __forceinline__ void load_tiles(Tiles& t, int stage, const __half* A, const __half* B, int M, int N, int K,
                                           int rowBase, int colBase, int k0, int tid)
{
#pragma unroll
    for (int c = tid; c < BM * BK / 8; c += THREADS) {
        int r = c / (BK / 8), kc = (c % (BK / 8)) * 8;
        int gr = rowBase + r, gk = k0 + kc;
        bool in = gr < M && gk < K;
        cp_async16(&t.A[stage][r][kc], in ? A + (size_t)gr * K + gk : A, in ? 16 : 0);
    }
#pragma unroll
    for (int c = tid; c < BK * BN / 8; c += THREADS) {
        int r = c / (BN / 8), nc = (c % (BN / 8)) * 8;
        int gk = k0 + r, gc = colBase + nc;
        bool in = gk < K && gc < N;
        cp_async16(&t.B[stage][r][nc], in ? B + (size_t)gk * N + gc : B, in ? 16 : 0);
    }
}

extern "C" __global__ void __launch_bounds__(THREADS) hgemm_mma_ldmatrix_cp_async(const __half* A, const __half* B,
                                                                                   float* C, int M, int N, int K)
{
    __shared__ __align__(128) Tiles t;
    int tid = threadIdx.x;
    int warp = tid >> 5, lane = tid & 31;
    int g = lane >> 2, q = lane & 3; // "groupID" and "threadID_in_group" of the PTX fragment layouts
    int wr = warp >> 2, wc = warp & 3; // 2x4 warps, 64x32 of C each: 4 (m16) x 4 (n8) MMA tiles
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;

    float acc[4][4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                acc[i][j][e] = 0.0f;
            }
        }
    }
    int tiles = (K + BK - 1) / BK;
    load_tiles(t, 0, A, B, M, N, K, rowBase, colBase, 0, tid);
    cp_async_commit();
    for (int kt = 0; kt < tiles; ++kt) {
        int cur = kt & 1;
        if (kt + 1 < tiles) { // prefetch the next k-tile into the other stage
            load_tiles(t, cur ^ 1, A, B, M, N, K, rowBase, colBase, (kt + 1) * BK, tid);
        }
        cp_async_commit(); // possibly empty: keeps "all but the newest group" meaning the current tile
        cp_async_wait_one();
        __syncthreads(); // every thread's copies of tile kt are visible
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            unsigned af[4][4], bf[4][2];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                // Lanes 0-15 address rows 0-15 at column kk, lanes 16-31 the same rows at column kk + 8: matrices
                // (rows 0-7, cols 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15) = registers a0..a3 of the fragment.
                ldmatrix_x4(af[i], &t.A[cur][wr * 64 + 16 * i + (lane & 15)][kk + (lane >> 4) * 8]);
            }
#pragma unroll
            for (int j = 0; j < 4; j += 2) {
                // Matrices (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15), transposed: the b0, b1
                // registers of two neighbouring n8 tiles.
                unsigned r[4];
                int krow = kk + (lane & 7) + ((lane >> 3) & 1) * 8;
                ldmatrix_x4_trans(r, &t.B[cur][krow][wc * 32 + 8 * j + (lane >> 4) * 8]);
                bf[j][0] = r[0];
                bf[j][1] = r[1];
                bf[j + 1][0] = r[2];
                bf[j + 1][1] = r[3];
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    mma16816(acc[i][j], af[i], bf[j]);
                }
            }
        }
        __syncthreads(); // stage cur is overwritten by the prefetch issued in the next iteration
    }
    // Accumulator layout: elements 0, 1 at (g, 2q), (g, 2q+1); elements 2, 3 at (g + 8, 2q), (g + 8, 2q+1).
#pragma unroll
    for (int i = 0; i < 4; ++i) {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            int row = rowBase + wr * 64 + 16 * i + g, col = colBase + wc * 32 + 8 * j + 2 * q;
            if (col < N) {
                if (row < M) {
                    *reinterpret_cast<float2*>(C + (size_t)row * N + col) = make_float2(acc[i][j][0], acc[i][j][1]);
                }
                if (row + 8 < M) {
                    *reinterpret_cast<float2*>(C + (size_t)(row + 8) * N + col) =
                        make_float2(acc[i][j][2], acc[i][j][3]);
                }
            }
        }
    }
}
