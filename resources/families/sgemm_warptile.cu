// Warp-tiled SGEMM family: C = A * B (row-major, float32). Three levels of tiling: a block computes a BM x BN tile of
// C, walking its slice of K in steps of BK through shared memory; each warp owns a WM x WN part of that tile; each
// lane of the warp holds WMITER x WNITER sub-tiles of TM x TN results in registers, laid out so that the 32 lanes of
// a warp (LANES_M x LANES_N of them) read neighbouring shared-memory words. STAGES 2 double-buffers the shared tiles
// (the next tile's global loads are in flight while the current one is multiplied); SPLITK > 1 splits K over the
// grid's z dimension and the slices add their partial products into C with atomics. PAD pads the rows of the
// staged tiles. The tunables and derived values arrive as #defines above this text (gpuf-family/1).
#define WMITER (WM / (LANES_M * TM)) // sub-tiles per lane along M
#define WNITER (WN / (LANES_N * TN)) // sub-tiles per lane along N
#define A_LOADS ((BM * BK) / (THREADS * 4)) // float4 loads per thread for A's tile
#define B_LOADS ((BK * BN) / (THREADS * 4)) // float4 loads per thread for B's tile
#define AS_LD (BM + PAD) // row length of the k-major A tile in shared memory
#define BS_LD (BN + PAD) // row length of the B tile in shared memory

// All launches are timed together and C starts poisoned: with SPLITK > 1 the slices accumulate into C, so a first
// launch clears it. With SPLITK 1 the launch is a single empty block (every configuration pays one launch).
extern "C" __global__ void zero_c(float* C, int count)
{
#if SPLITK > 1
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i + 4 <= count) {
        *reinterpret_cast<float4*>(C + i) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    } else {
        for (int q = i; q < count; ++q) {
            C[q] = 0.0f;
        }
    }
#endif
}

// Four consecutive floats from p; `avail` is how many of them exist (may be <= 0, then nothing is read). The 16-byte
// load is used only when the address is aligned and all four exist; otherwise element by element.
__device__ __forceinline__ float4 load4(const float* p, bool aligned, int avail)
{
    if (aligned && avail >= 4) {
        return *reinterpret_cast<const float4*>(p);
    }
    float4 v;
    v.x = avail > 0 ? p[0] : 0.0f;
    v.y = avail > 1 ? p[1] : 0.0f;
    v.z = avail > 2 ? p[2] : 0.0f;
    v.w = avail > 3 ? p[3] : 0.0f;
    return v;
}

