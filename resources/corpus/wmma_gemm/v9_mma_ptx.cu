// Half-precision GEMM with inline PTX mma.sync.m16n8k16 (no WMMA): 128x128 tiles in padded shared memory, each warp
// loading its own A and B fragments with plain shared-memory loads in the register layout the instruction defines.
#include <cuda_fp16.h>

#define BM 128
#define BN 128
#define BK 32
#define PAD 8
#define THREADS 256

// D = A(16x16, row) * B(16x8, col) + D with f16 inputs and f32 accumulators.
__device__ __forceinline__ void mma16816(float* d, const unsigned* a, const unsigned* b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ unsigned pack2(__half lo, __half hi)
{
    return (unsigned)__half_as_ushort(lo) | ((unsigned)__half_as_ushort(hi) << 16); // lower index in the low half
}

extern "C" __global__ void __launch_bounds__(THREADS) hgemm_mma_ptx(const __half* A, const __half* B, float* C, int M,
                                                                     int N, int K)
{
    __shared__ __align__(128) __half As[BM][BK + PAD];
    __shared__ __align__(128) __half Bs[BK][BN + PAD];
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
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int c = tid; c < BM * BK / 8; c += THREADS) {
            int r = c / (BK / 8), kc = (c % (BK / 8)) * 8;
            int gr = rowBase + r, gk = k0 + kc;
            uint4 v = make_uint4(0u, 0u, 0u, 0u);
            if (gr < M && gk < K) {
                v = *reinterpret_cast<const uint4*>(A + (size_t)gr * K + gk);
            }
            *reinterpret_cast<uint4*>(&As[r][kc]) = v;
        }
#pragma unroll
        for (int c = tid; c < BK * BN / 8; c += THREADS) {
            int r = c / (BN / 8), nc = (c % (BN / 8)) * 8;
            int gk = k0 + r, gc = colBase + nc;
            uint4 v = make_uint4(0u, 0u, 0u, 0u);
            if (gk < K && gc < N) {
                v = *reinterpret_cast<const uint4*>(B + (size_t)gk * N + gc);
            }
            *reinterpret_cast<uint4*>(&Bs[r][nc]) = v;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            unsigned af[4][4], bf[4][2];
#pragma unroll
            for (int i = 0; i < 4; ++i) { // A: rows g and g + 8, columns 2q, 2q+1 and 2q+8, 2q+9 (4-byte loads)
                int r = wr * 64 + 16 * i + g;
                af[i][0] = *reinterpret_cast<const unsigned*>(&As[r][kk + 2 * q]);
                af[i][1] = *reinterpret_cast<const unsigned*>(&As[r + 8][kk + 2 * q]);
                af[i][2] = *reinterpret_cast<const unsigned*>(&As[r][kk + 2 * q + 8]);
                af[i][3] = *reinterpret_cast<const unsigned*>(&As[r + 8][kk + 2 * q + 8]);
            }
#pragma unroll
            for (int j = 0; j < 4; ++j) { // B: column g, rows 2q, 2q+1 and 2q+8, 2q+9: two rows apart, so 2-byte loads
                int n = wc * 32 + 8 * j + g;
                bf[j][0] = pack2(Bs[kk + 2 * q][n], Bs[kk + 2 * q + 1][n]);
                bf[j][1] = pack2(Bs[kk + 2 * q + 8][n], Bs[kk + 2 * q + 9][n]);
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    mma16816(acc[i][j], af[i], bf[j]);
                }
            }
        }
        __syncthreads();
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