extern "C" __global__ void __launch_bounds__(THREADS) sgemm_warptile(const float* A, const float* B, float* C, int M,
                                                                     int N, int K)
{
    // Shared memory (dynamic, SMEM_BYTES): STAGES tiles of A stored k-major (As[k][m], so a lane's TM values for one k
    // are adjacent and read as float4), then STAGES tiles of B (Bs[k][n]).
    extern __shared__ float4 smem4[];
    float* As = reinterpret_cast<float*>(smem4);
    float* Bs = As + STAGES * BK * AS_LD;

    const int tid = threadIdx.x;
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;
    const int warp = tid / 32;
    const int lane = tid % 32;
    const int warpRow = warp / (BN / WN);
    const int warpCol = warp % (BN / WN);
    const int laneRow = lane / LANES_N;
    const int laneCol = lane % LANES_N;

    // This block's slice of K: ceil(K / SPLITK) rounded up to whole BK steps. A slice past K has nothing to add.
    const int kPer = ((K + SPLITK - 1) / SPLITK + BK - 1) / BK * BK;
    const int kBegin = blockIdx.z * kPer;
    const int kEnd = min(K, kBegin + kPer);
    if (kBegin >= kEnd) {
        return;
    }
    // A row of A starts 16-byte aligned only when K is a multiple of 4 (a row of B: when N is); cuMemAlloc aligns
    // the base.
    const bool alignedA = (K % 4) == 0;
    const bool alignedB = (N % 4) == 0;

    float acc[WMITER][WNITER][TM][TN];
#pragma unroll
    for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
        for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
            for (int i = 0; i < TM; ++i) {
#pragma unroll
                for (int j = 0; j < TN; ++j) {
                    acc[wm][wn][i][j] = 0.0f;
                }
            }
        }
    }

    float4 ra[A_LOADS];
    float4 rb[B_LOADS];
    // Global -> registers: the K step starting at t (elements at or past kEnd read as zeros).
    auto fetch = [&](int t) {
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) {
            const int e = (l * THREADS + tid) * 4; // element of the BM x BK tile, row-major
            const int m = e / BK;
            const int k = e % BK; // BK is a multiple of 4: the four elements stay in one row
            const int gr = rowBase + m;
            const int gk = t + k;
            const int avail = gr < M ? kEnd - gk : 0;
            ra[l] = load4(A + (size_t)(gr < M ? gr : 0) * K + (avail > 0 ? gk : 0), alignedA, avail);
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) {
            const int e = (l * THREADS + tid) * 4; // element of the BK x BN tile, row-major
            const int k = e / BN;
            const int n = e % BN;
            const int gk = t + k;
            const int gc = colBase + n;
            const int avail = gk < kEnd ? N - gc : 0;
            rb[l] = load4(B + (size_t)(gk < kEnd ? gk : 0) * N + (avail > 0 ? gc : 0), alignedB, avail);
        }
    };
    // Registers -> shared buffer `buf`: A transposed to k-major, B as it is (one 16-byte store per float4).
    auto stash = [&](int buf) {
        float* as = As + buf * BK * AS_LD;
        float* bs = Bs + buf * BK * BS_LD;
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) {
            const int e = (l * THREADS + tid) * 4;
            const int m = e / BK;
            const int k = e % BK;
            as[(k + 0) * AS_LD + m] = ra[l].x;
            as[(k + 1) * AS_LD + m] = ra[l].y;
            as[(k + 2) * AS_LD + m] = ra[l].z;
            as[(k + 3) * AS_LD + m] = ra[l].w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) {
            const int e = (l * THREADS + tid) * 4;
            const int k = e / BN;
            const int n = e % BN;
            *reinterpret_cast<float4*>(bs + k * BS_LD + n) = rb[l];
        }
    };
    // The BK rank-1 updates of the staged tiles in buffer `buf`: per k, each lane reads its WMITER * TM values of A
    // and WNITER * TN values of B as float4 and does WMITER * WNITER * TM * TN multiply-adds.
    auto compute = [&](int buf) {
        const float* as = As + buf * BK * AS_LD + warpRow * WM + laneRow * TM;
        const float* bs = Bs + buf * BK * BS_LD + warpCol * WN + laneCol * TN;
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[WMITER][TM];
            float b[WNITER][TN];
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
                for (int i = 0; i < TM; i += 4) {
                    const float4 q = *reinterpret_cast<const float4*>(as + k * AS_LD + wm * (LANES_M * TM) + i);
                    a[wm][i + 0] = q.x;
                    a[wm][i + 1] = q.y;
                    a[wm][i + 2] = q.z;
                    a[wm][i + 3] = q.w;
                }
            }
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const float4 q = *reinterpret_cast<const float4*>(bs + k * BS_LD + wn * (LANES_N * TN) + j);
                    b[wn][j + 0] = q.x;
                    b[wn][j + 1] = q.y;
                    b[wn][j + 2] = q.z;
                    b[wn][j + 3] = q.w;
                }
            }
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
                for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
                    for (int i = 0; i < TM; ++i) {
#pragma unroll
                        for (int j = 0; j < TN; ++j) {
                            acc[wm][wn][i][j] += a[wm][i] * b[wn][j];
                        }
                    }
                }
            }
        }
    };

#if STAGES == 1
    // One buffer: load, barrier, multiply, barrier (nobody may overwrite the tile while others still read it).
    for (int t = kBegin; t < kEnd; t += BK) {
        fetch(t);
        stash(0);
        __syncthreads();
        compute(0);
        __syncthreads();
    }
#else
    // Two buffers: the next step's global loads are issued before the current step's multiply-adds and land in the
    // other buffer afterwards, so the load latency hides behind arithmetic and one barrier per step suffices (the
    // buffer written in step s was last read in step s - 1, before that step's barrier).
    fetch(kBegin);
    stash(0);
    __syncthreads();
    int buf = 0;
    for (int t = kBegin; t < kEnd; t += BK) {
        const bool more = t + BK < kEnd;
        if (more) {
            fetch(t + BK);
        }
        compute(buf);
        if (more) {
            stash(buf ^ 1);
        }
        __syncthreads();
        buf ^= 1;
    }
#endif

    // A row of C starts 16-byte aligned when N is a multiple of 4; the columns of a lane's sub-tile are then too.
    const bool alignedC = (N % 4) == 0;
#pragma unroll
    for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = rowBase + warpRow * WM + wm * (LANES_M * TM) + laneRow * TM + i;
            if (row >= M) {
                continue;
            }
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const int col = colBase + warpCol * WN + wn * (LANES_N * TN) + laneCol * TN + j;
                    float* c = C + (size_t)row * N + col;
#if SPLITK == 1
                    if (alignedC && col + 4 <= N) {
                        *reinterpret_cast<float4*>(c) = make_float4(
                            acc[wm][wn][i][j], acc[wm][wn][i][j + 1], acc[wm][wn][i][j + 2], acc[wm][wn][i][j + 3]);
                    } else {
#pragma unroll
                        for (int q = 0; q < 4; ++q) {
                            if (col + q < N) {
                                c[q] = acc[wm][wn][i][j + q];
                            }
                        }
                    }
#else
#pragma unroll
                    for (int q = 0; q < 4; ++q) {
                        if (col + q < N) {
                            atomicAdd(c + q, acc[wm][wn][i][j + q]);
                        }
                    }
#endif
                }
            }
        }
    }
}
